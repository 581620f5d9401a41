#include "ui/widgets/tuning_summary_view.h"

#include "base/io/tuning_summary.h"
#include "base/session/run_model.h"
#include "ui/widgets/coalesced_refresh.h"

namespace epsilon::ui {

TuningSummaryView::TuningSummaryView(RunModel* model, QWidget* parent)
    : QLabel(parent),
      m_model(model),
      // Settings change rarely; progress reports often.
      m_refresh(new CoalescedRefresh(this, 500, [this](bool) { refresh(); })) {
  setObjectName(QStringLiteral("tuningSummary"));
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setMargin(6);
  m_refresh->holdWhile([this] { return m_model->arriving(); });  // an open draws once, at its end
  connect(model, &RunModel::runsChanged, this, &TuningSummaryView::scheduleRefresh);
  connect(model, &RunModel::modelReset, this, &TuningSummaryView::scheduleRefresh);
  connect(model, &RunModel::dataChanged, this, &TuningSummaryView::scheduleRefresh);
  scheduleRefresh();
}

void TuningSummaryView::setTuningSweep(const QList<int>& runIds,
                                       const std::optional<privacy::TuningDistribution>& law,
                                       const std::vector<train::SweepPoint>& grid) {
  m_tuningRuns = runIds;
  m_law = runIds.isEmpty() ? std::nullopt : law;
  m_grid = runIds.isEmpty() ? std::vector<train::SweepPoint>{} : grid;
  scheduleRefresh();
}

void TuningSummaryView::scheduleRefresh() {
  m_refresh->schedule();
}

void TuningSummaryView::refreshNow() {
  m_refresh->now();
}

void TuningSummaryView::refresh() {
  std::vector<RunRecord> runs;
  for (int id : m_tuningRuns)
    if (const RunRecord* run = m_model->run(id)) {
      runs.push_back(*run);
      runs.back().visible = true;  // the tuning's runs, shown or not
    }
  if (m_tuningRuns.isEmpty()) runs = m_model->runs();
  if (runs.empty()) {
    m_request.cancel();
    m_signature.clear();
    setText(tr("Run a sweep to see what releasing its best run costs in privacy."));
    Q_EMIT summaryShown();
    return;
  }
  // Progress reports change nothing summed up here: only which runs are shown does (a run's
  // settings never change under its id), so the same set is not asked again.
  QString signature =
      m_law ? QString::number(m_law->mean) + QString::number(m_law->shape) : QString();
  for (const RunRecord& run : runs)
    if (run.visible) signature += QLatin1Char(' ') + QString::number(run.id);
  if (signature == m_signature) return;
  m_signature = signature;
  const auto law = m_tuningRuns.isEmpty() ? std::nullopt : m_law;
  m_request.start<QString>(
      JobKind::Preview, this,
      [runs = std::move(runs), law, grid = m_grid] {
        return describeSweepTuning(sweepTuningSummary(runs, law, grid));
      },
      [this](const QString& text) {
        setText(text);
        Q_EMIT summaryShown();
      });
}

}  // namespace epsilon::ui

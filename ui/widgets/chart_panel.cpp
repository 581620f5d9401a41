#include "ui/widgets/chart_panel.h"

#include <QChartView>
#include <QGridLayout>
#include <QTimer>
#include <QToolTip>
#include <QXYSeries>

#include "ui/io/number_format.h"
#include "ui/charts/run_model.h"

namespace epsilon::ui {

namespace {
constexpr int kRedrawIntervalMs = 100;  // ≤ 10 redraws per second (DESIGN.md)
}

ChartPanel::ChartPanel(RunModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_charts(new RunCharts(this)), m_redrawTimer(new QTimer(this)) {
  m_redrawTimer->setSingleShot(true);
  m_redrawTimer->setInterval(kRedrawIntervalMs);
  connect(m_redrawTimer, &QTimer::timeout, this, &ChartPanel::redrawNow);
  connect(m_charts, &RunCharts::seriesCreated, this, &ChartPanel::connectHover);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(2);
  for (ChartKind kind : kAllChartKinds) {
    const int k = static_cast<int>(kind);
    auto* view = new QChartView(m_charts->chart(kind), this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(240, 180);  // four fit beside the docks on a 1280×720 screen
    view->setObjectName(chartFileStem(kind));
    m_views[k] = view;
    grid->addWidget(view, k / 2, k % 2);
  }
  connect(model, &RunModel::historyChanged, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::runsChanged, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::modelReset, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::dataChanged, this, &ChartPanel::scheduleRedraw);
}

void ChartPanel::scheduleRedraw() {
  if (!m_redrawTimer->isActive()) m_redrawTimer->start();
}

void ChartPanel::redrawNow() {
  m_redrawTimer->stop();
  m_charts->update(m_model->runs());
  ++m_redraws;
}

void ChartPanel::setPresentationMode(bool on) { m_charts->setPresentationMode(on); }

void ChartPanel::connectHover(QXYSeries* series, int runId, ChartKind kind) {
  connect(series, &QXYSeries::hovered, this, [this, runId, kind](const QPointF& point, bool state) {
    if (!state) {
      QToolTip::hideText();
      return;
    }
    const RunRecord* run = m_model->run(runId);
    if (!run) return;
    QString text;
    switch (kind) {
      case ChartKind::AccuracyVsEpoch:
        text = tr("%1\nepoch %2: test accuracy %3%").arg(run->name, formatNumber(point.x()), formatNumber(point.y(), 4));
        break;
      case ChartKind::EpsilonVsEpoch:
        text = tr("%1\nepoch %2: ε = %3").arg(run->name, formatNumber(point.x()), formatEpsilon(point.y()));
        break;
      case ChartKind::AccuracyVsEpsilon:
        text = tr("%1\nε = %2: test accuracy %3%").arg(run->name, formatEpsilon(point.x()), formatNumber(point.y(), 4));
        break;
      case ChartKind::LossVsStep:
        text = tr("%1\nstep %2: loss %3").arg(run->name, formatNumber(point.x(), 6), formatNumber(point.y(), 4));
        break;
    }
    if (!run->privacyLabel.isEmpty() && kind != ChartKind::LossVsStep) text += QLatin1Char('\n') + run->privacyLabel;
    QToolTip::showText(QCursor::pos(), text);
  });
}

}  // namespace epsilon::ui

#include "ui/widgets/attack_view.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "base/io/attack_figure.h"
#include "base/io/number_format.h"
#include "base/session/run_model.h"
#include "ui/charts/figure_chart.h"
#include "ui/widgets/attack_choice.h"
#include "ui/widgets/attack_controller.h"
#include "ui/widgets/attack_summary.h"
#include "ui/widgets/coalesced_refresh.h"
#include "ui/widgets/job_progress_line.h"

namespace epsilon::ui {

namespace {
constexpr int kRefreshIntervalMs = 250;  // the tab follows statuses, not every lot
constexpr int kSideBySideWidth = 800;    // narrower: the numbers go under the chart
constexpr int kOneRowWidth = 560;        // narrower still: the audit controls take two rows
constexpr int kDefaultCanaries = 1000;
}  // namespace

AttackView::AttackView(RunModel* model, AttackController* controller, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_controller(controller),
      m_chartView(new QChartView(this)),
      m_refresh(new CoalescedRefresh(this, kRefreshIntervalMs, [this](bool) { rebuild(); })) {
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->setMinimumSize(240, 220);
  m_chartView->setObjectName(QStringLiteral("attackChart"));
  // Starts stacked (the narrow layout), so the tab never makes the window's minimum wider than
  // a 1024-pixel projector; resizeEvent puts the numbers beside the chart once there is room.
  m_splitter = new QSplitter(Qt::Vertical, this);
  m_splitter->addWidget(m_chartView);
  m_splitter->addWidget(buildSidePanel());
  m_splitter->setStretchFactor(0, 1);
  m_splitter->setStretchFactor(1, 1);
  m_splitter->setChildrenCollapsible(false);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_splitter);

  // Hidden (the Charts tab in front), the tab does no work: it refreshes as it is shown.
  m_refresh->holdWhile([this] { return m_model->arriving(); });  // an open draws once, at its end
  connect(m_model, &RunModel::attackChanged, this, &AttackView::scheduleRefresh);
  connect(m_model, &RunModel::runsChanged, this, &AttackView::scheduleRefresh);
  connect(m_model, &RunModel::modelReset, this, &AttackView::scheduleRefresh);
  // Its chart is built anew at each refresh: not at a progress tick, which changes nothing
  // it shows.
  connect(m_model, &RunModel::runChanged, this, &AttackView::scheduleRefresh);
  connect(m_controller, &AttackController::attackFailed, this,
          [this](int runId, const QString& message) {
            const RunRecord* run = m_model->run(runId);
            m_status->setText(
                tr("Attack on %1 failed: %2").arg(run ? run->name : tr("a removed run"), message));
            scheduleRefresh();
          });
  connect(m_controller, &AttackController::auditProgress, this, &AttackView::onAuditProgress);
  connect(m_controller, &AttackController::auditStopped, this, &AttackView::onAuditEnded);
  connect(m_controller, &AttackController::auditFinished, this,
          [this](int runId) { onAuditEnded(runId, {}); });
  refreshNow();
}

QWidget* AttackView::buildSidePanel() {
  auto* side = new QWidget(this);
  auto* column = new QVBoxLayout(side);
  column->setContentsMargins(4, 0, 0, 0);
  m_logAxes = new QCheckBox(tr("Log-log axes"), side);
  m_logAxes->setToolTip(
      tr("Log-log axes show the low false-positive end, where an attack that matters "
         "(few false accusations) lives; linear axes show the whole curve"));
  m_logAxes->setChecked(true);
  connect(m_logAxes, &QCheckBox::toggled, this, &AttackView::refreshNow);
  m_choice = new AttackChoice(m_model, m_controller, side);
  connect(m_choice, &AttackChoice::lossRequested, this, &AttackView::computeMissing);
  connect(m_choice, &AttackChoice::noteChanged, this, &AttackView::showSummary);
  auto* top = new QHBoxLayout;
  top->addWidget(m_logAxes, 0, Qt::AlignTop);
  top->addWidget(m_choice, 1);
  column->addLayout(top);

  m_summary = new QLabel(side);
  m_summary->setObjectName(QStringLiteral("attackSummary"));
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* scroll = new QScrollArea(side);
  scroll->setWidget(m_summary);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  column->addWidget(scroll, 1);

  buildAuditControls(side);
  m_auditControls = new QGridLayout;
  arrangeAuditControls(false);
  column->addLayout(m_auditControls);
  m_canaryNote = new QLabel(side);
  m_canaryNote->setObjectName(QStringLiteral("canaryNote"));
  m_canaryNote->setWordWrap(true);
  m_canaryNote->setStyleSheet(QStringLiteral("color: #b00020;"));
  m_canaryNote->hide();
  column->addWidget(m_canaryNote);
  m_status = new JobProgressLine(side);
  column->addWidget(m_status);
  return side;
}

void AttackView::buildAuditControls(QWidget* side) {
  m_canaries = new QSpinBox(side);
  m_canaries->setRange(10, 100000);
  m_canaries->setValue(kDefaultCanaries);
  m_canaries->setSuffix(tr(" canaries"));
  m_canaries->setToolTip(tr("m: canaries added to the training set, each with probability ½"));
  m_kind = new QComboBox(side);
  m_kind->addItem(tr("mislabelled"), QStringLiteral("mislabel"));
  m_kind->addItem(tr("noise (OOD)"), QStringLiteral("ood"));
  m_kind->setToolTip(
      tr("Canaries: training images with a random wrong label, or noise images "
         "(out of distribution) with a random label"));
  m_audit = new QPushButton(tr("Audit with canaries"), side);
  m_cancelAudit = new QPushButton(tr("Cancel"), side);
  m_cancelAudit->setToolTip(tr("Stop the canary audit; the run keeps what it had"));
  connect(m_canaries, &QSpinBox::valueChanged, this, [this] {
    if (!m_settingCanaries) m_canariesChosen = true;
    updateButtons();
  });
  connect(m_kind, &QComboBox::currentIndexChanged, this, &AttackView::updateButtons);
  connect(m_audit, &QPushButton::clicked, this, &AttackView::startAudit);
  connect(m_cancelAudit, &QPushButton::clicked, m_controller, &AttackController::cancelCanaryAudit);
}

void AttackView::arrangeAuditControls(bool oneRow) {
  for (QWidget* w : {static_cast<QWidget*>(m_canaries), static_cast<QWidget*>(m_kind),
                     static_cast<QWidget*>(m_audit), static_cast<QWidget*>(m_cancelAudit)})
    m_auditControls->removeWidget(w);
  m_auditControls->addWidget(m_canaries, 0, 0);
  m_auditControls->addWidget(m_kind, 0, 1);
  m_auditControls->addWidget(m_audit, oneRow ? 0 : 1, oneRow ? 2 : 0);
  m_auditControls->addWidget(m_cancelAudit, oneRow ? 0 : 1, oneRow ? 3 : 1);
}

void AttackView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Beside the docks on a small screen the tab is narrow: the numbers then go under the chart.
  const Qt::Orientation orientation = width() < kSideBySideWidth ? Qt::Vertical : Qt::Horizontal;
  if (m_splitter->orientation() == orientation && m_arranged) return;
  m_arranged = true;
  m_splitter->setOrientation(orientation);
  // One row of audit controls under the chart only when it is wide enough for them.
  arrangeAuditControls(orientation == Qt::Vertical && width() >= kOneRowWidth);
  const int extent = orientation == Qt::Vertical ? height() : width();
  // Under the chart the numbers get a little more than half: a table of two runs reads whole.
  m_splitter->setSizes(orientation == Qt::Vertical ? QList<int>{extent * 9 / 20, extent * 11 / 20}
                                                   : QList<int>{extent / 2, extent / 2});
}

void AttackView::setRuns(const QList<int>& runIds) {
  m_selected = runIds;
  m_refresh->nowIfShown();  // a click in the Runs table, the Charts tab in front: when shown
}

QList<int> AttackView::shownRuns() const {
  QList<int> ids;
  for (int id : m_selected)
    if (m_model->run(id)) ids << id;
  if (!ids.isEmpty()) return ids;
  for (const RunRecord& run : m_model->runs())
    if (run.visible) ids << run.id;
  return ids;
}

void AttackView::setLogAxes(bool on) {
  m_logAxes->setChecked(on);
}

void AttackView::setTrainingSetSize(TrainingSetSize size) {
  m_trainingSetSize = std::move(size);
  updateButtons();
}

QString AttackView::canaryProblem() const {
  const QList<int> ids = shownRuns();
  const RunRecord* target = ids.isEmpty() ? nullptr : m_model->run(ids.first());
  if (!target || !m_trainingSetSize) return {};
  const long long n = m_trainingSetSize(*target);
  // Noise canaries are added to the set; mislabelled ones are taken out of it (core/audit).
  if (n <= 0 || m_kind->currentData().toString() != QLatin1String("mislabel") ||
      m_canaries->value() < n)
    return {};
  return tr("Too many canaries: mislabelled canaries are taken from the %1 training examples "
            "of %2, so at most %3. Lower the count, or choose noise canaries.")
      .arg(n)
      .arg(target->name)
      .arg(n - 1);
}

void AttackView::followCanaryDefault() {
  // Until the user sets a count, it follows the audited run: 1000, or half of a smaller
  // training set (mislabelled canaries are taken from it; half of it stays real data).
  if (m_canariesChosen || !m_trainingSetSize) return;
  const QList<int> ids = shownRuns();
  const RunRecord* target = ids.isEmpty() ? nullptr : m_model->run(ids.first());
  const long long n = target ? m_trainingSetSize(*target) : 0;
  const long long count = n > 0 ? std::min<long long>(kDefaultCanaries, n / 2) : kDefaultCanaries;
  m_settingCanaries = true;
  m_canaries->setValue(static_cast<int>(count));
  m_settingCanaries = false;
}

bool AttackView::showCanaryProblem() {
  const QString problem = canaryProblem();
  m_canaryNote->setText(problem);
  m_canaryNote->setVisible(!problem.isEmpty());
  m_canaries->setStyleSheet(
      problem.isEmpty()
          ? QString()
          : QStringLiteral("QSpinBox { border: 2px solid #b00020; background: #fdecea; }"));
  m_canaries->setToolTip(problem.isEmpty()
                             ? tr("m: canaries added to the training set, each with probability ½")
                             : problem);
  return problem.isEmpty();
}

void AttackView::scheduleRefresh() {
  m_refresh->schedule();
}

void AttackView::refreshNow() {
  m_refresh->now();
}

int AttackView::refreshCount() const {
  return m_refresh->count();
}

QString AttackView::missingReason(int runId) const {
  if (m_controller->attackPending(runId)) return tr("computing…");
  QString why;
  if (m_controller->canAttack(runId, &why))
    return tr("not computed yet (\"Start attack\" with the loss threshold)");
  return why;
}

namespace {

constexpr std::size_t kMaxSummaryRuns = 24;  // columns of the summary table

QString listedNote(std::size_t listed, std::size_t shown) {
  if (shown <= listed) return {};
  return QObject::tr(
             "<p><small>The table lists the first %1 of the %2 runs shown; select runs "
             "in the Runs table to see others.</small></p>")
      .arg(listed)
      .arg(shown);
}

}  // namespace

void AttackView::rebuild() {
  const QList<int> ids = shownRuns();
  QMap<QString, int> nameCount;
  for (int id : ids) ++nameCount[m_model->run(id)->name];
  std::vector<AttackCurve> curves;
  std::vector<AttackSummaryRow> rows;
  for (int id : ids) {
    const RunRecord& run = *m_model->run(id);
    // The legend names each run once: runs that share a name get their id.
    const QString name =
        nameCount[run.name] > 1 ? tr("%1 (#%2)").arg(run.name).arg(run.id) : run.name;
    // With LiRA beside it, the loss threshold is dashed and LiRA solid, in the run's colour.
    if (run.attack) {
      curves.push_back({run.lira ? tr("loss threshold: %1").arg(name) : name, run.color,
                        run.attack->roc, run.attack->bound,
                        run.lira ? FigureLine::Dashed : FigureLine::Solid});
    }
    if (run.lira) curves.push_back({tr("LiRA: %1").arg(name), run.color, run.lira->attack.roc, {}});
    // The table has a column a run: a sweep of 10,000 made a table Qt took minutes to lay out.
    if (rows.size() < kMaxSummaryRuns)
      rows.push_back({&run, name, run.attack ? QString() : missingReason(id)});
  }
  m_figure =
      attackFigure(tr("Attack ROC under the accountant's bound"), curves, m_logAxes->isChecked());
  std::unique_ptr<QChart> previous(m_chartView->chart());  // setChart hands the old chart back
  m_chartView->setChart(buildFigureChart(m_figure).release());
  // The tab and the key name the chart; its title would take a line from a short plot (the
  // figure keeps it for exports).
  m_chartView->chart()->setTitle(QString());
  // Axis titles in the labels' weight: "true-positive rate" stays whole along a short plot.
  for (QAbstractAxis* axis : m_chartView->chart()->axes()) {
    QFont font = axis->titleFont();
    font.setBold(false);
    if (m_chartPoints > 0) {
      font.setPointSize(m_chartPoints);
      QFont labels = axis->labelsFont();
      labels.setPointSize(m_chartPoints);
      axis->setLabelsFont(labels);
    }
    axis->setTitleFont(font);
  }
  hideLegend();
  const bool anyLira = std::any_of(ids.begin(), ids.end(),
                                   [this](int id) { return m_model->run(id)->lira.has_value(); });
  const QString key =
      anyLira ? tr("<p style=\"margin-top:0; margin-bottom:2px\"><small>Thin solid: LiRA's ROC "
                   "(Carlini et al. 2022) · thin dashed: the loss-threshold attack's (Yeom et al. "
                   "2018) · bold: the run's accountant bound, which no attack crosses · grey "
                   "dashed: chance</small></p>")
              : tr("<p style=\"margin-top:0; margin-bottom:2px\"><small>Thin: the "
                   "loss-threshold attack's ROC (Yeom et al. 2018) · bold: the run's accountant "
                   "bound, which no attack crosses · dashed: chance</small></p>");
  m_summaryHtml = rows.empty() ? tr("No runs yet: train one, then its attack appears here.")
                               : key + attackSummaryHtml(rows);
  m_summaryHtml += listedNote(rows.size(), static_cast<std::size_t>(ids.size()));
  updateButtons();
  showSummary();
}

void AttackView::showSummary() {
  // LiRA's cost or problem first: in the scrolled text, it adds no height to the tab.
  m_summary->setText(m_choice->noteHtml() + m_summaryHtml);
}

void AttackView::setChartPointSize(int points) {
  if (points == m_chartPoints) return;
  m_chartPoints = points;
  refreshNow();
}

void AttackView::hideLegend() {
  // No legend: the table under the chart names each run in its colour and the key above it
  // says what thin, bold and dashed lines are (a legend beside or under a narrow chart took
  // its width or elided every name to "ml…").
  m_chartView->chart()->legend()->hide();
}

QString AttackView::summaryText() const {
  QTextDocument document;
  document.setHtml(m_summary->text());
  return document.toPlainText();
}

void AttackView::updateButtons() {
  const QList<int> ids = shownRuns();
  bool missing = false;
  for (int id : ids)
    missing = missing || (!m_model->run(id)->attack && m_controller->canAttack(id));
  m_choice->setTargets(ids.isEmpty() ? 0 : ids.first(), missing);
  const bool auditing = m_controller->auditedRun() != 0;
  const RunRecord* target = ids.isEmpty() ? nullptr : m_model->run(ids.first());
  followCanaryDefault();
  const bool countPossible = showCanaryProblem();
  m_audit->setEnabled(target && !auditing && countPossible);
  m_cancelAudit->setEnabled(auditing);
  const QString duration = target && target->elapsedSeconds > 0
                               ? tr(" — about as long as the run itself took (%1)")
                                     .arg(formatDuration(target->elapsedSeconds))
                               : QString();
  m_audit->setToolTip(
      target ? tr("Train %1's configuration again with %2 canaries added, each with probability ½, "
                  "then measure a lower bound ε̂ on its privacy loss from which canaries the "
                  "attack picks out (Steinke, Nasr & Jagielski 2023)%3. Runs in the background; "
                  "cancel leaves the run as it was.")
                   .arg(target->name)
                   .arg(m_canaries->value())
                   .arg(duration)
             : tr("Select a run first"));
}

QPushButton* AttackView::computeButton() const {
  return m_choice->startButton();
}

void AttackView::computeMissing() {
  for (int id : shownRuns())
    if (!m_model->run(id)->attack) m_controller->attackRun(id);
  refreshNow();
}

void AttackView::startAudit() {
  const QList<int> ids = shownRuns();
  if (ids.isEmpty() || !canaryProblem().isEmpty()) return;
  audit::AuditOptions options;
  options.canaries = m_canaries->value();
  options.kind = audit::parseCanaryKind(m_kind->currentData().toString().toStdString());
  QString why;
  if (!m_controller->startCanaryAudit(ids.first(), options, &why)) {
    m_status->setText(tr("Cannot start the audit: %1").arg(why));
    return;
  }
  m_status->started(
      tr("Auditing %1: preparing the canaries…").arg(m_model->run(ids.first())->name));
  updateButtons();
}

void AttackView::onAuditProgress(int runId, double fraction, const QString& message) {
  const RunRecord* run = m_model->run(runId);
  m_status->progressed(fraction, tr("Auditing %1: %2").arg(run ? run->name : QString(), message));
}

void AttackView::onAuditEnded(int runId, const QString& message) {
  const RunRecord* run = m_model->run(runId);
  if (message.isEmpty() && run && run->canaryAudit)
    m_status->ended(
        tr("Audit of %1 done: ε̂ ≥ %2")
            .arg(run->name, QString::number(run->canaryAudit->epsilonLowerBound, 'f', 2)));
  else
    m_status->ended(tr("Audit stopped: %1").arg(message));
  updateButtons();
  scheduleRefresh();
}

}  // namespace epsilon::ui

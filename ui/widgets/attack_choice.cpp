#include "ui/widgets/attack_choice.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "base/io/lira_record.h"
#include "base/session/run_model.h"
#include "core/audit/lira.h"
#include "ui/widgets/attack_controller.h"
#include "ui/widgets/job_progress_line.h"

namespace epsilon::ui {

namespace {
constexpr int kLossIndex = 0;
constexpr int kLiraIndex = 1;
constexpr int kDefaultShadows = 16;
}  // namespace

AttackChoice::AttackChoice(RunModel* model, AttackController* controller, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_controller(controller),
      m_kind(new QComboBox(this)),
      m_shadows(new QSpinBox(this)),
      m_start(new QPushButton(tr("Start attack"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_line(new JobProgressLine(this)) {
  m_kind->setObjectName(QStringLiteral("attackKind"));
  m_kind->addItem(tr("Loss threshold (instant)"));
  m_kind->addItem(QString());
  // The LiRA item's text grows with N; the box stays narrow enough for a 1024-pixel screen.
  m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_kind->setMinimumContentsLength(14);
  // Below 2 shadows no candidate is both IN and OUT of some shadow; the limit is core's.
  m_shadows->setRange(2, audit::kMaxShadows);
  m_shadows->setValue(kDefaultShadows);
  m_shadows->setSuffix(tr(" shadows"));
  m_shadows->setObjectName(QStringLiteral("liraShadows"));
  explainControls();
  m_cancel->setToolTip(tr("Stop LiRA's shadows; the run keeps what it had"));
  // One row (the shadow count and Cancel only for LiRA), so the tab's minimum height stays
  // what a 720-pixel projector allows; the cost or the problem goes in the tab's scrolled text.
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(m_kind, 1);
  row->addWidget(m_shadows);
  row->addWidget(m_start);
  row->addWidget(m_cancel);
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->addLayout(row);
  column->addWidget(m_line);

  connect(m_kind, &QComboBox::currentIndexChanged, this, &AttackChoice::updateControls);
  connect(m_shadows, &QSpinBox::valueChanged, this, &AttackChoice::updateControls);
  connect(m_start, &QPushButton::clicked, this, &AttackChoice::start);
  connect(m_cancel, &QPushButton::clicked, m_controller, &AttackController::cancelLira);
  connect(m_controller, &AttackController::liraProgress, this, &AttackChoice::onProgress);
  connect(m_controller, &AttackController::liraStopped, this, &AttackChoice::onEnded);
  connect(m_controller, &AttackController::liraFinished, this,
          [this](int runId) { onEnded(runId, {}); });
  connect(m_controller, &AttackController::liraWarning, this, [this](int, const QString& warning) {
    m_line->setText(m_line->text() + QLatin1Char(' ') + tr("(kept shadows: %1)").arg(warning));
  });
  updateControls();
}

void AttackChoice::explainControls() {
  m_kind->setToolTip(
      tr("Loss threshold (Yeom et al. 2018): a member is an example the model fits well; "
         "instant, and weak at low false-positive rates. LiRA (Carlini et al. 2022): trains "
         "shadow models like the run, each on half of the candidates, and tests how each "
         "example's confidence compares with it IN and OUT of training: the strongest attack."));
  m_shadows->setToolTip(
      tr("LiRA's shadow models, %1 to %2: each trains this run's configuration again, so each "
         "costs about as long as the run itself. More shadows fit each example's IN and OUT "
         "behaviour better; below 64 the examples share one variance (Carlini et al. 2022 "
         "recommend it for few shadows). Shadows are kept and reused for the next run of the "
         "same configuration.")
          .arg(2)
          .arg(audit::kMaxShadows));
}

void AttackChoice::setTargets(int liraTarget, bool lossMissing) {
  m_target = liraTarget;
  m_lossMissing = lossMissing;
  updateControls();
}

void AttackChoice::chooseLira(bool lira) {
  m_kind->setCurrentIndex(lira ? kLiraIndex : kLossIndex);
}

bool AttackChoice::liraChosen() const {
  return m_kind->currentIndex() == kLiraIndex;
}

QString AttackChoice::noteText() const {
  return m_note;
}

QString AttackChoice::noteHtml() const {
  if (m_note.isEmpty()) return {};
  return QStringLiteral("<p style=\"margin-top:0; margin-bottom:2px%1\">%2</p>")
      .arg(m_noteIsProblem ? QStringLiteral("; color:#b00020") : QString(), m_note.toHtmlEscaped());
}

void AttackChoice::setNote(const QString& note, bool problem) {
  if (note == m_note && problem == m_noteIsProblem) return;
  m_note = note;
  m_noteIsProblem = problem;
  Q_EMIT noteChanged();
}

QString AttackChoice::statusText() const {
  return m_line->text();
}

void AttackChoice::updateControls() {
  m_kind->setItemText(kLiraIndex, tr("LiRA (%1 shadow runs)").arg(m_shadows->value()));
  const bool lira = liraChosen();
  const bool running = m_controller->liraRun() != 0;
  m_shadows->setVisible(lira);
  m_cancel->setVisible(lira);
  m_cancel->setEnabled(running);
  if (!lira) {
    setNote({}, false);
    m_start->setEnabled(m_lossMissing);
    m_start->setToolTip(
        tr("Run the loss-threshold attack on the shown runs that have no result yet (needs the "
           "run's trained model, kept for runs trained in this session)"));
    return;
  }
  QString problem;
  if (!m_target)
    problem = tr("Select a finished run to attack with LiRA");
  else if (!running)
    m_controller->canLira(m_target, m_shadows->value(), tr("LiRA shadows"), &problem);
  const RunRecord* run = m_model->run(m_target);
  const QString note = !problem.isEmpty() ? problem
                       : run              ? liraCostText(m_shadows->value(), run->elapsedSeconds)
                                          : QString();
  setNote(note, !problem.isEmpty());
  m_start->setEnabled(!running && problem.isEmpty() && run);
  m_start->setToolTip(run ? tr("Train %1 shadow models of %2 in the background, then attack it "
                               "with LiRA")
                                .arg(m_shadows->value())
                                .arg(run->name)
                          : problem);
}

void AttackChoice::start() {
  if (!liraChosen()) {
    Q_EMIT lossRequested();
    return;
  }
  audit::LiraOptions options;
  options.shadows = m_shadows->value();
  QString why;
  if (!m_controller->startLira(m_target, options, &why)) {
    m_line->setText(tr("Cannot start LiRA: %1").arg(why));
    return;
  }
  m_line->started(tr("LiRA on %1: starting the shadows…").arg(m_model->run(m_target)->name));
  updateControls();
}

void AttackChoice::onProgress(int runId, double fraction, const QString& message) {
  const RunRecord* run = m_model->run(runId);
  m_line->progressed(fraction, tr("LiRA on %1: %2").arg(run ? run->name : QString(), message));
}

void AttackChoice::onEnded(int runId, const QString& message) {
  const RunRecord* run = m_model->run(runId);
  if (message.isEmpty() && run && run->lira) {
    const LiraRecord& lira = *run->lira;
    m_line->ended(lira.reusedShadows == lira.shadows
                      ? tr("LiRA on %1 done, with the %2 shadows kept from before (none trained)")
                            .arg(run->name)
                            .arg(lira.shadows)
                      : tr("LiRA on %1 done: %2 shadows trained, %3 reused")
                            .arg(run->name)
                            .arg(lira.shadows - lira.reusedShadows)
                            .arg(lira.reusedShadows));
  } else {
    m_line->ended(tr("LiRA stopped: %1").arg(message));
  }
  updateControls();
}

}  // namespace epsilon::ui

#include "ui/widgets/attack_controller.h"

#include <QCoreApplication>
#include <cmath>

#include "base/io/attack_record.h"
#include "base/io/lira_record.h"
#include "base/io/lira_shadow_file.h"
#include "base/jobs/job_service.h"
#include "base/session/dataset_store.h"
#include "base/session/run_model.h"
#include "core/audit/run_attack.h"
#include "core/data/registry.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

AttackController::AttackController(RunModel* model, TrainingController* training, QObject* parent)
    : QObject(parent), m_model(model), m_training(training) {
  connect(m_model, &RunModel::runRemoved, this, &AttackController::forgetRun);
  connect(m_training, &TrainingController::runFinished, this, &AttackController::onRunFinished);
  connect(&JobService::instance(), &JobService::jobProgress, this,
          [this](JobId id, double fraction, const QString& message) {
            if (m_audit && m_audit->job == id)
              Q_EMIT auditProgress(m_audit->runId, fraction, message);
            if (m_lira && m_lira->job == id) Q_EMIT liraProgress(m_lira->runId, fraction, message);
          });
}

AttackController::~AttackController() {
  // Results that arrive later find no receiver (JobService drops them).
  for (const auto& [run, job] : m_attackJobs) JobService::instance().cancel(job);
  cancelCanaryAudit();
  cancelLira();
}

void AttackController::onRunFinished(int runId) {
  const RunRecord* run = m_model->run(runId);
  if (run && run->status == RunStatus::Done && m_training->model(runId)) attackRun(runId);
}

bool AttackController::canAttack(int runId, QString* why) const {
  const RunRecord* run = m_model->run(runId);
  QString reason;
  if (!run)
    reason = tr("no such run");
  else if (run->status != RunStatus::Done)
    reason = tr("the run has not finished (%1)").arg(runStatusName(run->status));
  else if (!m_training->model(runId))
    reason =
        tr("the run's trained model is not in memory (session files keep histories, not models): "
           "re-run it to attack it");
  if (why) *why = reason;
  return reason.isEmpty();
}

bool AttackController::attackRun(int runId, QString* why) {
  if (!canAttack(runId, why)) return false;
  const RunRecord* run = m_model->run(runId);
  const auto model = m_training->model(runId);
  const train::ExperimentConfig config = run->config;
  const long long steps = run->lastEval() ? run->lastEval()->step : 0;
  const double epsilon = run->lastEval() ? run->lastEval()->epsilon : kNaN;
  const auto dataset = m_training->cachedDataset(config);
  const JobId job = JobService::instance().start<AttackRecord>(
      JobKind::Attack, tr("attacking %1").arg(run->name), this,
      [model, config, steps, epsilon, dataset](JobContext&) {
        return attackRecordOf(audit::attackFinishedRun(model, config, steps, epsilon, dataset));
      },
      [this, runId](const AttackRecord& record) {
        m_attackJobs.erase(runId);
        m_model->setAttack(runId, record);
        Q_EMIT attackFinished(runId);
      },
      [this, runId](const QString& error) {
        m_attackJobs.erase(runId);
        Q_EMIT attackFailed(runId, error);
      });
  if (const auto old = m_attackJobs.find(runId); old != m_attackJobs.end())
    JobService::instance().cancel(old->second);  // redone: the older result is dropped
  m_attackJobs[runId] = job;
  return true;
}

bool AttackController::startCanaryAudit(int runId, const audit::AuditOptions& options,
                                        QString* why) {
  const RunRecord* run = m_model->run(runId);
  QString reason;
  if (m_audit)
    reason = tr("another canary audit is running");
  else if (!run)
    reason = tr("no such run");
  else if (run->canaryAudit && run->canaryAudit->runTrainedWithCanaries)
    reason = tr("this run trained with its audit's canaries; audit a run of its settings");
  if (why) *why = reason;
  if (!reason.isEmpty()) return false;
  train::ExperimentConfig config = run->config;
  config.training.snapshots = false;
  config.training.stepEvents = false;
  const auto dataset = m_training->cachedDataset(config);
  auto pending = std::make_shared<AuditJob>();
  pending->runId = runId;
  m_audit = pending;
  pending->job = JobService::instance().start<CanaryAuditRecord>(
      JobKind::Audit, tr("canary audit of %1").arg(run->name), this,
      [config, dataset, options](JobContext& context) {
        const auto onProgress = [&context](const train::ProgressEvent& e) {
          if (e.totalSteps > 0)
            context.setProgress(static_cast<double>(e.step) / e.totalSteps,
                                tr("training with canaries: %1%")
                                    .arg(static_cast<int>(100 * e.step / e.totalSteps)));
        };
        const auto data =
            dataset ? dataset
                    : DatasetStore::instance().load(config.dataset.name, config.dataset.options);
        return canaryAuditRecordOf(
            audit::runAudit(config, *data, options, onProgress, context.cancelFlag()), options);
      },
      [this, pending](const CanaryAuditRecord& record) { auditDone(pending, &record, {}); },
      [this, pending](const QString& message) { auditDone(pending, nullptr, message); });
  return true;
}

void AttackController::auditDone(const std::shared_ptr<AuditJob>& job,
                                 const CanaryAuditRecord* record, const QString& message) {
  if (m_audit != job) return;  // its run was removed meanwhile: nothing to store
  m_audit.reset();
  if (record && m_model->run(job->runId)) {
    m_model->setCanaryAudit(job->runId, *record);
    Q_EMIT auditFinished(job->runId);
    return;
  }
  Q_EMIT auditStopped(job->runId, record ? tr("the run was removed") : message);
}

void AttackController::cancelCanaryAudit() {
  stopJob(m_audit, &AttackController::auditStopped, tr("cancelled"));
}

bool AttackController::canLira(int runId, int shadows, const QString& control, QString* why) const {
  QString reason;
  if (m_lira) {
    const RunRecord* running = m_model->run(m_lira->runId);
    reason = tr("LiRA is running on %1").arg(running ? running->name : tr("a removed run"));
  } else if (canAttack(runId, &reason)) {
    const RunRecord* run = m_model->run(runId);
    const auto data = m_training->cachedDataset(run->config);
    reason = liraProblem(run->config, shadows, data ? data->train.size() : 0,
                         data ? data->test.size() : 0, control);
  }
  if (why) *why = reason;
  return reason.isEmpty();
}

namespace {
struct LiraOutcome {
  LiraRecord record;
  QStringList warnings;  // a kept file that could not be read or written
};
}  // namespace

bool AttackController::startLira(int runId, const audit::LiraOptions& options, QString* why) {
  if (!canLira(runId, options.shadows, tr("LiRA shadows"), why)) return false;
  const RunRecord* run = m_model->run(runId);
  const auto model = m_training->model(runId);
  const train::ExperimentConfig config = run->config;
  const auto dataset = m_training->cachedDataset(config);
  const QString folder = m_shadowFolder ? m_shadowFolder() : QString();
  auto pending = std::make_shared<AuditJob>();
  pending->runId = runId;
  m_lira = pending;
  pending->job = JobService::instance().start<LiraOutcome>(
      JobKind::Audit, tr("LiRA on %1").arg(run->name), this,
      [model, config, dataset, options, folder](JobContext& context) {
        const auto onProgress = [&context](int shadow, int shadows, const train::ProgressEvent& e) {
          const double within = e.totalSteps > 0 ? double(e.step) / double(e.totalSteps) : 0.0;
          context.setProgress((shadow + within) / shadows,
                              tr("training shadow %1 of %2").arg(shadow + 1).arg(shadows));
        };
        const auto data =
            dataset ? dataset
                    : DatasetStore::instance().load(config.dataset.name, config.dataset.options);
        // Members as the loss-threshold attack draws them (all training rows), so both judge
        // the same examples.
        LiraOutcome outcome;
        const audit::LiraAttack lira =
            runLiraKeepingShadows(*model, config, *data, -1, options, folder, onProgress,
                                  context.cancelFlag(), &outcome.warnings);
        if (!lira.cancelled) outcome.record = liraRecordOf(lira);  // cancelled: not delivered
        return outcome;
      },
      [this, pending](const LiraOutcome& outcome) {
        liraDone(pending, &outcome.record, outcome.warnings.join(QStringLiteral("; ")));
      },
      [this, pending](const QString& message) { liraDone(pending, nullptr, message); });
  return true;
}

void AttackController::liraDone(const std::shared_ptr<AuditJob>& job, const LiraRecord* record,
                                const QString& message) {
  if (m_lira != job) return;  // its run was removed meanwhile: nothing to store
  m_lira.reset();
  if (record && m_model->run(job->runId)) {
    m_model->setLira(job->runId, *record);
    Q_EMIT liraFinished(job->runId);
    if (!message.isEmpty()) Q_EMIT liraWarning(job->runId, message);
    return;
  }
  Q_EMIT liraStopped(job->runId, record ? tr("the run was removed") : message);
}

void AttackController::stopJob(std::shared_ptr<AuditJob>& slot, StoppedSignal stopped,
                               const QString& message) {
  if (!slot) return;
  // A cancelled job delivers nothing: say so here, once.
  const auto job = slot;
  slot.reset();
  JobService::instance().cancel(job->job);
  Q_EMIT(this->*stopped)(job->runId, message);
}

void AttackController::cancelLira() {
  stopJob(m_lira, &AttackController::liraStopped, tr("cancelled"));
}

void AttackController::forgetRun(int runId) {
  if (const auto it = m_attackJobs.find(runId); it != m_attackJobs.end()) {
    JobService::instance().cancel(it->second);
    m_attackJobs.erase(it);
  }
  if (m_audit && m_audit->runId == runId)
    stopJob(m_audit, &AttackController::auditStopped, tr("the run was removed"));
  if (m_lira && m_lira->runId == runId)
    stopJob(m_lira, &AttackController::liraStopped, tr("the run was removed"));
}

}  // namespace epsilon::ui

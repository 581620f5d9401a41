#include "ui/widgets/attack_controller.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>
#include <cmath>

#include "core/audit/run_attack.h"
#include "core/data/registry.h"
#include "ui/charts/run_model.h"
#include "base/io/attack_record.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

namespace {

// Runs `call` on the GUI thread later, if `self` still exists then.
template <typename Call>
void postBack(const QPointer<AttackController>& self, Call call) {
  QMetaObject::invokeMethod(
      qApp,
      [self, call = std::move(call)]() mutable {
        if (self) call(self.data());
      },
      Qt::QueuedConnection);
}

}  // namespace

AttackController::AttackController(RunModel* model, TrainingController* training, QObject* parent)
    : QObject(parent),
      m_model(model),
      m_training(training),
      m_pool(std::make_unique<QThreadPool>()) {
  // One thread for the quick attacks, one for a canary audit (a whole training run).
  m_pool->setMaxThreadCount(2);
  connect(m_model, &RunModel::runRemoved, this, &AttackController::forgetRun);
  connect(m_training, &TrainingController::runFinished, this, &AttackController::onRunFinished);
}

AttackController::~AttackController() {
  if (m_audit) m_audit->cancel.store(true);
  m_pool->waitForDone();  // the queued results find no controller afterwards
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
  const int ticket = m_nextTicket++;
  m_attackTickets[runId] = ticket;
  QPointer<AttackController> self(this);
  m_pool->start([self, runId, ticket, model, config, steps, epsilon, dataset] {
    std::optional<AttackRecord> record;
    QString error;
    try {
      record = attackRecordOf(audit::attackFinishedRun(model, config, steps, epsilon, dataset));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    postBack(self, [runId, ticket, record, error](AttackController* c) {
      const auto it = c->m_attackTickets.find(runId);
      if (it == c->m_attackTickets.end() || it->second != ticket) return;  // removed or redone
      c->m_attackTickets.erase(it);
      if (!record) {
        Q_EMIT c->attackFailed(runId, error);
        return;
      }
      c->m_model->setAttack(runId, *record);
      Q_EMIT c->attackFinished(runId);
    });
  });
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
  if (why) *why = reason;
  if (!reason.isEmpty()) return false;
  train::ExperimentConfig config = run->config;
  config.training.snapshots = false;
  config.training.stepEvents = false;
  const auto dataset = m_training->cachedDataset(config);
  auto job = std::make_shared<AuditJob>();
  job->runId = runId;
  m_audit = job;
  QPointer<AttackController> self(this);
  m_pool->start([self, job, config, dataset, options] {
    std::optional<CanaryAuditRecord> record;
    QString message;
    const auto onProgress = [&](const train::ProgressEvent& e) {
      if (e.totalSteps <= 0) return;
      const int percent = static_cast<int>(100 * e.step / e.totalSteps);
      if (job->percent.exchange(percent) == percent) return;  // at most 101 updates
      postBack(self, [job, percent](AttackController* c) {
        if (c->m_audit == job)
          Q_EMIT c->auditProgress(job->runId, percent / 100.0,
                                  tr("training with canaries: %1%").arg(percent));
      });
    };
    try {
      const auto data = dataset ? dataset
                                : std::make_shared<const data::Dataset>(data::loadDataset(
                                      config.dataset.name, config.dataset.options));
      record = canaryAuditRecordOf(
          audit::runAudit(config, *data, options, onProgress, &job->cancel), options);
    } catch (const std::exception& e) {
      message = job->cancel.load() ? tr("cancelled") : QString::fromUtf8(e.what());
    }
    postBack(self, [job, record, message](AttackController* c) {
      c->auditDone(job, record ? &*record : nullptr, message);
    });
  });
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
  if (m_audit) m_audit->cancel.store(true);
}

void AttackController::forgetRun(int runId) {
  m_attackTickets.erase(runId);
  if (m_audit && m_audit->runId == runId) {
    m_audit->cancel.store(true);
    const int id = m_audit->runId;
    m_audit.reset();
    Q_EMIT auditStopped(id, tr("the run was removed"));
  }
}

}  // namespace epsilon::ui

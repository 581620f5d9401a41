// Computes what the Attack tab shows, off the GUI thread: the loss-threshold membership attack
// (Yeom et al. 2018) on every run that finishes — a fraction of a second on mnist-10k — and, on
// request, the one-run canary audit (Steinke, Nasr & Jagielski 2023) of a run's configuration,
// which trains it again with canaries and can be cancelled.
//
// Threads: the work runs on the controller's own thread pool; results come back to the GUI
// thread by queued calls that check the controller still exists and the run is still the one
// that was asked about (a ticket per request: a removed run's late result lands nowhere, even
// when a loaded session reuses its id). Only the GUI thread touches the RunModel. The destructor
// cancels the audit and waits for every worker.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <map>
#include <memory>

#include "core/audit/one_run_audit.h"
#include "base/io/run_record.h"

class QThreadPool;

namespace epsilon::ui {

class RunModel;
class TrainingController;

class AttackController : public QObject {
  Q_OBJECT
 public:
  AttackController(RunModel* model, TrainingController* training, QObject* parent = nullptr);
  ~AttackController() override;

  // Attacks a finished run whose final model this session still holds. Returns false, with the
  // reason in `why`, when it cannot (no such run, not finished, no model — e.g. a run from a
  // session file, whose parameters are not saved).
  bool attackRun(int runId, QString* why = nullptr);
  bool canAttack(int runId, QString* why = nullptr) const;
  int pendingAttacks() const { return static_cast<int>(m_attackTickets.size()); }
  bool attackPending(int runId) const { return m_attackTickets.count(runId) > 0; }

  // Starts the canary audit of the run's configuration (one at a time). False, with the
  // reason in `why`, when another audit runs or the run is unknown.
  bool startCanaryAudit(int runId, const audit::AuditOptions& options, QString* why = nullptr);
  void cancelCanaryAudit();
  int auditedRun() const { return m_audit ? m_audit->runId : 0; }

 Q_SIGNALS:
  void attackFinished(int runId);
  void attackFailed(int runId, const QString& message);
  void auditProgress(int runId, double fraction, const QString& message);
  void auditFinished(int runId);
  // Cancelled (the record is left as it was) or failed (`message` says why).
  void auditStopped(int runId, const QString& message);

 private:
  struct AuditJob {
    int runId = 0;
    std::atomic<bool> cancel{false};
    std::atomic<int> percent{-1};
  };
  void forgetRun(int runId);
  void onRunFinished(int runId);
  void auditDone(const std::shared_ptr<AuditJob>& job, const CanaryAuditRecord* record,
                 const QString& message);

  RunModel* m_model;
  TrainingController* m_training;
  std::unique_ptr<QThreadPool> m_pool;
  std::map<int, int> m_attackTickets;  // run → ticket of its pending attack
  int m_nextTicket = 1;
  std::shared_ptr<AuditJob> m_audit;  // the running audit, if any
};

}  // namespace epsilon::ui

// Computes what the Attack tab shows, off the GUI thread: the loss-threshold membership attack
// (Yeom et al. 2018) on every run that finishes — a fraction of a second on mnist-10k — and, on
// request, the one-run canary audit (Steinke, Nasr & Jagielski 2023) of a run's configuration,
// which trains it again with canaries and can be cancelled, and LiRA (Carlini et al. 2022),
// whose shadow models train the run's configuration again and are kept in a folder for the next
// target of the same configuration.
//
// Threads: the work runs as jobs on the job service (an attack in the quick lane, an audit on
// the training runs' threads); a removed run's job is cancelled, so its late result lands
// nowhere, even when a loaded session reuses its id. Only the GUI thread touches the RunModel.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <map>
#include <memory>

#include "base/io/run_record.h"
#include "base/jobs/job_service.h"
#include "core/audit/lira.h"
#include "core/audit/one_run_audit.h"

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
  int pendingAttacks() const { return static_cast<int>(m_attackJobs.size()); }
  bool attackPending(int runId) const { return m_attackJobs.count(runId) > 0; }

  // Starts the canary audit of the run's configuration (one at a time). False, with the
  // reason in `why`, when another audit runs or the run is unknown.
  bool startCanaryAudit(int runId, const audit::AuditOptions& options, QString* why = nullptr);
  void cancelCanaryAudit();
  int auditedRun() const { return m_audit ? m_audit->runId : 0; }

  // LiRA on a finished run (one at a time): its shadows run as a heavy job on the job
  // service (the runs' threads and budget), reusing and keeping shadows in shadowFolder().
  // canLira says why it cannot start, naming the control `control`.
  bool canLira(int runId, int shadows, const QString& control, QString* why = nullptr) const;
  bool startLira(int runId, const audit::LiraOptions& options, QString* why = nullptr);
  void cancelLira();
  int liraRun() const { return m_lira ? m_lira->runId : 0; }
  // Where shadows are kept, asked as each LiRA starts (empty or unset: not kept). The window
  // gives its session's folder (liraShadowFolder).
  using ShadowFolder = std::function<QString()>;
  void setShadowFolder(ShadowFolder folder) { m_shadowFolder = std::move(folder); }

 Q_SIGNALS:
  void attackFinished(int runId);
  void attackFailed(int runId, const QString& message);
  void auditProgress(int runId, double fraction, const QString& message);
  void auditFinished(int runId);
  // Cancelled (the record is left as it was) or failed (`message` says why).
  void auditStopped(int runId, const QString& message);
  void liraProgress(int runId, double fraction, const QString& message);
  void liraFinished(int runId);
  // After liraFinished: kept shadows that could not be read (trained again) or written.
  void liraWarning(int runId, const QString& message);
  // Cancelled (the record and the kept shadows are left as they were) or failed.
  void liraStopped(int runId, const QString& message);

 private:
  struct AuditJob {
    int runId = 0;
    JobId job = 0;
  };
  void forgetRun(int runId);
  void onRunFinished(int runId);
  void auditDone(const std::shared_ptr<AuditJob>& job, const CanaryAuditRecord* record,
                 const QString& message);
  void liraDone(const std::shared_ptr<AuditJob>& job, const LiraRecord* record,
                const QString& message);
  using StoppedSignal = void (AttackController::*)(int, const QString&);
  // Cancels the job in `slot` (if any), empties it and emits `stopped` with `message`.
  void stopJob(std::shared_ptr<AuditJob>& slot, StoppedSignal stopped, const QString& message);

  RunModel* m_model;
  TrainingController* m_training;
  std::map<int, JobId> m_attackJobs;  // run → its pending attack on the job service
  std::shared_ptr<AuditJob> m_audit;  // the running audit, if any
  std::shared_ptr<AuditJob> m_lira;   // the running LiRA, if any
  ShadowFolder m_shadowFolder;
};

}  // namespace epsilon::ui

// JobService: the one way EpsilonLab runs long work — training runs, membership attacks,
// canary audits, privacy previews, "Fix ε" calibrations, data-set loads and the Slurm
// commands and run files of sweeps on a cluster — with one thread budget, one rule for cancelling,
// one rule for results that arrive too late, and progress for each job (docs/ARCHITECTURE.md,
// "Threading").
//
// Lanes, inside one budget of N threads (N = all cores unless set):
//   - training runs go to the JobRunner (a tbb::task_arena of N threads);
//   - heavy work (a canary audit, shadow models) runs on those same N threads through
//     JobRunner::execute, so it queues behind the runs like one more run;
//   - quick interactive work (previews, calibrations, attacks of a finished run, data-set
//     loads, the session's recovery copy, opening a session, whose reading and checking then
//     spread over every core) runs on one thread of its own, so a slider never waits
//     for a training step;
//   - work that waits on other programs (a cluster sweep's sbatch, squeue, scontrol and
//     scancel, each with a time limit, and its landed run files) runs on one more thread, so
//     an unreachable Slurm controller never holds up a preview.
// Results come back on the receiver's thread (the GUI thread), only if the receiver still
// exists and the job was not cancelled; for a LatestRequest, only if it is still the newest.
// The service is process-wide (instance()); it is destroyed with the QCoreApplication, after
// cancelling every job and waiting for it.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QThreadPool;

namespace epsilon::train {
class JobRunner;
}

namespace epsilon::ui {

enum class JobKind {
  Training,
  Attack,
  Audit,
  Preview,
  Calibration,
  DatasetLoad,
  Autosave,
  Cluster,
  SessionOpen  // File › Open session: reading a session or run folder and checking its ε
};
const char* jobKindName(JobKind kind);

using JobId = long long;

// What a job's work sees: whether it was cancelled, and where to report progress. Both may
// be used from the worker thread at any time.
class JobContext {
 public:
  bool cancelled() const { return m_cancel->load(); }
  // The flag core functions take (Trainer::run, runAudit): set when the job is cancelled.
  const std::atomic<bool>* cancelFlag() const { return m_cancel.get(); }
  // Reports progress in [0, 1]; delivered to the GUI thread at most once per percent.
  void setProgress(double fraction, const QString& message = {});

 private:
  friend class JobService;
  JobId m_id = 0;
  std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<int>> m_percent = std::make_shared<std::atomic<int>>(-1);
};

struct JobInfo {
  JobId id = 0;
  JobKind kind = JobKind::Preview;
  QString label;
  double progress = 0.0;
};

class JobService : public QObject {
  Q_OBJECT
 public:
  static JobService& instance();
  ~JobService() override;

  // The thread budget: applies to the runs started after the first call (before any run,
  // normally from main or the main window). 0 = all cores.
  void setThreadBudget(int threads);
  int threadBudget() const;
  // The runner of training runs (created on first use with the budget).
  train::JobRunner& runner();

  // Runs work(context) in the lane of `kind` and calls done(result) on `receiver`'s thread
  // — or failed(message) when work threw — unless the receiver is gone or the job was
  // cancelled first. Returns the job's id.
  template <typename Result>
  JobId start(JobKind kind, const QString& label, QObject* receiver,
              std::function<Result(JobContext&)> work, std::function<void(const Result&)> done,
              std::function<void(const QString&)> failed = {}) {
    auto result = std::make_shared<std::optional<Result>>();
    auto wrapped = [work = std::move(work), result](JobContext& context) {
      result->emplace(work(context));
    };
    auto deliver = [done = std::move(done), result] {
      if (*result) done(**result);
    };
    return startWork(kind, label, receiver, std::move(wrapped), std::move(deliver),
                     std::move(failed));
  }
  // Asks a job to stop: a job that has not started never runs; a running one sees
  // cancelled(). Its result is not delivered. False if the job is unknown or over.
  bool cancel(JobId id);
  // Whether a job is not yet over (its result not yet delivered or dropped).
  bool pending(JobId id) const;
  // The jobs not yet over (the status bar lists them).
  std::vector<JobInfo> jobs() const;
  // Waits until no quick or heavy job is left (tests; never from the GUI while it must paint).
  void waitForIdle();

 Q_SIGNALS:
  void jobsChanged();  // a job started or ended
  void jobProgress(JobId id, double fraction, const QString& message);

 private:
  friend class JobContext;
  struct Job;
  JobService();
  JobId startWork(JobKind kind, const QString& label, QObject* receiver,
                  std::function<void(JobContext&)> work, std::function<void()> deliver,
                  std::function<void(const QString&)> failed);
  void run(const std::shared_ptr<Job>& job);
  void finish(JobId id);
  void postProgress(JobId id, double fraction, const QString& message);

  mutable std::mutex m_mutex;
  std::map<JobId, std::shared_ptr<Job>> m_jobs;  // guarded by m_mutex
  JobId m_nextId = 1;                            // guarded by m_mutex
  int m_threads = 0;
  std::unique_ptr<QThreadPool> m_quick;
  std::unique_ptr<QThreadPool> m_heavy;
  std::unique_ptr<QThreadPool> m_waiting;  // work that waits on other programs (Slurm)
  std::unique_ptr<train::JobRunner> m_runner;
};

// A channel on the job service where the last request wins: a slider dragged over fifty
// values costs the GUI thread nothing and shows the value it stopped at. Each request
// cancels the one before (skipped if not started, its result dropped if it was).
class LatestRequest {
 public:
  LatestRequest() = default;
  ~LatestRequest() { cancel(); }
  LatestRequest(const LatestRequest&) = delete;
  LatestRequest& operator=(const LatestRequest&) = delete;

  template <typename Result>
  void start(JobKind kind, QObject* receiver, std::function<Result()> work,
             std::function<void(const Result&)> done) {
    start<Result>(
        kind, receiver, [work = std::move(work)](JobContext&) { return work(); }, std::move(done));
  }
  // The same for work that polls its context (cancelled(), cancelFlag()) and so stops early
  // once a newer request has overtaken it.
  template <typename Result>
  void start(JobKind kind, QObject* receiver, std::function<Result(JobContext&)> work,
             std::function<void(const Result&)> done) {
    cancel();
    m_job = JobService::instance().start<Result>(kind, QString::fromUtf8(jobKindName(kind)),
                                                 receiver, std::move(work), std::move(done));
  }
  // Drops every request made so far: none of their results will be delivered.
  void cancel() {
    if (m_job) JobService::instance().cancel(m_job);
    m_job = 0;
  }
  // True while the newest request has not come back.
  bool busy() const { return m_job != 0 && JobService::instance().pending(m_job); }

 private:
  JobId m_job = 0;
};

}  // namespace epsilon::ui

// JobRunner: runs many trainings at once inside one tbb::task_arena (its concurrency
// configurable, all cores by default); each run is also parallel inside its steps. Runs can
// be cancelled one by one or all together, and waited for by the CLI and tests.
//
// Threads: submit(), cancel(), status(), result() and wait() may be called from any thread.
// Progress callbacks run on the thread that trains the run (one of the runner's threads or a
// TBB worker of the arena), or — for the "queued" event and for a run cancelled before it
// started — on the thread that called submit() or cancel(). A callback must be thread-safe,
// quick, and must not call wait() or destroy the runner. The destructor cancels every run
// and waits for all of them.
#pragma once

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/data/dataset.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::train {

struct JobRunnerOptions {
  int threads = 0;            // arena concurrency; 0 = all cores
  int maxConcurrentRuns = 0;  // runs training at the same time; 0 = as many as threads
  // The runs' threads (the runner's own and TBB's workers that join its arena) lower their
  // priority (core/common/thread_priority.h) so an interactive thread runs first: the GUI's
  // runner. TBB's workers are shared by the process and stay lowered.
  bool background = false;
};

class JobRunner {
 public:
  using Options = JobRunnerOptions;

  explicit JobRunner(Options options = {});
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  // Queues a run and returns its id at once (ids start at 1 and are never reused).
  RunId submit(ExperimentConfig config, ProgressCallback onProgress = {},
               std::shared_ptr<const data::Dataset> dataset = nullptr);
  // Asks a run to stop: a queued run is cancelled at once, a running one before its next
  // step. Returns false for an unknown or finished run.
  bool cancel(RunId id);
  void cancelAll();

  // Blocks until the run has finished and returns its result (throws std::out_of_range for
  // an unknown id).
  RunResult wait(RunId id);
  void waitAll();

  RunStatus status(RunId id) const;                 // throws std::out_of_range for an unknown id
  std::optional<RunResult> result(RunId id) const;  // nullopt until the run has finished
  // Forgets a finished run (and frees its model); false if it is unknown or not finished.
  bool release(RunId id);

  int threads() const { return m_threads; }
  // Runs `work` on this runner's threads (the caller waits), isolated from other runs' work,
  // so that long work which is not a training run — a canary audit, shadow models — shares
  // the runs' thread budget. An exception from `work` reaches the caller.
  void execute(const std::function<void()>& work);

 private:
  struct Job;
  void workerLoop();
  void finishJob(const std::shared_ptr<Job>& job, RunResult result);
  std::shared_ptr<Job> find(RunId id) const;

  int m_threads;
  tbb::task_arena m_arena;
  bool m_background;
  std::unique_ptr<tbb::task_scheduler_observer> m_lowersWorkers;  // when m_background
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<std::shared_ptr<Job>> m_queue;
  std::map<RunId, std::shared_ptr<Job>> m_jobs;
  RunId m_nextId = 1;
  bool m_stopping = false;
  std::vector<std::thread> m_workers;  // last: started after everything above exists
};

}  // namespace epsilon::train

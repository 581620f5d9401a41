#include "core/train/job_runner.h"

#include <tbb/info.h>

#include <algorithm>
#include <stdexcept>

#include "core/common/thread_priority.h"
#include "core/common/tsan_annotations.h"
#include "core/train/trainer.h"

namespace epsilon::train {

struct JobRunner::Job {
  RunId id = 0;
  ExperimentConfig config;
  ProgressCallback onProgress;
  std::shared_ptr<const data::Dataset> dataset;
  std::atomic<bool> cancel{false};
  RunStatus status = RunStatus::Queued;  // guarded by the runner's mutex
  std::optional<RunResult> result;       // guarded by the runner's mutex
};

namespace {

int resolveThreads(int requested) {
  return requested > 0 ? requested : std::max(1, tbb::info::default_concurrency());
}

// TBB's workers lower their priority as they first join the runner's arena.
class LowerWorkers : public tbb::task_scheduler_observer {
 public:
  explicit LowerWorkers(tbb::task_arena& arena) : tbb::task_scheduler_observer(arena) {
    observe(true);
  }
  ~LowerWorkers() override { observe(false); }
  void on_scheduler_entry(bool isWorker) override {
    if (isWorker) lowerThreadPriority();
  }
};

}  // namespace

JobRunner::JobRunner(Options options)
    : m_threads(resolveThreads(options.threads)),
      m_arena(m_threads),
      m_background(options.background) {
  if (m_background) m_lowersWorkers = std::make_unique<LowerWorkers>(m_arena);
  const int workers = options.maxConcurrentRuns > 0 ? options.maxConcurrentRuns : m_threads;
  m_workers.reserve(static_cast<std::size_t>(workers));
  for (int i = 0; i < workers; ++i) m_workers.emplace_back([this] { workerLoop(); });
}

JobRunner::~JobRunner() {
  cancelAll();
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_changed.notify_all();
  for (auto& worker : m_workers) worker.join();
}

RunId JobRunner::submit(ExperimentConfig config, ProgressCallback onProgress,
                        std::shared_ptr<const data::Dataset> dataset) {
  auto job = std::make_shared<Job>();
  job->config = std::move(config);
  job->onProgress = std::move(onProgress);
  job->dataset = std::move(dataset);
  {
    std::lock_guard lock(m_mutex);
    job->id = m_nextId++;
    m_jobs[job->id] = job;
    m_queue.push_back(job);
  }
  if (job->onProgress)
    job->onProgress({.runId = job->id,
                     .kind = EventKind::Status,
                     .status = RunStatus::Queued,
                     .message = "queued"});
  m_changed.notify_all();
  return job->id;
}

bool JobRunner::cancel(RunId id) {
  std::shared_ptr<Job> cancelledInQueue;
  {
    std::lock_guard lock(m_mutex);
    const auto found = m_jobs.find(id);
    if (found == m_jobs.end() || isFinished(found->second->status)) return false;
    found->second->cancel.store(true);
    const auto queued = std::find(m_queue.begin(), m_queue.end(), found->second);
    if (queued != m_queue.end()) {
      cancelledInQueue = *queued;
      m_queue.erase(queued);
    }
  }
  if (cancelledInQueue) {
    RunResult result;
    result.runId = id;
    result.status = RunStatus::Cancelled;
    result.message = "cancelled before it started";
    result.config = cancelledInQueue->config;
    finishJob(cancelledInQueue, std::move(result));
    if (cancelledInQueue->onProgress) {
      cancelledInQueue->onProgress({.runId = id,
                                    .kind = EventKind::Status,
                                    .status = RunStatus::Cancelled,
                                    .message = "cancelled before it started"});
    }
  }
  return true;
}

void JobRunner::cancelAll() {
  std::vector<RunId> ids;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, job] : m_jobs) {
      if (!isFinished(job->status)) ids.push_back(id);
    }
  }
  for (RunId id : ids) cancel(id);
}

std::shared_ptr<JobRunner::Job> JobRunner::find(RunId id) const {
  const auto found = m_jobs.find(id);
  if (found == m_jobs.end())
    throw std::out_of_range("JobRunner: no run with id " + std::to_string(id));
  return found->second;
}

RunResult JobRunner::wait(RunId id) {
  std::unique_lock lock(m_mutex);
  const auto job = find(id);
  m_changed.wait(lock, [&] { return job->result.has_value(); });
  return *job->result;
}

void JobRunner::waitAll() {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [&] {
    return std::all_of(m_jobs.begin(), m_jobs.end(),
                       [](const auto& entry) { return entry.second->result.has_value(); });
  });
}

RunStatus JobRunner::status(RunId id) const {
  std::lock_guard lock(m_mutex);
  return find(id)->status;
}

std::optional<RunResult> JobRunner::result(RunId id) const {
  std::lock_guard lock(m_mutex);
  return find(id)->result;
}

bool JobRunner::release(RunId id) {
  std::lock_guard lock(m_mutex);
  const auto found = m_jobs.find(id);
  if (found == m_jobs.end() || !found->second->result) return false;
  m_jobs.erase(found);
  return true;
}

void JobRunner::finishJob(const std::shared_ptr<Job>& job, RunResult result) {
  {
    std::lock_guard lock(m_mutex);
    job->status = result.status;
    job->result = std::move(result);
  }
  m_changed.notify_all();
}

void JobRunner::workerLoop() {
  if (m_background) lowerThreadPriority();
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
      if (m_queue.empty()) return;  // stopping, nothing left
      job = m_queue.front();
      m_queue.pop_front();
      job->status = RunStatus::Running;
    }
    RunResult result;
    execute([&] {
      result = Trainer(job->config, job->dataset).run(job->onProgress, &job->cancel, job->id);
    });
    finishJob(job, std::move(result));
  }
}

void JobRunner::execute(const std::function<void()>& work) {
  // execute() may hand the functor to one of the arena's threads when every slot for outside
  // threads is taken; libtbb orders that hand-off out of TSan's sight, so it is stated here
  // (core/common/tsan_annotations.h), with the functor's own address as the sync: the
  // thread that runs it has that address without reading what this thread wrote.
  struct InArena {
    const std::function<void()>& work;
    void operator()() const {
      tsanAcquire(this);
      // Isolation keeps a thread that waits inside this work's parallel loops from picking
      // up another job's work (which would stall this one until the other one finished).
      tbb::this_task_arena::isolate([&] { work(); });
      tsanRelease(&work);
    }
  };
  const InArena call{work};
  tsanPublish(&call);
  tsanRelease(&call);
  m_arena.execute(call);
  tsanAcquire(&work);
}

}  // namespace epsilon::train

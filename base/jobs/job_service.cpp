#include "base/jobs/job_service.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>
#include <algorithm>
#include <cmath>
#include <exception>

#include "core/common/thread_priority.h"
#include "core/train/job_runner.h"

namespace epsilon::ui {

const char* jobKindName(JobKind kind) {
  switch (kind) {
    case JobKind::Training:
      return "training";
    case JobKind::Attack:
      return "membership attack";
    case JobKind::Audit:
      return "canary audit";
    case JobKind::Preview:
      return "privacy preview";
    case JobKind::Calibration:
      return "noise calibration";
    case JobKind::DatasetLoad:
      return "data-set load";
    case JobKind::Autosave:
      return "recovery copy";
    case JobKind::Cluster:
      return "cluster sweep";
    case JobKind::SessionOpen:
      return "session open";
  }
  return "job";
}

struct JobService::Job {
  JobInfo info;
  JobContext context;
  QPointer<QObject> receiver;
  std::function<void(JobContext&)> work;
  std::function<void()> deliver;
  std::function<void(const QString&)> failed;
};

namespace {
JobService* g_instance = nullptr;  // GUI thread: created on first use, gone with the app

bool isHeavy(JobKind kind) {
  return kind == JobKind::Audit || kind == JobKind::Training;
}
}  // namespace

void JobContext::setProgress(double fraction, const QString& message) {
  const int percent = static_cast<int>(std::lround(100.0 * std::clamp(fraction, 0.0, 1.0)));
  if (m_percent->exchange(percent) == percent) return;  // at most 101 deliveries
  JobService::instance().postProgress(m_id, percent / 100.0, message);
}

JobService& JobService::instance() {
  if (!g_instance) {
    g_instance = new JobService;
    if (QCoreApplication* app = QCoreApplication::instance()) {
      g_instance->moveToThread(app->thread());
      g_instance->setParent(app);  // destroyed with the application, before its threads end
    }
  }
  return *g_instance;
}

JobService::JobService()
    : m_quick(std::make_unique<QThreadPool>()),
      m_heavy(std::make_unique<QThreadPool>()),
      m_waiting(std::make_unique<QThreadPool>()) {
  // Quick work has one thread of its own (a preview never waits for a training step); heavy
  // work's threads only wait while the runner's threads do it (JobRunner::execute).
  m_quick->setMaxThreadCount(1);
  m_heavy->setMaxThreadCount(2);
  // Work that waits on other programs (Slurm's commands, up to their time limit) has a thread
  // of its own too, so that an unreachable controller never holds up a preview.
  m_waiting->setMaxThreadCount(1);
}

JobService::~JobService() {
  {
    std::lock_guard lock(m_mutex);
    for (auto& [id, job] : m_jobs) job->context.m_cancel->store(true);
  }
  m_quick->waitForDone();
  m_heavy->waitForDone();
  m_waiting->waitForDone();
  m_runner.reset();  // cancels and joins every training run
  if (g_instance == this) g_instance = nullptr;
}

void JobService::setThreadBudget(int threads) {
  std::lock_guard lock(m_mutex);
  if (!m_runner) m_threads = threads;
}

int JobService::threadBudget() const {
  std::lock_guard lock(m_mutex);
  return m_runner ? m_runner->threads() : m_threads;
}

train::JobRunner& JobService::runner() {
  std::lock_guard lock(m_mutex);
  if (!m_runner)
    m_runner = std::make_unique<train::JobRunner>(
        train::JobRunner::Options{m_threads, 0, /*background=*/true});
  return *m_runner;
}

JobId JobService::startWork(JobKind kind, const QString& label, QObject* receiver,
                            std::function<void(JobContext&)> work, std::function<void()> deliver,
                            std::function<void(const QString&)> failed) {
  auto job = std::make_shared<Job>();
  job->info.kind = kind;
  job->info.label = label;
  job->receiver = receiver;
  job->work = std::move(work);
  job->deliver = std::move(deliver);
  job->failed = std::move(failed);
  {
    std::lock_guard lock(m_mutex);
    job->info.id = m_nextId++;
    job->context.m_id = job->info.id;
    m_jobs[job->info.id] = job;
  }
  QThreadPool* lane = isHeavy(kind)              ? m_heavy.get()
                      : kind == JobKind::Cluster ? m_waiting.get()
                                                 : m_quick.get();
  lane->start([this, job] { run(job); });
  Q_EMIT jobsChanged();
  return job->info.id;
}

void JobService::run(const std::shared_ptr<Job>& job) {
  // The GUI thread runs first (docs/ARCHITECTURE.md, "Threading"); a preview or a
  // calibration still runs before the trainings.
  lowerThreadPriority(isHeavy(job->info.kind) ? kBackgroundNiceness : kInteractiveNiceness);
  QString error;
  if (!job->context.cancelled()) {
    try {
      if (isHeavy(job->info.kind))
        runner().execute([&] { job->work(job->context); });
      else
        job->work(job->context);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    } catch (...) {
      error = tr("unknown error");
    }
  }
  // Delivered on the service's (the GUI) thread; the job is over once this has run.
  QMetaObject::invokeMethod(
      this,
      [this, job, error] {
        finish(job->info.id);
        if (!job->receiver || job->context.cancelled()) return;
        if (error.isEmpty())
          job->deliver();
        else if (job->failed)
          job->failed(error);
      },
      Qt::QueuedConnection);
}

void JobService::finish(JobId id) {
  {
    std::lock_guard lock(m_mutex);
    m_jobs.erase(id);
  }
  Q_EMIT jobsChanged();
}

bool JobService::cancel(JobId id) {
  std::lock_guard lock(m_mutex);
  const auto it = m_jobs.find(id);
  if (it == m_jobs.end()) return false;
  it->second->context.m_cancel->store(true);
  return true;
}

bool JobService::pending(JobId id) const {
  std::lock_guard lock(m_mutex);
  return m_jobs.count(id) > 0;
}

std::vector<JobInfo> JobService::jobs() const {
  std::lock_guard lock(m_mutex);
  std::vector<JobInfo> out;
  for (const auto& [id, job] : m_jobs)
    if (!job->context.cancelled()) out.push_back(job->info);
  return out;
}

void JobService::postProgress(JobId id, double fraction, const QString& message) {
  QMetaObject::invokeMethod(
      this,
      [this, id, fraction, message] {
        {
          std::lock_guard lock(m_mutex);
          const auto it = m_jobs.find(id);
          if (it == m_jobs.end() || it->second->context.cancelled()) return;
          it->second->info.progress = fraction;
        }
        Q_EMIT jobProgress(id, fraction, message);
      },
      Qt::QueuedConnection);
}

void JobService::waitForIdle() {
  m_quick->waitForDone();
  m_heavy->waitForDone();
  m_waiting->waitForDone();
  QCoreApplication::sendPostedEvents(this);
}

}  // namespace epsilon::ui

#include "ui/widgets/training_controller.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>
#include <cmath>
#include <stdexcept>

#include "base/io/run_conversion.h"
#include "base/jobs/job_service.h"
#include "base/session/dataset_store.h"
#include "base/session/run_model.h"
#include "core/data/registry.h"
#include "core/train/job_runner.h"

namespace epsilon::ui {

namespace {
constexpr int kDeliveryIntervalMs = 100;  // ≤ 10 deliveries per second
}  // namespace

TrainingController::TrainingController(RunModel* model, QObject* parent, int threads)
    : QObject(parent), m_model(model), m_timer(new QTimer(this)) {
  // One thread budget for the process: the first window's choice holds (JobService).
  if (threads > 0) JobService::instance().setThreadBudget(threads);
  m_runner = &JobService::instance().runner();
  m_timer->setInterval(kDeliveryIntervalMs);
  connect(m_timer, &QTimer::timeout, this, &TrainingController::flush);
  // Whatever removes a run (delete, live replacement, a session replacing the runs) releases its
  // job.
  connect(m_model, &RunModel::runRemoved, this, &TrainingController::forgetRun);
  connect(&DatasetStore::instance(), &DatasetStore::loaded, this,
          &TrainingController::datasetLoaded);
  connect(&DatasetStore::instance(), &DatasetStore::failed, this,
          &TrainingController::datasetFailed);
}

TrainingController::~TrainingController() {
  // The runner outlives this controller: cancel this controller's jobs and wait for them, so
  // no callback reaches the controller afterwards.
  std::set<train::RunId> jobs = m_releasing;
  for (const auto& [job, run] : m_runOfJob) jobs.insert(job);
  for (const train::RunId job : jobs) m_runner->cancel(job);
  for (const train::RunId job : jobs) {
    if (!runnerHolds(job)) continue;
    m_runner->wait(job);
    m_runner->release(job);
  }
}

void TrainingController::post(Pending pending) {
  std::lock_guard lock(m_inboxMutex);
  m_inbox.push_back(std::move(pending));
}

std::shared_ptr<const data::Dataset> TrainingController::sharedDataset(
    const train::ExperimentConfig& config) const {
  // Share a loaded data set instead of letting every run load its own copy.
  return DatasetStore::instance().cached(config.dataset.name, config.dataset.options);
}

int TrainingController::start(const train::ExperimentConfig& config, const QString& name,
                              bool live) {
  if (live && m_liveRun != 0) {
    m_model->takeRun(m_liveRun);  // runRemoved → forgetRun cancels and releases its job
    m_liveRun = 0;
  }
  RunRecord record;
  record.name = live ? tr("live: %1").arg(name) : name;
  record.live = live;
  record.config = config;
  const int runId = m_model->addRun(record);
  if (live) m_liveRun = runId;

  // The callback runs on a worker: it copies the event into the inbox and nothing else.
  // The runner, and so every callback, is destroyed before the controller's inbox.
  TrainingController* self = this;
  auto callback = [self](const train::ProgressEvent& event) {
    self->post({event, train::isFinished(event.status) && event.kind == train::EventKind::Status});
  };
  // The GUI redraws the decision boundary and the image strip from each evaluation's model.
  train::ExperimentConfig submitted = config;
  submitted.training.snapshots = true;
  submitted.training.stepEvents = true;     // the loss chart shows every lot
  submitted.training.gradientNorms = true;  // the gradient-norm view shows the last lot
  const train::RunId job = m_runner->submit(submitted, callback, sharedDataset(config));
  m_runOfJob[job] = runId;
  m_jobOfRun[runId] = job;
  if (!m_timer->isActive()) m_timer->start();
  return runId;
}

void TrainingController::forgetRun(int runId) {
  if (runId == m_liveRun) m_liveRun = 0;
  m_models.erase(runId);
  m_latest.erase(runId);
  m_norms.erase(runId);
  const auto it = m_jobOfRun.find(runId);
  if (it == m_jobOfRun.end()) return;
  const train::RunId job = it->second;
  m_jobOfRun.erase(it);
  m_runOfJob.erase(job);
  m_awaitingResult.erase(job);
  m_runner->cancel(job);
  m_releasing.insert(job);
  releaseStopped();
  if (!m_timer->isActive()) m_timer->start();
}

void TrainingController::releaseStopped() {
  for (auto it = m_releasing.begin(); it != m_releasing.end();) {
    // release() refuses a job that has not stopped yet: try again at the next delivery.
    if (m_runner->release(*it) || !runnerHolds(*it))
      it = m_releasing.erase(it);
    else
      ++it;
  }
}

bool TrainingController::runnerHolds(train::RunId job) const {
  try {
    m_runner->status(job);
    return true;
  } catch (const std::out_of_range&) {
    return false;
  }
}

train::RunId TrainingController::jobOf(int runId) const {
  const auto it = m_jobOfRun.find(runId);
  return it == m_jobOfRun.end() ? 0 : it->second;
}

int TrainingController::runOf(train::RunId job) const {
  const auto it = m_runOfJob.find(job);
  return it == m_runOfJob.end() ? 0 : it->second;
}

void TrainingController::cancel(int runId) {
  if (const train::RunId job = jobOf(runId)) m_runner->cancel(job);
}

void TrainingController::cancelAll() {
  for (const auto& [job, run] : m_runOfJob) m_runner->cancel(job);
}

int TrainingController::activeRuns() const {
  int n = 0;
  for (const auto& r : m_model->runs()) n += r.isActive() ? 1 : 0;
  return n;
}

std::shared_ptr<const nn::Model<float>> TrainingController::model(int runId) const {
  const auto it = m_models.find(runId);
  return it == m_models.end() ? nullptr : it->second;
}

std::shared_ptr<const nn::Model<float>> TrainingController::latestModel(int runId) const {
  if (auto m = model(runId)) return m;
  const auto it = m_latest.find(runId);
  return it == m_latest.end() ? nullptr : it->second;
}

std::shared_ptr<const train::GradientNormSample> TrainingController::lastGradientNorms(
    int runId) const {
  const auto it = m_norms.find(runId);
  return it == m_norms.end() ? nullptr : it->second;
}

void TrainingController::flush() {
  std::vector<Pending> batch;
  {
    std::lock_guard lock(m_inboxMutex);
    batch.swap(m_inbox);
  }
  for (const Pending& p : batch) {
    // Events of a forgotten job (its run was removed or replaced) land nowhere.
    const int runId = runOf(p.event.runId);
    if (runId != 0 && p.event.kind != train::EventKind::Step) apply(runId, p);
  }
  deliverLosses(batch);
  collectResults();
  releaseStopped();
  if (batch.empty() && m_awaitingResult.empty() && m_releasing.empty() && activeRuns() == 0)
    m_timer->stop();
}

void TrainingController::deliverLosses(const std::vector<Pending>& batch) {
  // Lot losses are gathered per run and appended once: a fast run sends hundreds a second.
  std::map<int, std::vector<LossPoint>> losses;
  std::map<int, const train::ProgressEvent*> last;
  for (const Pending& p : batch) {
    const int runId = runOf(p.event.runId);
    if (runId == 0 || p.event.kind != train::EventKind::Step) continue;
    if (std::isfinite(p.event.trainLoss))
      losses[runId].push_back({p.event.step, p.event.trainLoss});
    last[runId] = &p.event;
  }
  for (const auto& [runId, points] : losses) m_model->appendLosses(runId, points);
  for (const auto& [runId, e] : last) {
    if (e->gradientNorms) {
      m_norms[runId] = e->gradientNorms;
      Q_EMIT gradientNormsUpdated(runId);
    }
    const RunRecord* run = m_model->run(runId);
    if (run && run->isActive() && e->totalSteps > 0)
      m_model->setProgress(runId, static_cast<double>(e->step) / e->totalSteps, e->elapsedSeconds);
  }
}

void TrainingController::apply(int runId, const Pending& p) {
  const train::ProgressEvent& e = p.event;
  if (!m_model->run(runId)) return;
  if (e.kind == train::EventKind::Evaluation) {
    m_model->appendEval(runId, toEvalPoint(e));
    m_model->setPrivacyLabel(runId, privacyLabelOf(e.privacy));
    if (e.totalSteps > 0)
      m_model->setProgress(runId, static_cast<double>(e.step) / e.totalSteps, e.elapsedSeconds);
    if (e.snapshot) {
      m_latest[runId] = e.snapshot;
      Q_EMIT runModelUpdated(runId);
    }
    return;
  }
  // A status event.
  if (e.totalSteps > 0)
    m_model->setProgress(runId, static_cast<double>(e.step) / e.totalSteps, e.elapsedSeconds);
  m_model->setStatus(runId, toUiStatus(e.status), QString::fromStdString(e.message));
  if (p.finished) m_awaitingResult.insert(e.runId);
}

void TrainingController::collectResults() {
  for (auto it = m_awaitingResult.begin(); it != m_awaitingResult.end();) {
    const train::RunId job = *it;
    const int runId = runOf(job);
    const auto result = m_runner->result(job);
    if (runId != 0 && !result) {
      ++it;
      continue;
    }
    it = m_awaitingResult.erase(it);
    if (runId == 0) continue;
    if (result->model) m_models[runId] = result->model;
    m_latest.erase(runId);
    m_model->setStatus(runId, toUiStatus(result->status), QString::fromStdString(result->message));
    m_model->setProgress(
        runId, result->status == train::RunStatus::Done ? 1.0 : m_model->run(runId)->progress,
        result->elapsedSeconds);
    // The finished run keeps its model id and history; the runner forgets the job.
    m_runOfJob.erase(job);
    m_jobOfRun.erase(runId);
    m_runner->release(job);
    Q_EMIT runModelUpdated(runId);
    Q_EMIT runFinished(runId);
  }
}

void TrainingController::requestDataset(const QString& name) {
  DatasetStore::instance().request(name);
}

}  // namespace epsilon::ui

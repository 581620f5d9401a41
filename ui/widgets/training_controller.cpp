#include "ui/widgets/training_controller.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <cmath>

#include "core/data/registry.h"
#include "core/train/job_runner.h"
#include "ui/io/experiment_json.h"
#include "ui/io/run_conversion.h"
#include "ui/charts/run_model.h"

namespace epsilon::ui {

namespace {
constexpr int kDeliveryIntervalMs = 100;  // ≤ 10 deliveries per second
}  // namespace

TrainingController::TrainingController(RunModel* model, QObject* parent, int threads)
    : QObject(parent),
      m_model(model),
      m_runner(std::make_unique<train::JobRunner>(train::JobRunner::Options{threads, 0})),
      m_timer(new QTimer(this)) {
  m_timer->setInterval(kDeliveryIntervalMs);
  connect(m_timer, &QTimer::timeout, this, &TrainingController::flush);
}

TrainingController::~TrainingController() {
  m_runner->cancelAll();
  m_runner.reset();  // joins every run; callbacks after this point find no controller
}

void TrainingController::post(Pending pending) {
  std::lock_guard lock(m_inboxMutex);
  m_inbox.push_back(std::move(pending));
}

int TrainingController::start(const train::ExperimentConfig& config, const QString& name, bool live) {
  if (live && m_liveRun != 0) {
    const int previous = m_liveRun;
    cancel(previous);
    m_jobs.erase(previous);
    m_model->takeRun(previous);
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
  auto callback = [self, runId](const train::ProgressEvent& event) {
    Pending pending{runId, event, nullptr, train::isFinished(event.status) && event.kind == train::EventKind::Status};
    self->post(std::move(pending));
  };
  // The GUI redraws the decision boundary and the image strip from each evaluation's model.
  train::ExperimentConfig submitted = config;
  submitted.training.snapshots = true;
  submitted.training.stepEvents = true;  // the loss chart shows every lot
  // Share an already loaded data set (loaded with the default options) instead of letting
  // every run load its own copy: Fashion-MNIST is ~200 MB in memory.
  std::shared_ptr<const data::Dataset> shared;
  const data::DatasetOptions defaults;
  const auto& o = config.dataset.options;
  if (o.noise == defaults.noise && o.size == defaults.size && o.trainFraction == defaults.trainFraction &&
      o.seed == defaults.seed && o.maxTrain == defaults.maxTrain) {
    const auto cached = m_datasets.find(QString::fromStdString(config.dataset.name));
    if (cached != m_datasets.end()) shared = cached->second;
  }
  const train::RunId job = m_runner->submit(submitted, callback, shared);
  m_jobs[runId] = job;
  if (!m_timer->isActive()) m_timer->start();
  return runId;
}

void TrainingController::cancel(int runId) {
  const auto it = m_jobs.find(runId);
  if (it != m_jobs.end()) m_runner->cancel(it->second);
}

void TrainingController::cancelAll() { m_runner->cancelAll(); }

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

void TrainingController::flush() {
  std::vector<Pending> batch;
  {
    std::lock_guard lock(m_inboxMutex);
    batch.swap(m_inbox);
  }
  // Lot losses are gathered per run and appended once: a fast run sends hundreds a second.
  std::map<int, std::vector<LossPoint>> losses;
  for (const Pending& p : batch) {
    if (p.event.kind == train::EventKind::Step) {
      if (std::isfinite(p.event.trainLoss)) losses[p.runId].push_back({p.event.step, p.event.trainLoss});
      continue;
    }
    apply(p);
  }
  for (const auto& [runId, points] : losses) {
    if (!m_model->run(runId)) continue;
    const train::ProgressEvent* last = nullptr;
    for (const Pending& p : batch)
      if (p.runId == runId && p.event.kind == train::EventKind::Step) last = &p.event;
    m_model->appendLosses(runId, points);
    if (last && last->totalSteps > 0 && m_model->run(runId)->isActive())
      m_model->setProgress(runId, static_cast<double>(last->step) / last->totalSteps, last->elapsedSeconds);
  }
  collectResults();
  if (batch.empty() && m_awaitingResult.empty() && activeRuns() == 0) m_timer->stop();
}

void TrainingController::apply(const Pending& p) {
  const train::ProgressEvent& e = p.event;
  if (!m_model->run(p.runId)) return;  // deleted or replaced meanwhile
  if (e.kind == train::EventKind::Evaluation) {
    m_model->appendEval(p.runId, toEvalPoint(e));
    m_model->setPrivacyLabel(p.runId, privacyLabelOf(e.privacy));
    if (e.totalSteps > 0) m_model->setProgress(p.runId, static_cast<double>(e.step) / e.totalSteps, e.elapsedSeconds);
    if (e.snapshot) {
      m_latest[p.runId] = e.snapshot;
      Q_EMIT runModelUpdated(p.runId);
    }
    return;
  }
  // A status event.
  if (e.totalSteps > 0) m_model->setProgress(p.runId, static_cast<double>(e.step) / e.totalSteps, e.elapsedSeconds);
  m_model->setStatus(p.runId, toUiStatus(e.status), QString::fromStdString(e.message));
  if (p.finished) m_awaitingResult.push_back(p.runId);
}

void TrainingController::collectResults() {
  std::vector<int> still;
  for (int runId : m_awaitingResult) {
    const auto job = m_jobs.find(runId);
    if (job == m_jobs.end()) continue;
    const auto result = m_runner->result(job->second);
    if (!result) {
      still.push_back(runId);
      continue;
    }
    if (result->model) m_models[runId] = result->model;
    m_latest.erase(runId);
    m_model->setStatus(runId, toUiStatus(result->status), QString::fromStdString(result->message));
    m_model->setProgress(runId, result->status == train::RunStatus::Done ? 1.0 : m_model->run(runId)->progress,
                         result->elapsedSeconds);
    m_runner->release(job->second);
    Q_EMIT runModelUpdated(runId);
    Q_EMIT runFinished(runId);
  }
  m_awaitingResult = still;
}

void TrainingController::requestDataset(const QString& name) {
  if (const auto it = m_datasets.find(name); it != m_datasets.end()) {
    Q_EMIT datasetLoaded(name, it->second);
    return;
  }
  QPointer<TrainingController> self(this);
  QThreadPool::globalInstance()->start([self, name] {
    std::shared_ptr<const data::Dataset> dataset;
    QString error;
    try {
      dataset = std::make_shared<const data::Dataset>(data::loadDataset(name.toStdString()));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    // The pointer is only read on the GUI thread, where the controller lives and dies.
    QMetaObject::invokeMethod(
        qApp,
        [self, name, dataset, error] {
          if (!self) return;
          if (dataset) {
            self->m_datasets[name] = dataset;
            Q_EMIT self->datasetLoaded(name, dataset);
          } else {
            Q_EMIT self->datasetFailed(name, error);
          }
        },
        Qt::QueuedConnection);
  });
}

}  // namespace epsilon::ui

// The bridge between the engine's JobRunner and the GUI: starts runs, cancels them, and
// turns progress callbacks (which arrive on worker threads) into RunModel updates on the
// GUI thread. Threads: the callbacks only append to a mutex-guarded inbox; a GUI-thread
// timer drains it at most ten times a second (DESIGN.md, "Threading"), so the GUI never
// waits on a job and a flood of events costs one redraw. Only this class touches the
// runner; the runner's destructor cancels and joins every run.
#pragma once

#include <QObject>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

class QTimer;

namespace epsilon::train {
class JobRunner;
}

namespace epsilon::ui {

class RunModel;

class TrainingController : public QObject {
  Q_OBJECT
 public:
  explicit TrainingController(RunModel* model, QObject* parent = nullptr, int threads = 0);
  ~TrainingController() override;

  // Adds a run to the model and submits it; returns the run's id in the model. A live run
  // replaces the previous live run (cancelled and removed).
  int start(const train::ExperimentConfig& config, const QString& name, bool live = false);
  void cancel(int runId);
  void cancelAll();
  int activeRuns() const;

  // The trained parameters of a finished run (null while training or after a failure).
  std::shared_ptr<const nn::Model<float>> model(int runId) const;
  // The latest parameters of a run, finished or not (snapshots arrive at evaluations).
  std::shared_ptr<const nn::Model<float>> latestModel(int runId) const;

  // Loads a data set on a worker thread and delivers it with datasetLoaded (or
  // datasetFailed with the message); loaded sets are cached by name.
  void requestDataset(const QString& name);

  // Delivers pending progress now (tests; normally a timer does it).
  void flush();

 Q_SIGNALS:
  void runFinished(int runId);
  void runModelUpdated(int runId);
  void datasetLoaded(const QString& name, std::shared_ptr<const epsilon::data::Dataset> dataset);
  void datasetFailed(const QString& name, const QString& message);

 private:
  struct Pending {
    int runId;
    train::ProgressEvent event;
    std::shared_ptr<const nn::Model<float>> model;
    bool finished = false;
  };
  void post(Pending pending);
  void apply(const Pending& pending);
  void collectResults();

  RunModel* m_model;
  std::unique_ptr<train::JobRunner> m_runner;
  QTimer* m_timer;
  std::mutex m_inboxMutex;
  std::vector<Pending> m_inbox;  // guarded by m_inboxMutex
  std::map<int, train::RunId> m_jobs;  // GUI thread only
  std::map<int, std::shared_ptr<const nn::Model<float>>> m_models;
  std::map<int, std::shared_ptr<const nn::Model<float>>> m_latest;
  std::map<QString, std::shared_ptr<const data::Dataset>> m_datasets;
  std::vector<int> m_awaitingResult;  // finished runs whose RunResult is not yet posted
  int m_liveRun = 0;
};

}  // namespace epsilon::ui

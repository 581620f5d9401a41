// The bridge between the job service's runner (JobService::runner) and the GUI: starts runs,
// cancels them, and
// turns progress callbacks (which arrive on worker threads) into RunModel updates on the
// GUI thread. Threads: the callbacks only append to a mutex-guarded inbox; a GUI-thread
// timer drains it at most ten times a second (docs/ARCHITECTURE.md, "Threading"), so the GUI never
// waits on a job and a flood of events costs one redraw. Only this class touches the
// runner for this window's runs; the controller's destructor cancels its runs and waits for
// them (the runner is shared and outlives it).
//
// Jobs are keyed by the JobRunner's own id (never reused), not by the RunModel's id (which a
// loaded session may reuse). When a run leaves the model — deleted, replaced by the next live
// run, or cleared by opening a session — its job is cancelled, its events are dropped, its
// models are forgotten, and the job is released from the runner as soon as it has stopped.
#pragma once

#include <QObject>
#include <map>
#include <memory>
#include <mutex>
#include <set>
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
  // replaces the previous live run (removed from the model, so its job is cancelled).
  int start(const train::ExperimentConfig& config, const QString& name, bool live = false);
  void cancel(int runId);
  int liveRun() const { return m_liveRun; }  // the run the next live run replaces (0: none)
  void cancelAll();
  int activeRuns() const;

  // The trained parameters of a finished run (null while training or after a failure).
  std::shared_ptr<const nn::Model<float>> model(int runId) const;
  // The latest parameters of a run, finished or not (snapshots arrive at evaluations).
  std::shared_ptr<const nn::Model<float>> latestModel(int runId) const;
  // The last lot's pre-clip gradient norms of a run (null before its first step).
  std::shared_ptr<const train::GradientNormSample> lastGradientNorms(int runId) const;

  // Loads a data set as a job (DatasetStore) and delivers it with datasetLoaded (or
  // datasetFailed with the message).
  void requestDataset(const QString& name);

  // The loaded data set a run of `config` trains on, when the controller holds it (null when
  // the run loads its own: other data-set options, or not loaded yet).
  std::shared_ptr<const data::Dataset> cachedDataset(const train::ExperimentConfig& config) const {
    return sharedDataset(config);
  }

  // Delivers pending progress now (tests; normally a timer does it).
  void flush();

  // What the controller holds (tests count them): jobs of runs still in the model, jobs
  // cancelled but not yet released, and the models kept for runs.
  std::size_t trackedJobs() const { return m_runOfJob.size(); }
  std::size_t releasingJobs() const { return m_releasing.size(); }
  std::size_t keptModels() const { return m_models.size() + m_latest.size(); }
  // Whether the runner still holds the job (false once it is released).
  bool runnerHolds(train::RunId job) const;
  // The job of a run in the model (0 if none).
  train::RunId jobOf(int runId) const;

 Q_SIGNALS:
  void runFinished(int runId);
  void runModelUpdated(int runId);
  void gradientNormsUpdated(int runId);  // lastGradientNorms(runId) has a newer lot
  void datasetLoaded(const QString& name, std::shared_ptr<const epsilon::data::Dataset> dataset);
  void datasetFailed(const QString& name, const QString& message);

 private:
  struct Pending {
    train::ProgressEvent event;  // event.runId is the JobRunner's id
    bool finished = false;
  };
  void post(Pending pending);
  void apply(int runId, const Pending& pending);
  void deliverLosses(const std::vector<Pending>& batch);
  void collectResults();
  void releaseStopped();
  void forgetRun(int runId);
  std::shared_ptr<const data::Dataset> sharedDataset(const train::ExperimentConfig& config) const;
  int runOf(train::RunId job) const;

  RunModel* m_model;
  train::JobRunner* m_runner = nullptr;  // the job service's: shared by every controller
  QTimer* m_timer;
  std::mutex m_inboxMutex;
  std::vector<Pending> m_inbox;            // guarded by m_inboxMutex
  std::map<train::RunId, int> m_runOfJob;  // GUI thread only: the job's run in the model
  std::map<int, train::RunId> m_jobOfRun;  // its inverse
  std::set<train::RunId> m_releasing;      // cancelled, released once stopped
  std::map<int, std::shared_ptr<const nn::Model<float>>> m_models;
  std::map<int, std::shared_ptr<const nn::Model<float>>> m_latest;
  std::map<int, std::shared_ptr<const train::GradientNormSample>> m_norms;
  std::set<train::RunId> m_awaitingResult;  // finished jobs whose RunResult is not yet read
  int m_liveRun = 0;
};

}  // namespace epsilon::ui

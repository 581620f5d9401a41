// ClusterSweeps: the desktop's side of sweeps sent to a Slurm cluster (issue 25), below the
// widgets. It adds one queued run per sweep point to the RunModel (each knowing its job folder
// and index, RunRecord::cluster), submits the sweep as a job on the job service
// (base/cluster/sweep_submission.h: never on the GUI thread), then follows the folder: the
// task states from squeue/scontrol (base/cluster's parsers) set the runs' status as queued /
// running / failed / cancelled on the cluster, and each run file that lands
// (RunFolderWatcher, with its polling fallback) is read as a job and fills its run's curves.
// A session opened later with such runs still waiting is followed again (follow()). Cancel is
// scancel. GUI thread only; Qt Core.
#pragma once

#include <QMap>
#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "base/cluster/slurm_state.h"
#include "base/cluster/sweep_submission.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

class RunModel;
struct RunRecord;

struct ClusterSweepRequest {
  train::ExperimentConfig base;        // the sweep's experiment (DIR's config copy)
  std::vector<train::SweepAxis> axes;  // one or two, as the Sweep dialog gives them
  // A built-in preset's runs instead of axes (the Presets menu): the nodes run `sweep --preset
  // NAME --dataset DATASET`, DATASET the one this machine planned with (a node would otherwise
  // choose its own, and train on other data than a run here).
  QString preset;
  QString dataset;
  std::vector<train::SweepPoint> points;  // expandSweep(base, axes)
  QStringList names;                      // the runs' names, one per point
  QString folder;                         // the job folder (new or empty)
  QString cli;                            // the epsilonlab-cli the nodes run (absolute)
  cluster::SlurmSettings settings;
  // Every point's σ calibrated to this ε for its own settings (`sweep --target-epsilon`).
  std::optional<double> targetEpsilon;
};

class ClusterSweeps : public QObject {
  Q_OBJECT
 public:
  explicit ClusterSweeps(RunModel* runs, QObject* parent = nullptr);
  ~ClusterSweeps() override;

  // How often the folder is listed (the fallback for network file systems) and Slurm is asked
  // for the tasks' states; 0 asks Slurm never (tests without a cluster).
  void setIntervals(int folderMs, int slurmMs);

  // Adds the runs (queued, "submitting") and submits the sweep as a job. Returns the runs' ids;
  // submitted() or failed() follows (on failure the runs are taken out again).
  QList<int> submit(const ClusterSweepRequest& request);
  // Follows every run of the model that waits for a cluster (after a session was opened).
  void follow();
  // scancel (as a job) of the array tasks that write these runs, or of the whole job when
  // they are all its waiting runs; their runs show cancelled at Slurm's next answer.
  void cancel(const QList<int>& ids);
  // Folders being followed: a run of the model still expects its file there (whatever Slurm
  // said of its task; a resubmitted task may still write it).
  QStringList followed() const;

 Q_SIGNALS:
  void submitted(const QString& folder, const QString& jobId);
  void failed(const QString& folder, const QString& message);

 private:
  struct Folder;
  void followFolder(const QString& folder);
  void onLanded(const QString& folder, int index, const QString& path);
  void fill(int id, const RunRecord& landed);
  void askSlurm(const QString& folder);
  void showTasks(const QString& folder, const QList<cluster::TaskStatus>& tasks,
                 const QMap<int, QString>& tails);
  int runOf(const QString& folder, int index) const;
  bool expects(const RunRecord& run, const QString& folder) const;
  bool expectsFiles(const QString& folder) const;
  void dropIfFinished(const QString& folder);

  RunModel* m_runs;
  std::map<QString, std::unique_ptr<Folder>> m_folders;
  int m_folderMs = 5000;
  int m_slurmMs = 5000;
};

// The `sweep` arguments a node's task runs for the request (its config copy in `folder`, or
// the preset and its data set).
QStringList clusterSweepArgs(const ClusterSweepRequest& request);

}  // namespace epsilon::ui

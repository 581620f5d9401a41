// A sweep submitted to Slurm, as recorded in its folder: DIR/epsilonlab-job.slurm (JSON,
// {"format": "epsilonlab-slurm-job", "version": 1}) holds the job ids, which job runs each
// array task now (a resubmitted task moves to a new job), the settings and the sweep's
// arguments; DIR/epsilonlab.sbatch is the script, DIR/logs/ the tasks' logs. The names avoid
// ".json" so that the folder still opens as a folder of run files (base/io/run_file.h).
// Also what a follower needs from the folder: which run files have landed, which task writes
// which run, a task's log tail. Qt Core only, for the CLI and the GUI alike.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include "base/cluster/sbatch_script.h"

namespace epsilon::cluster {

inline constexpr const char* kJobFormat = "epsilonlab-slurm-job";
inline constexpr const char* kJobRecordName = "epsilonlab-job.slurm";
inline constexpr const char* kScriptName = "epsilonlab.sbatch";
inline constexpr const char* kConfigCopyName = "epsilonlab-sweep.config";
inline constexpr const char* kLogFolderName = "logs";

struct ClusterJob {
  QString dir;          // absolute; not stored (the record's own folder)
  int tasks = 1;        // array tasks 1..tasks; task K is shard K/tasks
  int runs = 0;         // sweep points in all
  QStringList jobIds;   // every job submitted for this sweep, oldest first
  QStringList taskJob;  // [K-1]: the job id that runs task K now
  SlurmSettings settings;
  QString cli;
  QStringList sweepArgs;
  QDateTime submitted;

  // The runs task K writes: the sweep indices i with i mod tasks == K-1 (train::shardOf).
  int runsOfTask(int task) const;
  // DIR/logs/task-K-JOB.log of the task's current job (the script's --output pattern).
  QString logPath(int task) const;
};

// DIR/epsilonlab-job.slurm (absolute path).
QString recordPath(const QString& dir);

// Reads DIR's record; throws ConfigError "<file>: …" when there is none ("not a folder of a
// sweep submitted to Slurm") or it is malformed (names the key).
ClusterJob readClusterJob(const QString& dir);

// Writes DIR's record atomically (throws SessionError naming the file).
void writeClusterJob(const ClusterJob& job);

// The run files (run-*.json) in DIR, by sweep index, read from their names; a file being
// written is never listed (it lands under its name in one rename).
QMap<int, QString> landedRunFiles(const QString& dir);

// The last `lines` lines of a log (at most 64 KiB read from its end), or "" if it is absent.
QString logTail(const QString& path, int lines = 10);

// Remembers which run files were already seen, so that a follower (a timer, or a folder
// watcher's signal) is told each new one once.
class LandedRuns {
 public:
  explicit LandedRuns(QString dir) : m_dir(std::move(dir)) {}
  // Run files that appeared since the last call, by index.
  QMap<int, QString> poll();

 private:
  QString m_dir;
  QMap<int, QString> m_seen;
};

}  // namespace epsilon::cluster

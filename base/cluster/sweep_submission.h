// Sending a sweep to Slurm, for the CLI (`sweep --slurm`, `reproduce --slurm`) and the GUI's
// Sweep dialog alike: checks the folder (one sweep per folder), writes DIR/logs, the config
// copy and DIR/epsilonlab.sbatch, submits the script with `sbatch --parsable` and records the
// job in DIR (cluster_job.h). A refused submission leaves nothing it made behind. Blocking
// (it runs sbatch): the GUI calls it from its job service. Qt Core only.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "base/cluster/cluster_job.h"

namespace epsilon::cluster {

struct SweepSubmission {
  QString dir;            // the sweep's folder (absolute, new or empty)
  QString cli;            // the epsilonlab-cli the nodes run (absolute)
  QStringList sweepArgs;  // `sweep` arguments without --shard, --out and --summary
  QByteArray configCopy;  // written as DIR/epsilonlab-sweep.config when not empty
  int runs = 0;           // sweep points in all
  int tasks = 0;          // array tasks; 0: one per run, at most kMaxDefaultTasks
  SlurmSettings settings;
};

// Array tasks when none are asked for: one per run up to this many (runs share tasks beyond).
inline constexpr int kMaxDefaultTasks = 1000;

// The --jobs a task's `sweep` trains with when none is given: its CPUs (--cpus-per-task), or 1.
QString taskJobs(const SlurmSettings& settings);

// The epsilonlab-cli installed beside the running program (bin/), or the build tree's
// (app/cli/ beside app/gui/); "" when there is none.
QString cliBesideThisProgram();

// Throws ConfigError "<dir> already holds the sweep of Slurm job …" or "<dir> is not empty
// (…)": one sweep per folder, so that status, resubmission and the GUI never mix two sweeps.
void requireFreshJobFolder(const QString& dir);

// Checks the folder and the settings, stages the folder and submits. Returns the recorded job.
// Throws ConfigError (folder, settings), SlurmError (no sbatch: not a submit host; Slurm's own
// message when it refuses the job) or SessionError (a file that cannot be written).
ClusterJob submitSweep(const SweepSubmission& submission);

}  // namespace epsilon::cluster

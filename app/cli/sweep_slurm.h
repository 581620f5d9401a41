// `sweep … --slurm` and `reproduce … --slurm`: instead of training here, writes
// DIR/epsilonlab.sbatch (one array task per shard, base/cluster/sbatch_script.h), submits it with
// `sbatch --parsable`, records the job in DIR (base/cluster/cluster_job.h), prints the job id and
// returns. The Slurm flags are all declared here, together.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <optional>

#include "base/cluster/cluster_job.h"

namespace epsilon::cli {

// --slurm, --partition, --time, --cpus-per-task, --mem, --max-parallel, --sbatch-arg, --cli,
// --tasks, and for `sweep` --summary (where a shard's summary.csv goes, so that shards can
// share a folder).
void addSlurmOptions(QCommandLineParser& parser, const QString& command);

// Throws UsageError for a Slurm flag given without --slurm, for --slurm without --out, or for
// one of `notWithSlurm` given with it.
void checkSlurmFlagUse(const QCommandLineParser& parser, const QStringList& notWithSlurm);

// What the Slurm flags ask for, checked (UsageError naming the flag).
struct SlurmRequest {
  cluster::SlurmSettings settings;
  QString cli;  // absolute
  std::optional<int> tasks;
};
SlurmRequest readSlurmRequest(const QCommandLineParser& parser);

// One sweep to submit: its folder, the `sweep` arguments of each task (--jobs added from
// --cpus-per-task unless given), the --config copy's bytes (or none) and its runs.
struct SlurmSweep {
  QString dir;
  QStringList args;
  QByteArray config;
  int runs = 0;
};
// Checks the folder (one sweep per folder), submits the sweep as an array, prints its JSON
// line ({"job", "tasks", "runs", "folder", "script"}) and returns the job; Slurm's refusal
// throws (exit 2) and leaves nothing half-made.
cluster::ClusterJob submitToSlurm(const SlurmRequest& request, SlurmSweep sweep);

// Submits the sweep that `parser` describes, of `runs` points; a preset's tasks get
// `--dataset presetDataset` (the data set chosen here). Returns the exit status; a rejected
// submission throws (Slurm's message, exit 2) and leaves nothing half-made in --out.
int submitSweepToSlurm(const QCommandLineParser& parser, int runs, const QString& presetDataset);

}  // namespace epsilon::cli

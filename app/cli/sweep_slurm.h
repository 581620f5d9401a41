// `sweep … --slurm`: instead of training here, writes DIR/epsilonlab.sbatch (one array task
// per shard, base/cluster/sbatch_script.h), submits it with `sbatch --parsable`, records the
// job in DIR (base/cluster/cluster_job.h), prints the job id and returns. The Slurm flags are
// all declared here, together.
#pragma once

#include <QCommandLineParser>
#include <QString>

namespace epsilon::cli {

// --slurm, --partition, --time, --cpus-per-task, --mem, --max-parallel, --sbatch-arg, --cli,
// --tasks, and --summary (where a shard's summary.csv goes, so that shards can share a folder).
void addSlurmOptions(QCommandLineParser& parser);

// Throws UsageError for a Slurm flag given without --slurm, or --slurm with --shard/--plot.
void checkSlurmFlagUse(const QCommandLineParser& parser);

// Submits the sweep that `parser` describes, of `runs` points. Returns the exit status; a
// rejected submission throws (Slurm's message, exit 2) and leaves nothing half-made in --out.
int submitSweepToSlurm(const QCommandLineParser& parser, int runs);

}  // namespace epsilon::cli

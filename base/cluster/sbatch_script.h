// The job script a sweep is sent to Slurm with (DIR/epsilonlab.sbatch): one array task per
// shard, task K running `epsilonlab-cli sweep … --shard K/N --out DIR`. Readable and
// re-submittable by hand; the settings a user chose (partition, time, CPUs, memory, tasks at a
// time, extra sbatch options) are its #SBATCH lines. Qt Core only (docs/ARCHITECTURE.md,
// "Layout": base/).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "base/io/train_command.h"

namespace epsilon::cluster {

// What the user asks of Slurm. Empty strings and absent numbers leave Slurm's defaults.
struct SlurmSettings {
  QString partition;
  QString time;  // [D-]HH:MM:SS, MM:SS or minutes
  std::optional<int> cpusPerTask;
  QString mem;                     // e.g. 2G, 500M
  std::optional<int> maxParallel;  // tasks running at once (the array's %K)
  QStringList sbatchArgs;          // extra `#SBATCH ARG` lines, e.g. --account=lab
};

// Throws ConfigError "<setting>: expected …, got '<value>'" for a setting Slurm would refuse
// or that could not be written on an #SBATCH line (the setting names are the CLI's flags
// without "--": partition, time, cpus-per-task, mem, max-parallel, sbatch-arg).
void checkSettings(const SlurmSettings& settings);

// A folder that can be written on an #SBATCH line: absolute, without whitespace, quotes,
// backslashes or '%' (Slurm's file-name patterns). Throws ConfigError naming it otherwise.
void checkJobFolder(const QString& dir);

struct SweepScript {
  QString dir;            // the sweep's folder (absolute): run files, logs/, this script
  QString cli;            // the epsilonlab-cli the nodes run (absolute)
  QStringList sweepArgs;  // `sweep` arguments without --shard, --out and --summary
  int tasks = 1;          // array tasks = shards
  SlurmSettings settings;
};

// The script's text (bash): a comment saying what it is and how to resubmit it, the #SBATCH
// lines (job name, --array=1-N[%K], --output=DIR/logs/task-%a-%A.log, the settings), then
// `exec CLI sweep ARGS --shard "$SLURM_ARRAY_TASK_ID/N" --out DIR --summary
// DIR/logs/summary-task-$SLURM_ARRAY_TASK_ID.csv`. Every argument is shell-quoted.
QString sbatchScript(const SweepScript& script);

// `text` as one bash word (base/io/train_command.h): unchanged when it holds only safe
// characters, else in single quotes (a ' inside becomes '\'').
using ui::shellQuoted;

// Slurm's --array value for some tasks: "2,5,7" (each task once, sorted) and "%K" if given.
QString arraySpec(const QList<int>& tasks, std::optional<int> maxParallel);

}  // namespace epsilon::cluster

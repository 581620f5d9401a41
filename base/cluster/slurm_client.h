// Slurm's own commands (sbatch, squeue, scontrol, scancel) run as child processes, each with a
// time limit, their output read by slurm_state.h. Blocking: the GUI calls them from its job
// service, never from the GUI thread (docs/ARCHITECTURE.md, "Threading"). Qt Core only.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "base/cluster/slurm_state.h"
#include "core/common/errors.h"

namespace epsilon::cluster {

// A Slurm command that is missing, failed or refused the request; the message is Slurm's own
// (its "sbatch: error: …" lines) after what was asked.
class SlurmError : public Error {
 public:
  using Error::Error;
};

// Throws SlurmError "<tool> not found on PATH: this is not a Slurm submit host" when `tool`
// (sbatch, squeue, …) cannot be run from here.
void requireSlurmTool(const QString& tool);

// `sbatch --parsable [extraArgs] script`: the new job's id. Throws SlurmError with Slurm's
// message when the submission is rejected (unknown partition, time limit too long, …).
QString submitScript(const QString& script, const QStringList& extraArgs = {});

// Every array task Slurm still knows of in these jobs (`scontrol show job ID` for each; a job
// Slurm has forgotten gives nothing). Throws SlurmError when scontrol cannot be asked.
QList<SlurmTask> knownTasks(const QStringList& jobIds);

// The array tasks of these jobs that are pending or running (`squeue -h -r -j IDS`), the cheap
// question asked while waiting.
QList<SlurmTask> activeTasks(const QStringList& jobIds);

// `scancel ID…` (a whole job "123" or one task "123_4"). Throws SlurmError with its message.
void cancelJobs(const QStringList& ids);

}  // namespace epsilon::cluster

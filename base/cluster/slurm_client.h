// Slurm's own commands (sbatch, squeue, scontrol, scancel) run as child processes, each with a
// time limit, their output read by slurm_state.h. Blocking: the GUI calls them from its job
// service, never from the GUI thread (docs/ARCHITECTURE.md, "Threading"). Qt Core only.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

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

// Every task of `job` now: what scontrol knows of its jobs and the run files in its folder
// (taskStatuses, slurm_state.h).
QList<TaskStatus> currentStatus(const ClusterJob& job);

// Cancels the sweep's pending and running tasks (all, or only `task`): `scancel` of each
// current job that still has some ("123"), or of "JOB_TASK". Returns what was cancelled, empty
// when nothing was pending or running (a finished job is never sent to scancel).
QStringList cancelActiveTasks(const ClusterJob& job, std::optional<int> task = std::nullopt);

// Failed, cancelled and lost tasks: those `resubmit --failed` runs again.
bool needsResubmission(TaskState state);

// Submits the job's script again for `tasks` only (--array=LIST[%K]) and records the new job as
// theirs in the folder; the other tasks and their runs are kept. Returns the new job's id.
QString resubmitTasks(ClusterJob& job, const QList<int>& tasks);

}  // namespace epsilon::cluster

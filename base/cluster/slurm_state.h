// Where each array task of a submitted sweep stands, from what Slurm's own commands print
// (no accounting database needed) and from the run files that have landed in the folder.
// Pure text parsing, so the CLI's `cluster status` and the GUI's Runs table read Slurm alike.
// Qt Core only.
#pragma once

#include <QList>
#include <QString>

#include "base/cluster/cluster_job.h"

namespace epsilon::cluster {

enum class TaskState { Pending, Running, Done, Failed, Cancelled, Unknown };

// "pending", "running", "done", "failed", "cancelled", "unknown".
const char* taskStateName(TaskState state);

// One array task as Slurm reports it.
struct SlurmTask {
  QString jobId;  // the array's job id (ArrayJobId, squeue's %F)
  int task = 0;   // the array index (ArrayTaskId, squeue's %K)
  QString state;  // Slurm's word: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, …
  QString reason;
  QString exitCode;  // "3:0" (scontrol only)
};

// The format `cluster` asks squeue for, one line per array task (-r): "%F|%K|%T|%r".
inline constexpr const char* kSqueueFormat = "%F|%K|%T|%r";

// Lines of `squeue -h -r -o '%F|%K|%T|%r'`; a line that is not four fields with a numeric
// task is skipped (squeue prints a warning line on some versions).
QList<SlurmTask> parseSqueue(const QString& text);

// Records of `scontrol show job ID` (blank-line separated, Key=Value words). A record whose
// ArrayTaskId is a range ("2-5%2", "1,3,7-9", "4-8:2") stands for every task in it (pending
// tasks not yet split off). Records that are not array tasks are skipped.
QList<SlurmTask> parseScontrol(const QString& text);

// Slurm's state word as one of ours: PENDING, CONFIGURING, REQUEUED, SUSPENDED → pending;
// RUNNING, COMPLETING, STAGE_OUT → running; COMPLETED → done; CANCELLED → cancelled; every
// other end (FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE) → failed.
TaskState stateOfSlurmWord(const QString& word);

struct TaskStatus {
  int task = 0;
  QString jobId;  // the job running it now
  TaskState state = TaskState::Unknown;
  QString detail;  // Slurm's word and reason or exit code, or why the files overrule it
  int landed = 0;  // run files of this task in the folder
  int expected = 0;
};

// Each task of `job` (1..tasks), from Slurm's records of its current job and the landed run
// files: a task Slurm calls COMPLETED whose run files are missing is failed; a task Slurm no
// longer lists is done when all its run files landed and unknown otherwise.
QList<TaskStatus> taskStatuses(const ClusterJob& job, const QList<SlurmTask>& slurm,
                               const QMap<int, QString>& landed);

// Pending or running: the task may still change.
bool isActive(TaskState state);

}  // namespace epsilon::cluster

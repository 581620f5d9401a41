#include "base/cluster/slurm_client.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>

#include "base/io/json_reader.h"

namespace epsilon::cluster {

namespace {

struct Outcome {
  int exitCode = -1;
  QString out;
  QString err;
};

// Runs a Slurm tool for at most a minute (the controller answers in well under a second; a
// minute covers a busy cluster's controller without hanging forever).
Outcome runTool(const QString& tool, const QStringList& arguments) {
  requireSlurmTool(tool);
  QProcess process;
  process.start(tool, arguments);
  Outcome o;
  if (!process.waitForStarted(10000))
    throw SlurmError(
        QStringLiteral("%1: cannot start: %2").arg(tool, process.errorString()).toStdString());
  if (!process.waitForFinished(60000)) {
    process.kill();
    process.waitForFinished();
    throw SlurmError(QStringLiteral("%1 did not answer within a minute").arg(tool).toStdString());
  }
  o.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  o.out = QString::fromUtf8(process.readAllStandardOutput());
  o.err = QString::fromUtf8(process.readAllStandardError()).trimmed();
  return o;
}

// Slurm's message, each line at most 80 characters of its own text (a hostile or huge
// answer never comes back whole), at most 10 lines.
QString slurmMessage(const Outcome& o) {
  QStringList lines;
  for (const QString& line : (o.err.isEmpty() ? o.out : o.err).split(QLatin1Char('\n')))
    if (!line.trimmed().isEmpty() && lines.size() < 10) lines << ui::clipped(line.trimmed());
  return lines.isEmpty() ? QStringLiteral("exit status %1, no message").arg(o.exitCode)
                         : lines.join(QLatin1Char('\n'));
}

}  // namespace

void requireSlurmTool(const QString& tool) {
  if (QStandardPaths::findExecutable(tool).isEmpty())
    throw SlurmError(QStringLiteral("%1 not found on PATH: this is not a Slurm submit host")
                         .arg(tool)
                         .toStdString());
}

QString submitScript(const QString& script, const QStringList& extraArgs) {
  const Outcome o = runTool(QStringLiteral("sbatch"), QStringList{QStringLiteral("--parsable")} +
                                                          extraArgs + QStringList{script});
  // --parsable prints "ID" or "ID;CLUSTER".
  const QString id = o.out.trimmed().section(QLatin1Char(';'), 0, 0);
  bool numeric = false;
  id.toLongLong(&numeric);
  if (o.exitCode != 0 || !numeric)
    throw SlurmError(
        QStringLiteral("sbatch refused the job:\n%1").arg(slurmMessage(o)).toStdString());
  return id;
}

QList<SlurmTask> knownTasks(const QStringList& jobIds) {
  QList<SlurmTask> tasks;
  for (const QString& id : jobIds) {
    const Outcome o =
        runTool(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), id});
    if (o.exitCode != 0) {
      if (o.err.contains(QLatin1String("Invalid job id"))) continue;  // forgotten (MinJobAge)
      throw SlurmError(QStringLiteral("scontrol show job %1 failed:\n%2")
                           .arg(id, slurmMessage(o))
                           .toStdString());
    }
    tasks += parseScontrol(o.out);
  }
  return tasks;
}

QList<SlurmTask> activeTasks(const QStringList& jobIds) {
  const Outcome o =
      runTool(QStringLiteral("squeue"),
              {QStringLiteral("-h"), QStringLiteral("-r"), QStringLiteral("-j"),
               jobIds.join(QLatin1Char(',')), QStringLiteral("-o"), QLatin1String(kSqueueFormat)});
  if (o.exitCode != 0) {
    if (o.err.contains(QLatin1String("Invalid job id"))) return {};
    throw SlurmError(QStringLiteral("squeue failed:\n%1").arg(slurmMessage(o)).toStdString());
  }
  QList<SlurmTask> active;
  for (const SlurmTask& t : parseSqueue(o.out))
    if (isActive(stateOfSlurmWord(t.state))) active.append(t);
  return active;
}

void cancelJobs(const QStringList& ids) {
  const Outcome o = runTool(QStringLiteral("scancel"), ids);
  if (o.exitCode != 0)
    throw SlurmError(QStringLiteral("scancel failed:\n%1").arg(slurmMessage(o)).toStdString());
}

QStringList cancelActiveTasks(const ClusterJob& job, std::optional<int> task) {
  QStringList targets;
  for (const SlurmTask& t : activeTasks(job.jobIds)) {
    if (t.task < 1 || t.task > job.tasks || job.taskJob[t.task - 1] != t.jobId) continue;
    const QString id = task ? QStringLiteral("%1_%2").arg(t.jobId).arg(t.task) : t.jobId;
    if ((!task || *task == t.task) && !targets.contains(id)) targets << id;
  }
  if (!targets.isEmpty()) cancelJobs(targets);
  return targets;
}

QList<TaskStatus> currentStatus(const ClusterJob& job) {
  return taskStatuses(job, knownTasks(job.jobIds), landedRunFiles(job.dir));
}

bool needsResubmission(TaskState state) {
  return state == TaskState::Failed || state == TaskState::Cancelled || state == TaskState::Unknown;
}

QString resubmitTasks(ClusterJob& job, const QList<int>& tasks) {
  const QString id =
      submitScript(QDir(job.dir).filePath(QLatin1String(kScriptName)),
                   {QStringLiteral("--array=") + arraySpec(tasks, job.settings.maxParallel)});
  job.jobIds << id;
  for (int task : tasks)
    if (task >= 1 && task <= job.tasks) job.taskJob[task - 1] = id;
  writeClusterJob(job);
  return id;
}

}  // namespace epsilon::cluster

// `epsilonlab-cli cluster status|wait|cancel|resubmit DIR`: follows a sweep sent to Slurm with
// `sweep --slurm --out DIR` from the job recorded in DIR (base/cluster/): each task pending,
// running, done, failed or cancelled, from squeue/scontrol and the run files that landed.
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>

#include "base/cluster/cluster_job.h"
#include "base/cluster/slurm_client.h"
#include "base/cluster/slurm_state.h"
#include "base/io/json_reader.h"
#include "cli_options.h"

namespace epsilon::cli {

namespace {

const QString kActions = QStringLiteral("status, wait, cancel or resubmit");

using cluster::currentStatus;

// One line per task, then the tally; failed and cancelled tasks show their log's tail. With
// `json`, one JSON object per task and one for the tally instead.
void printStatus(const cluster::ClusterJob& job, const QList<cluster::TaskStatus>& tasks,
                 bool json) {
  QTextStream out(stdout);
  QMap<QString, int> tally;
  if (!json)
    out << "Slurm job " << job.jobIds.join(QLatin1Char(',')) << ": " << job.tasks << " tasks, "
        << job.runs << " runs, in " << job.dir << "\n";
  for (const auto& t : tasks) {
    const QString state = QLatin1String(cluster::taskStateName(t.state));
    ++tally[state];
    const QString tail =
        cluster::needsResubmission(t.state) ? cluster::logTail(job.logPath(t.task)) : QString();
    if (json) {
      QJsonObject o{{"task", t.task},     {"job", t.jobId},          {"state", state},
                    {"detail", t.detail}, {"runs_landed", t.landed}, {"runs", t.expected}};
      if (cluster::needsResubmission(t.state)) {
        o.insert("log", job.logPath(t.task));
        o.insert("log_tail", tail);
      }
      printJsonLine(o);
      continue;
    }
    out << QStringLiteral("task %1  %2  %3/%4 runs  %5\n")
               .arg(t.task, 3)
               .arg(state, -9)
               .arg(t.landed)
               .arg(t.expected)
               .arg(t.detail);
    if (cluster::needsResubmission(t.state)) {
      out << "    log " << job.logPath(t.task) << (tail.isEmpty() ? " (empty or absent)\n" : ":\n");
      for (const QString& line : tail.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        out << "    | " << line << "\n";
    }
  }
  QJsonObject total{{"job", job.jobIds.join(QLatin1Char(','))}, {"tasks", job.tasks}};
  QStringList words;
  for (auto it = tally.begin(); it != tally.end(); ++it) {
    total.insert(it.key(), it.value());
    words << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
  }
  if (json)
    printJsonLine(total);
  else
    out << "tasks: " << words.join(QStringLiteral(", ")) << "\n";
}

int runStatus(const cluster::ClusterJob& job, const QCommandLineParser& parser) {
  printStatus(job, currentStatus(job), parser.isSet(QStringLiteral("json")));
  return kExitOk;
}

// Polls squeue until none of the job's tasks is pending or running, then prints the status.
// Exit 0 when every task is done, 1 otherwise (or when --timeout passes first).
int runWait(const cluster::ClusterJob& job, const QCommandLineParser& parser) {
  const auto timeout = readOptionalDouble(parser, QStringLiteral("timeout"));
  if (timeout) requirePositive(QStringLiteral("--timeout"), *timeout);
  QElapsedTimer clock;
  clock.start();
  while (!cluster::activeTasks(job.jobIds).isEmpty()) {
    if (timeout && clock.elapsed() > *timeout * 1000) {
      QTextStream(stderr) << "epsilonlab-cli cluster wait: tasks still pending or running after "
                          << *timeout << " s\n";
      printStatus(job, currentStatus(job), parser.isSet(QStringLiteral("json")));
      return kExitFailure;
    }
    QThread::msleep(1000);
  }
  const auto tasks = currentStatus(job);
  printStatus(job, tasks, parser.isSet(QStringLiteral("json")));
  for (const auto& t : tasks)
    if (t.state != cluster::TaskState::Done) return kExitFailure;
  return kExitOk;
}

int runCancel(const cluster::ClusterJob& job, const QCommandLineParser& parser) {
  std::optional<int> task;
  if (parser.isSet(QStringLiteral("task"))) {
    const long long k = readInteger(parser, QStringLiteral("task"));
    if (k < 1 || k > job.tasks)
      throw UsageError(QStringLiteral("--task: expected an integer in [1, %1], got %2")
                           .arg(job.tasks)
                           .arg(k)
                           .toStdString());
    task = static_cast<int>(k);
  }
  const QStringList cancelled = cluster::cancelActiveTasks(job, task);
  if (cancelled.isEmpty())
    QTextStream(stderr) << "epsilonlab-cli cluster cancel: no "
                        << (task ? QStringLiteral("such ") : QString())
                        << "task is pending or running\n";
  printJsonLine(QJsonObject{{"cancelled", cancelled.join(QLatin1Char(' '))}});
  return kExitOk;
}

// Submits the script again for the failed, cancelled and lost tasks only (--array=LIST); the
// runs already landed are kept.
int runResubmit(cluster::ClusterJob job, const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("failed")))
    throw UsageError("--failed: required (only failed, cancelled or lost tasks are resubmitted)");
  QList<int> again;
  for (const auto& t : currentStatus(job))
    if (cluster::needsResubmission(t.state)) again << t.task;
  if (again.isEmpty()) {
    QTextStream(stderr) << "epsilonlab-cli cluster resubmit: no failed or cancelled task\n";
    return kExitOk;
  }
  const QString id = cluster::resubmitTasks(job, again);
  const QString spec = cluster::arraySpec(again, std::nullopt);
  printJsonLine(QJsonObject{{"job", id}, {"tasks", spec}});
  return kExitOk;
}

int runCluster(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Follows a sweep sent to Slurm (`sweep --slurm --out DIR`):\n"
                     "  cluster status DIR              each task's state, a failed task's log\n"
                     "  cluster wait DIR [--timeout S]  until no task is pending or running\n"
                     "  cluster cancel DIR [--task K]   scancel the job (or one task)\n"
                     "  cluster resubmit DIR --failed   run the failed and cancelled tasks again"));
  parser.addOptions({
      {QStringLiteral("json"), QStringLiteral("One JSON object per task (status, wait).")},
      {QStringLiteral("timeout"), QStringLiteral("wait: give up after S seconds (exit 1)."),
       QStringLiteral("S")},
      {QStringLiteral("task"), QStringLiteral("cancel: only this array task."),
       QStringLiteral("K")},
      {QStringLiteral("failed"), QStringLiteral("resubmit: the failed and cancelled tasks.")},
  });
  parser.addPositionalArgument(QStringLiteral("action"), kActions);
  parser.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The sweep's folder."));
  if (const auto exit = parseOrExplain(parser, arguments, QStringLiteral("cluster"), true))
    return *exit;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 2)
    throw UsageError(QStringLiteral("expected an action (%1) and the sweep's folder, got %2 "
                                    "arguments")
                         .arg(kActions)
                         .arg(positional.size())
                         .toStdString());
  const QString action = positional[0];
  if (!QStringList{"status", "wait", "cancel", "resubmit"}.contains(action))
    throw UsageError(QStringLiteral("unknown action '%1': expected %2")
                         .arg(ui::clipped(action), kActions)
                         .toStdString());
  const cluster::ClusterJob job = cluster::readClusterJob(positional[1]);
  if (action == QLatin1String("status")) return runStatus(job, parser);
  if (action == QLatin1String("wait")) return runWait(job, parser);
  if (action == QLatin1String("cancel")) return runCancel(job, parser);
  return runResubmit(job, parser);
}

}  // namespace

EPSILON_CLI_COMMAND("cluster",
                    "Follow a sweep sent to Slurm: status, wait, cancel, resubmit failed tasks.",
                    runCluster);

}  // namespace epsilon::cli

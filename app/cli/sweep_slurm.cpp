#include "sweep_slurm.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTextStream>

#include "base/cluster/cluster_job.h"
#include "base/cluster/slurm_client.h"
#include "base/cluster/sweep_submission.h"
#include "base/io/json_reader.h"
#include "base/io/session_file.h"
#include "cli_options.h"

namespace epsilon::cli {

namespace {

const QStringList kSlurmOnlyFlags{"partition",    "time",       "cpus-per-task", "mem",
                                  "max-parallel", "sbatch-arg", "cli",           "tasks"};

std::optional<int> optionalInt(const QCommandLineParser& parser, const char* flag) {
  const auto v = readOptionalInteger(parser, QLatin1String(flag));
  if (!v) return std::nullopt;
  if (*v < 1 || *v > 100000)
    throw UsageError(QStringLiteral("--%1: expected an integer in [1, 100000], got %2")
                         .arg(QLatin1String(flag))
                         .arg(*v)
                         .toStdString());
  return static_cast<int>(*v);
}

cluster::SlurmSettings readSettings(const QCommandLineParser& parser) {
  cluster::SlurmSettings s;
  s.partition = parser.value(QStringLiteral("partition"));
  s.time = parser.value(QStringLiteral("time"));
  s.cpusPerTask = optionalInt(parser, "cpus-per-task");
  s.mem = parser.value(QStringLiteral("mem"));
  s.maxParallel = optionalInt(parser, "max-parallel");
  s.sbatchArgs = parser.values(QStringLiteral("sbatch-arg"));
  try {
    cluster::checkSettings(s);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("--") + e.what());
  }
  return s;
}

// The arguments every task passes to `sweep`: the same points, read from DIR's copy of the
// --config file (so that editing or moving the original changes nothing).
QStringList taskSweepArgs(const QCommandLineParser& parser, const QString& dir) {
  QStringList args;
  if (parser.isSet(QStringLiteral("config")))
    args << QStringLiteral("--config")
         << QDir(dir).filePath(QLatin1String(cluster::kConfigCopyName));
  for (const char* flag : {"preset", "param", "param2", "target-epsilon", "jobs"})
    if (parser.isSet(QLatin1String(flag)))
      args << QStringLiteral("--") + QLatin1String(flag) << parser.value(QLatin1String(flag));
  if (parser.isSet(QStringLiteral("quick"))) args << QStringLiteral("--quick");
  return args;
}

QString whyNotWithSlurm(const QString& flag) {
  if (flag == QLatin1String("jobs"))
    return QStringLiteral("each task trains --cpus-per-task runs at once");
  if (flag == QLatin1String("run-files")) return QStringLiteral("the tasks always write run files");
  if (flag == QLatin1String("session"))
    return QStringLiteral("File › Open session opens the folder once the runs have landed");
  return QStringLiteral("the job script shards the sweep; draw it once the runs have landed");
}

}  // namespace

void addSlurmOptions(QCommandLineParser& parser, const QString& command) {
  parser.addOptions({
      {QStringLiteral("slurm"),
       QStringLiteral("Send the sweep to Slurm as a job array (one task per shard) instead of "
                      "running it here; needs --out. Follow it with `cluster status DIR`.")},
      {QStringLiteral("partition"), QStringLiteral("With --slurm: the partition."),
       QStringLiteral("P")},
      {QStringLiteral("time"), QStringLiteral("With --slurm: each task's time limit."),
       QStringLiteral("HH:MM:SS")},
      {QStringLiteral("cpus-per-task"),
       QStringLiteral("With --slurm: CPUs of each task (also its --jobs unless given)."),
       QStringLiteral("N")},
      {QStringLiteral("mem"), QStringLiteral("With --slurm: memory of each task (e.g. 2G)."),
       QStringLiteral("SIZE")},
      {QStringLiteral("max-parallel"), QStringLiteral("With --slurm: tasks running at once."),
       QStringLiteral("K")},
      {QStringLiteral("sbatch-arg"),
       QStringLiteral("With --slurm: one more sbatch option, e.g. --account=lab (repeatable)."),
       QStringLiteral("ARG")},
      {QStringLiteral("cli"),
       QStringLiteral("With --slurm: the epsilonlab-cli the nodes run (default: this one)."),
       QStringLiteral("PATH")},
      {QStringLiteral("tasks"),
       QStringLiteral("With --slurm: array tasks (default: one per run, at most 1000)."),
       QStringLiteral("N")},
  });
  if (command == QLatin1String("sweep"))
    parser.addOption({QStringLiteral("summary"),
                      QStringLiteral("Write the summary here instead of DIR/summary.csv (shards "
                                     "sharing a folder each name their own)."),
                      QStringLiteral("FILE")});
}

void checkSlurmFlagUse(const QCommandLineParser& parser, const QStringList& notWithSlurm) {
  if (!parser.isSet(QStringLiteral("slurm"))) {
    for (const QString& flag : kSlurmOnlyFlags)
      if (parser.isSet(flag))
        throw UsageError(QStringLiteral("--%1: only with --slurm").arg(flag).toStdString());
    return;
  }
  for (const QString& flag : notWithSlurm)
    if (parser.isSet(flag))
      throw UsageError(QStringLiteral("--%1: not with --slurm (%2)")
                           .arg(flag, whyNotWithSlurm(flag))
                           .toStdString());
  if (!parser.isSet(QStringLiteral("out")))
    throw UsageError("--out: required with --slurm (the folder the tasks write into)");
}

SlurmRequest readSlurmRequest(const QCommandLineParser& parser) {
  SlurmRequest request;
  request.settings = readSettings(parser);
  request.tasks = optionalInt(parser, "tasks");
  request.cli = parser.isSet(QStringLiteral("cli"))
                    ? QFileInfo(parser.value(QStringLiteral("cli"))).absoluteFilePath()
                    : QCoreApplication::applicationFilePath();
  if (!parser.isSet(QStringLiteral("cli")) && !QFileInfo(request.cli).isExecutable())
    throw UsageError("--cli: cannot tell where this epsilonlab-cli is; give its path");
  return request;
}

cluster::ClusterJob submitToSlurm(const SlurmRequest& request, SlurmSweep sweep) {
  if (request.tasks && *request.tasks > sweep.runs)
    throw UsageError(QStringLiteral("--tasks: expected at most the sweep's %1 runs, got %2")
                         .arg(sweep.runs)
                         .arg(*request.tasks)
                         .toStdString());
  const QString dir = QFileInfo(sweep.dir).absoluteFilePath();
  try {
    cluster::checkJobFolder(dir);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("--") + e.what());
  }
  try {
    cluster::requireFreshJobFolder(dir);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("--out: ") + e.what());
  }
  if (!sweep.args.contains(QStringLiteral("--jobs")))
    sweep.args << QStringLiteral("--jobs") << cluster::taskJobs(request.settings);
  const cluster::ClusterJob job =
      cluster::submitSweep({dir, request.cli, sweep.args, sweep.config, sweep.runs,
                            request.tasks.value_or(0), request.settings});
  const QString id = job.jobIds.front();
  printJsonLine(QJsonObject{{"job", id},
                            {"tasks", job.tasks},
                            {"runs", sweep.runs},
                            {"folder", dir},
                            {"script", QDir(dir).filePath(cluster::kScriptName)}});
  QTextStream(stderr) << "epsilonlab-cli: submitted Slurm job " << id << " (" << job.tasks
                      << " tasks, " << sweep.runs << " runs); follow it with `epsilonlab-cli "
                      << "cluster status " << dir << "`\n";
  return job;
}

int submitSweepToSlurm(const QCommandLineParser& parser, int runs, const QString& presetDataset) {
  const SlurmRequest request = readSlurmRequest(parser);
  const QString dir = QFileInfo(parser.value(QStringLiteral("out"))).absoluteFilePath();
  SlurmSweep sweep{dir, taskSweepArgs(parser, dir), {}, runs};
  if (!presetDataset.isEmpty()) sweep.args << QStringLiteral("--dataset") << presetDataset;
  if (parser.isSet(QStringLiteral("config")))
    sweep.config = ui::readBoundedFile(parser.value(QStringLiteral("config")), 16 << 20, "config");
  submitToSlurm(request, sweep);
  return kExitOk;
}

}  // namespace epsilon::cli

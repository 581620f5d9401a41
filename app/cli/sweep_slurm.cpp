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

// The folder must be new or empty: one sweep per folder, so that status, resubmission and
// the GUI never mix two sweeps' run files.
void requireFreshFolder(const QString& dir) {
  if (QFileInfo::exists(cluster::recordPath(dir))) {
    QString what = QStringLiteral("another sweep");
    try {
      const cluster::ClusterJob job = cluster::readClusterJob(dir);
      what = QStringLiteral("the sweep of Slurm job %1 (sweep %2)")
                 .arg(job.jobIds.join(QLatin1Char(',')),
                      ui::clipped(job.sweepArgs.join(QLatin1Char(' '))));
    } catch (const Error& e) {
      what += QStringLiteral(" (its record cannot be read: %1)").arg(QString::fromUtf8(e.what()));
    }
    throw UsageError(QStringLiteral("--out: %1 already holds %2; choose a new folder, or follow "
                                    "it with `epsilonlab-cli cluster status`")
                         .arg(ui::clipped(dir), what)
                         .toStdString());
  }
  const QStringList entries =
      QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  if (!entries.isEmpty())
    throw UsageError(QStringLiteral("--out: %1 is not empty (it holds %2 entries, e.g. '%3'); "
                                    "a sweep sent to Slurm needs a new or empty folder")
                         .arg(ui::clipped(dir))
                         .arg(entries.size())
                         .arg(ui::clipped(entries.first()))
                         .toStdString());
}

// The arguments every task passes to `sweep`: the same points, read from DIR's copy of the
// --config file (so that editing or moving the original changes nothing).
QStringList taskSweepArgs(const QCommandLineParser& parser, const QString& dir) {
  QStringList args;
  if (parser.isSet(QStringLiteral("config")))
    args << QStringLiteral("--config")
         << QDir(dir).filePath(QLatin1String(cluster::kConfigCopyName));
  for (const char* flag : {"preset", "param", "param2", "jobs"})
    if (parser.isSet(QLatin1String(flag)))
      args << QStringLiteral("--") + QLatin1String(flag) << parser.value(QLatin1String(flag));
  if (!parser.isSet(QStringLiteral("jobs")))
    args << QStringLiteral("--jobs")
         << (parser.isSet(QStringLiteral("cpus-per-task"))
                 ? parser.value(QStringLiteral("cpus-per-task"))
                 : QStringLiteral("1"));
  if (parser.isSet(QStringLiteral("quick"))) args << QStringLiteral("--quick");
  return args;
}

// What was created for a submission, removed again if Slurm refuses it.
struct Staging {
  QString dir;
  bool createdDir = false;
  bool createdLogs = false;
  QStringList files;

  void undo() const {
    for (const QString& f : files) QFile::remove(f);
    if (createdLogs) QDir(dir).rmdir(QLatin1String(cluster::kLogFolderName));
    if (createdDir) QDir().rmdir(dir);
  }
};

void stage(Staging& staging, const QString& name, const QByteArray& bytes) {
  const QString path = QDir(staging.dir).filePath(name);
  staging.files << path;
  ui::writeFileAtomically(path, bytes);
}

// Writes DIR's config copy and script, and submits the script; when anything fails (Slurm
// refuses the job, a file cannot be written), removes what it made, so that nothing half-made
// stays in --out, and throws.
QString stageAndSubmit(const QCommandLineParser& parser, const cluster::SweepScript& script,
                       Staging& staging) {
  const QString scriptPath = QDir(staging.dir).filePath(QLatin1String(cluster::kScriptName));
  try {
    staging.createdDir = !QFileInfo::exists(staging.dir);
    if (!QDir().mkpath(staging.dir))
      throw ui::SessionError(
          QStringLiteral("%1: cannot create the folder").arg(staging.dir).toStdString());
    staging.createdLogs = QDir(staging.dir).mkdir(QLatin1String(cluster::kLogFolderName));
    if (parser.isSet(QStringLiteral("config")))
      stage(staging, QLatin1String(cluster::kConfigCopyName),
            ui::readBoundedFile(parser.value(QStringLiteral("config")), 16 << 20, "config"));
    stage(staging, QLatin1String(cluster::kScriptName), cluster::sbatchScript(script).toUtf8());
    QFile::setPermissions(scriptPath, QFile::permissions(scriptPath) | QFile::ExeOwner);
    return cluster::submitScript(scriptPath);
  } catch (...) {
    staging.undo();
    throw;
  }
}

}  // namespace

void addSlurmOptions(QCommandLineParser& parser) {
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
      {QStringLiteral("summary"),
       QStringLiteral("Write the summary here instead of DIR/summary.csv (shards sharing a "
                      "folder each name their own)."),
       QStringLiteral("FILE")},
  });
}

void checkSlurmFlagUse(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("slurm"))) {
    for (const QString& flag : kSlurmOnlyFlags)
      if (parser.isSet(flag))
        throw UsageError(QStringLiteral("--%1: only with --slurm").arg(flag).toStdString());
    return;
  }
  for (const char* flag : {"shard", "plot", "summary"})
    if (parser.isSet(QLatin1String(flag)))
      throw UsageError(QStringLiteral("--%1: not with --slurm (the job script shards the sweep; "
                                      "draw it once the runs have landed)")
                           .arg(QLatin1String(flag))
                           .toStdString());
  if (!parser.isSet(QStringLiteral("out")))
    throw UsageError("--out: required with --slurm (the folder the tasks write into)");
}

int submitSweepToSlurm(const QCommandLineParser& parser, int runs) {
  const cluster::SlurmSettings settings = readSettings(parser);
  const auto tasksFlag = optionalInt(parser, "tasks");
  if (tasksFlag && *tasksFlag > runs)
    throw UsageError(QStringLiteral("--tasks: expected at most the sweep's %1 runs, got %2")
                         .arg(runs)
                         .arg(*tasksFlag)
                         .toStdString());
  Staging staging;  // what a refused submission must remove again
  staging.dir = QFileInfo(parser.value(QStringLiteral("out"))).absoluteFilePath();
  try {
    cluster::checkJobFolder(staging.dir);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("--") + e.what());
  }
  const QString cli = parser.isSet(QStringLiteral("cli"))
                          ? QFileInfo(parser.value(QStringLiteral("cli"))).absoluteFilePath()
                          : QCoreApplication::applicationFilePath();
  if (!parser.isSet(QStringLiteral("cli")) && !QFileInfo(cli).isExecutable())
    throw UsageError("--cli: cannot tell where this epsilonlab-cli is; give its path");
  requireFreshFolder(staging.dir);
  // After the flags and the folder, so that those are checked on any machine.
  cluster::requireSlurmTool(QStringLiteral("sbatch"));

  cluster::ClusterJob job;
  job.dir = staging.dir;
  job.runs = runs;
  job.tasks = tasksFlag.value_or(std::min(runs, 1000));
  job.settings = settings;
  job.cli = cli;
  job.sweepArgs = taskSweepArgs(parser, staging.dir);
  const QString id =
      stageAndSubmit(parser, {staging.dir, cli, job.sweepArgs, job.tasks, settings}, staging);
  job.jobIds = {id};
  job.taskJob = QStringList(job.tasks, id);
  job.submitted = QDateTime::currentDateTimeUtc();
  cluster::writeClusterJob(job);
  printJsonLine(QJsonObject{{"job", id},
                            {"tasks", job.tasks},
                            {"runs", runs},
                            {"folder", staging.dir},
                            {"script", QDir(staging.dir).filePath(cluster::kScriptName)}});
  QTextStream(stderr) << "epsilonlab-cli sweep: submitted Slurm job " << id << " (" << job.tasks
                      << " tasks, " << runs << " runs); follow it with `epsilonlab-cli cluster "
                      << "status " << staging.dir << "`\n";
  return kExitOk;
}

}  // namespace epsilon::cli

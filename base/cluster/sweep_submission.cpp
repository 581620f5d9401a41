#include "base/cluster/sweep_submission.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

#include "base/cluster/slurm_client.h"
#include "base/io/json_reader.h"
#include "base/io/session_file.h"

namespace epsilon::cluster {

namespace {

// What was created for a submission, removed again if Slurm refuses it.
struct Staging {
  QString dir;
  bool createdDir = false;
  bool createdLogs = false;
  QStringList files;

  void undo() const {
    for (const QString& f : files) QFile::remove(f);
    if (createdLogs) QDir(dir).rmdir(QLatin1String(kLogFolderName));
    if (createdDir) QDir().rmdir(dir);
  }
};

void stage(Staging& staging, const QString& name, const QByteArray& bytes) {
  const QString path = QDir(staging.dir).filePath(name);
  staging.files << path;
  ui::writeFileAtomically(path, bytes);
}

// Writes DIR's config copy and script, and submits the script; when anything fails (Slurm
// refuses the job, a file cannot be written), removes what it made and throws.
QString stageAndSubmit(const SweepSubmission& s, int tasks) {
  Staging staging;
  staging.dir = s.dir;
  const QString scriptPath = QDir(s.dir).filePath(QLatin1String(kScriptName));
  try {
    staging.createdDir = !QFileInfo::exists(s.dir);
    if (!QDir().mkpath(s.dir))
      throw ui::SessionError(
          QStringLiteral("%1: cannot create the folder").arg(s.dir).toStdString());
    staging.createdLogs = QDir(s.dir).mkdir(QLatin1String(kLogFolderName));
    if (!s.configCopy.isEmpty()) stage(staging, QLatin1String(kConfigCopyName), s.configCopy);
    const SweepScript script{s.dir, s.cli, s.sweepArgs, tasks, s.settings};
    stage(staging, QLatin1String(kScriptName), sbatchScript(script).toUtf8());
    QFile::setPermissions(scriptPath, QFile::permissions(scriptPath) | QFile::ExeOwner);
    return submitScript(scriptPath);
  } catch (...) {
    staging.undo();
    throw;
  }
}

}  // namespace

QString cliBesideThisProgram() {
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate : {here.filePath(QStringLiteral("epsilonlab-cli")),
                                   here.filePath(QStringLiteral("../cli/epsilonlab-cli"))})
    if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
  return {};
}

QString taskJobs(const SlurmSettings& settings) {
  return settings.cpusPerTask ? QString::number(*settings.cpusPerTask) : QStringLiteral("1");
}

void requireFreshJobFolder(const QString& dir) {
  if (QFileInfo::exists(recordPath(dir))) {
    QString what = QStringLiteral("another sweep");
    try {
      const ClusterJob job = readClusterJob(dir);
      what = QStringLiteral("the sweep of Slurm job %1 (sweep %2)")
                 .arg(job.jobIds.join(QLatin1Char(',')),
                      ui::clipped(job.sweepArgs.join(QLatin1Char(' '))));
    } catch (const Error& e) {
      what += QStringLiteral(" (its record cannot be read: %1)").arg(QString::fromUtf8(e.what()));
    }
    throw ConfigError(QStringLiteral("%1 already holds %2; choose a new folder, or follow "
                                     "it with `epsilonlab-cli cluster status`")
                          .arg(ui::clipped(dir), what)
                          .toStdString());
  }
  const QStringList entries =
      QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  if (!entries.isEmpty())
    throw ConfigError(QStringLiteral("%1 is not empty (it holds %2 entries, e.g. '%3'); "
                                     "a sweep sent to Slurm needs a new or empty folder")
                          .arg(ui::clipped(dir))
                          .arg(entries.size())
                          .arg(ui::clipped(entries.first()))
                          .toStdString());
}

ClusterJob submitSweep(const SweepSubmission& s) {
  checkSettings(s.settings);
  checkJobFolder(s.dir);
  requireFreshJobFolder(s.dir);
  // After the settings and the folder, so that those are checked on any machine.
  requireSlurmTool(QStringLiteral("sbatch"));
  ClusterJob job;
  job.dir = s.dir;
  job.runs = s.runs;
  job.tasks = s.tasks > 0 ? s.tasks : std::min(s.runs, kMaxDefaultTasks);
  job.settings = s.settings;
  job.cli = s.cli;
  job.sweepArgs = s.sweepArgs;
  const QString id = stageAndSubmit(s, job.tasks);
  job.jobIds = {id};
  job.taskJob = QStringList(job.tasks, id);
  job.submitted = QDateTime::currentDateTimeUtc();
  writeClusterJob(job);
  return job;
}

}  // namespace epsilon::cluster

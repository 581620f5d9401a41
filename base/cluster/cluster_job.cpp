#include "base/cluster/cluster_job.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "base/io/json_reader.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

namespace epsilon::cluster {

namespace {

QJsonValue optionalInt(const std::optional<int>& value) {
  return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<int> readOptionalInt(ui::JsonReader& reader, const QString& key) {
  if (reader.has(key) && reader.take(key).isNull()) return std::nullopt;
  if (!reader.has(key)) return std::nullopt;
  return static_cast<int>(reader.integer(key, 1, 100000, 1));
}

SlurmSettings readSettings(ui::JsonReader reader) {
  reader.allowOnly({"partition", "time", "cpus_per_task", "mem", "max_parallel", "sbatch_args"});
  SlurmSettings s;
  s.partition = reader.string(QStringLiteral("partition"), false, {}, true);
  s.time = reader.string(QStringLiteral("time"), false, {}, true);
  s.cpusPerTask = readOptionalInt(reader, QStringLiteral("cpus_per_task"));
  s.mem = reader.string(QStringLiteral("mem"), false, {}, true);
  s.maxParallel = readOptionalInt(reader, QStringLiteral("max_parallel"));
  s.sbatchArgs = reader.strings(QStringLiteral("sbatch_args"));
  reader.finish();
  return s;
}

ClusterJob readJob(const QJsonObject& json) {
  ui::JsonReader reader(json, QString());
  reader.allowOnly({"format", "version", "tasks", "runs", "jobs", "task_jobs", "settings", "cli",
                    "sweep", "submitted"});
  if (reader.string(QStringLiteral("format"), true) != QLatin1String(kJobFormat))
    reader.fail(QStringLiteral("format"), QStringLiteral("expected \"%1\"").arg(kJobFormat));
  reader.integer(QStringLiteral("version"), 1, 1, 1, true);
  ClusterJob job;
  job.tasks = static_cast<int>(reader.integer(QStringLiteral("tasks"), 1, 100000, 1, true));
  job.runs = static_cast<int>(reader.integer(QStringLiteral("runs"), 1, 1e9, 1, true));
  job.jobIds = reader.strings(QStringLiteral("jobs"), true);
  job.taskJob = reader.strings(QStringLiteral("task_jobs"), true);
  if (job.taskJob.size() != job.tasks)
    reader.fail(QStringLiteral("task_jobs"),
                QStringLiteral("expected one job id per task (%1), got %2")
                    .arg(job.tasks)
                    .arg(job.taskJob.size()));
  for (const QString& id : job.taskJob)
    if (!job.jobIds.contains(id))
      reader.fail(QStringLiteral("task_jobs"),
                  QStringLiteral("'%1' is not one of \"jobs\"").arg(ui::clipped(id)));
  job.settings = readSettings(reader.child(QStringLiteral("settings"), true));
  job.cli = reader.string(QStringLiteral("cli"), true);
  job.sweepArgs = reader.strings(QStringLiteral("sweep"), true);
  job.submitted = QDateTime::fromString(reader.string(QStringLiteral("submitted"), false, {}, true),
                                        Qt::ISODate);
  reader.finish();
  return job;
}

}  // namespace

int ClusterJob::runsOfTask(int task) const {
  if (task < 1 || task > tasks) return 0;
  return runs / tasks + ((task - 1) < runs % tasks ? 1 : 0);
}

QString ClusterJob::logPath(int task) const {
  return QStringLiteral("%1/%2/task-%3-%4.log")
      .arg(dir, QLatin1String(kLogFolderName))
      .arg(task)
      .arg(taskJob.value(task - 1));
}

QString recordPath(const QString& dir) {
  return QDir(QFileInfo(dir).absoluteFilePath()).filePath(QLatin1String(kJobRecordName));
}

ClusterJob readClusterJob(const QString& dir) {
  const QString path = recordPath(dir);
  if (!QFileInfo(dir).isDir())
    throw ConfigError(QStringLiteral("%1: no such folder").arg(ui::clipped(dir)).toStdString());
  if (!QFileInfo::exists(path))
    throw ConfigError(QStringLiteral("%1: not the folder of a sweep submitted to Slurm (no %2)")
                          .arg(ui::clipped(dir), QLatin1String(kJobRecordName))
                          .toStdString());
  const QJsonObject json = ui::readJsonObjectFile(path, 16 << 20, QStringLiteral("Slurm job"));
  try {
    ClusterJob job = readJob(json);
    job.dir = QFileInfo(dir).absoluteFilePath();
    return job;
  } catch (const ConfigError& e) {
    throw ConfigError(ui::clipped(path).toStdString() + ": " + e.what());
  }
}

void writeClusterJob(const ClusterJob& job) {
  const SlurmSettings& s = job.settings;
  const QJsonObject settings{{"partition", s.partition},
                             {"time", s.time},
                             {"cpus_per_task", optionalInt(s.cpusPerTask)},
                             {"mem", s.mem},
                             {"max_parallel", optionalInt(s.maxParallel)},
                             {"sbatch_args", QJsonArray::fromStringList(s.sbatchArgs)}};
  const QJsonObject json{{"format", kJobFormat},
                         {"version", 1},
                         {"tasks", job.tasks},
                         {"runs", job.runs},
                         {"jobs", QJsonArray::fromStringList(job.jobIds)},
                         {"task_jobs", QJsonArray::fromStringList(job.taskJob)},
                         {"settings", settings},
                         {"cli", job.cli},
                         {"sweep", QJsonArray::fromStringList(job.sweepArgs)},
                         {"submitted", job.submitted.toString(Qt::ISODate)}};
  ui::writeFileAtomically(recordPath(job.dir), QJsonDocument(json).toJson(QJsonDocument::Indented));
}

QMap<int, QString> landedRunFiles(const QString& dir) {
  static const QRegularExpression name(QStringLiteral("^run-(\\d{1,9})-.*\\.json$"));
  QMap<int, QString> landed;
  const QDir folder(dir);
  for (const QString& file : folder.entryList({QStringLiteral("run-*.json")}, QDir::Files)) {
    const auto match = name.match(file);
    if (match.hasMatch()) landed.insert(match.captured(1).toInt(), folder.filePath(file));
  }
  return landed;
}

QString logTail(const QString& path, int lines) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  constexpr qint64 kMaxTail = 64 * 1024;
  if (file.size() > kMaxTail) file.seek(file.size() - kMaxTail);
  QStringList all =
      QString::fromUtf8(file.read(kMaxTail)).split(QLatin1Char('\n'), Qt::KeepEmptyParts);
  while (!all.isEmpty() && all.last().isEmpty()) all.removeLast();
  return all.mid(std::max<qsizetype>(0, all.size() - lines)).join(QLatin1Char('\n'));
}

QMap<int, QString> LandedRuns::poll() {
  QMap<int, QString> fresh;
  const QMap<int, QString> now = landedRunFiles(m_dir);
  for (auto it = now.begin(); it != now.end(); ++it)
    if (!m_seen.contains(it.key())) fresh.insert(it.key(), it.value());
  m_seen = now;
  return fresh;
}

}  // namespace epsilon::cluster

#include "base/io/session_file.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <cmath>

#include "base/io/attack_record.h"
#include "base/io/csv_writer.h"
#include "base/io/eval_point_json.h"
#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "core/common/parallel.h"

namespace epsilon::ui {

namespace {

constexpr int kSessionVersion = 1;

QString parseColour(JsonReader& r) {
  // "" lets the run model pick the next palette colour.
  const QString colour = r.string(QStringLiteral("color"), false, {}, true);
  static const QRegularExpression kColour(QStringLiteral("^(#[0-9a-fA-F]{6})?$"));
  if (!kColour.match(colour).hasMatch())
    r.fail(QStringLiteral("color"),
           QStringLiteral("expected a colour like \"#0072b2\", got \"%1\"").arg(clipped(colour)));
  return colour;
}

std::vector<LossPoint> readLosses(JsonReader& r) {
  std::vector<LossPoint> losses;
  const QJsonArray array = r.array(QStringLiteral("losses"));
  for (qsizetype i = 0; i < array.size(); ++i) {
    const QJsonArray pair = array.at(i).toArray();
    if (!array.at(i).isArray() || pair.size() != 2 || !pair.at(0).isDouble())
      r.expected(QStringLiteral("losses[%1]").arg(i), QStringLiteral("[step, loss]"), array.at(i));
    // The step as an evaluation's step is read: a whole number in [0, 2^53], checked before
    // it is converted (a larger double does not fit a long long).
    const double step = pair.at(0).toDouble();
    if (step != std::floor(step) || step < 0 || step > 9007199254740992.0)
      r.expected(QStringLiteral("losses[%1][0]").arg(i),
                 QStringLiteral("a step in [0, 9007199254740992]"), pair.at(0));
    const QJsonValue value = pair.at(1);
    const double loss = value.isDouble()                           ? value.toDouble()
                        : value.toString() == QLatin1String("inf") ? INFINITY
                                                                   : kNaN;
    losses.push_back({static_cast<long long>(step), loss});
  }
  return losses;
}

// Optional "cluster": {"folder": DIR, "index": N} of a run sent to Slurm (absent in sessions
// from before the cluster, and for runs trained here).
QJsonObject clusterToJson(const ClusterPlace& place) {
  return QJsonObject{{"folder", place.folder}, {"index", place.index}};
}

std::optional<ClusterPlace> clusterFromJson(JsonReader& run) {
  if (!run.has(QStringLiteral("cluster"))) return std::nullopt;
  JsonReader r = run.child(QStringLiteral("cluster"));
  ClusterPlace place;
  place.folder = r.string(QStringLiteral("folder"), true);
  place.index = static_cast<int>(r.integer(QStringLiteral("index"), 0, 1e9, 0, true));
  r.finish();
  return place;
}

}  // namespace

void throwSessionError(const QString& where, const QString& what) {
  throw SessionError(QStringLiteral("%1: %2").arg(where, what).toStdString());
}

QJsonObject runToJson(const RunRecord& run) {
  QJsonArray evals;
  for (const auto& e : run.evals) evals.append(evalPointToJson(e));
  QJsonArray losses;
  for (const auto& l : run.losses)
    losses.append(QJsonArray{static_cast<double>(l.step), numberToJson(l.loss)});
  QJsonObject object{{"id", run.id},
                     {"name", run.name},
                     {"color", run.color},
                     {"visible", run.visible},
                     {"status", runStatusName(run.status)},
                     {"message", run.message},
                     {"progress", numberToJson(run.progress)},
                     {"elapsed_seconds", numberToJson(run.elapsedSeconds)},
                     {"privacy_label", run.privacyLabel},
                     {"config", experimentToJson(run.config)},
                     {"evals", evals},
                     {"losses", losses}};
  // Optional: absent in sessions from before the Attack tab, and for runs not attacked.
  if (run.attack) object.insert(QStringLiteral("attack"), attackToJson(*run.attack));
  if (run.canaryAudit)
    object.insert(QStringLiteral("canary_audit"), canaryAuditToJson(*run.canaryAudit));
  if (run.lira) object.insert(QStringLiteral("lira"), liraToJson(*run.lira));
  if (run.cluster) object.insert(QStringLiteral("cluster"), clusterToJson(*run.cluster));
  return object;
}

RunStatus readStoredRunStatus(JsonReader& r) {
  const QString name = r.string(QStringLiteral("status"), true);
  const RunStatus status = parseRunStatus(name);
  if (runStatusName(status) != name)
    r.fail(QStringLiteral("status"), QStringLiteral("unknown status '%1'").arg(clipped(name)));
  // A run that was training when it was saved cannot resume: it was stopped.
  if (status == RunStatus::Queued || status == RunStatus::Running) return RunStatus::Cancelled;
  return status;
}

void checkStoredConfig(const RunRecord& run) {
  // A run that failed before its first evaluation may hold the settings it was refused for
  // (a sweep's point out of range); every other run trained, so its settings are valid.
  if (run.status == RunStatus::Failed && run.evals.empty()) return;
  run.config.validate();
}

namespace {

void readRunBody(JsonReader& r, RunRecord& run) {
  run.color = parseColour(r);
  run.visible = r.boolean(QStringLiteral("visible"), true);
  run.status = readStoredRunStatus(r);
  run.message = r.string(QStringLiteral("message"), false, {}, true);
  const double progress = r.numberOrNull(QStringLiteral("progress"), 0.0);
  if (!(progress >= 0 && progress <= 1) && !std::isnan(progress))
    r.expected(QStringLiteral("progress"), QStringLiteral("a fraction in [0, 1]"), progress);
  run.progress = progress;
  run.elapsedSeconds = r.numberOrNull(QStringLiteral("elapsed_seconds"), 0.0);
  if (run.elapsedSeconds < 0)
    r.expected(QStringLiteral("elapsed_seconds"), QStringLiteral("a number ≥ 0"),
               run.elapsedSeconds);
  run.privacyLabel = r.string(QStringLiteral("privacy_label"), false, {}, true);
  const QJsonObject config = r.object(QStringLiteral("config"), true);
  const QJsonArray evals = r.array(QStringLiteral("evals"), true);
  for (qsizetype i = 0; i < evals.size(); ++i) {
    const QString at = r.path(QStringLiteral("evals[%1]").arg(i));
    if (!evals.at(i).isObject())
      r.expected(QStringLiteral("evals[%1]").arg(i), QStringLiteral("an object"), evals.at(i));
    JsonReader point(evals.at(i).toObject(), at);
    run.evals.push_back(evalPointFromJson(point));
    point.finish();
  }
  checkEvalOrder(r, QStringLiteral("evals"), run.evals);
  try {
    run.config = experimentFromJson(config);
    checkStoredConfig(run);
  } catch (const ConfigError& e) {
    throw ConfigError(r.path(QStringLiteral("config")).toStdString() + "." + e.what());
  }
  run.losses = readLosses(r);
  run.attack = attackFromJson(r, QStringLiteral("attack"));
  run.canaryAudit = canaryAuditFromJson(r, QStringLiteral("canary_audit"));
  run.lira = liraFromJson(r, QStringLiteral("lira"));
  run.cluster = clusterFromJson(r);
  // A run on a cluster goes on without this process: it waits for its run file again.
  const QString stored = r.take(QStringLiteral("status")).toString();
  if (run.cluster &&
      (stored == runStatusName(RunStatus::Queued) || stored == runStatusName(RunStatus::Running)))
    run.status = RunStatus::Queued;
  r.finish();
}

}  // namespace

RunRecord runFromJson(const QJsonObject& o, const QString& where) {
  JsonReader r(o, where);
  RunRecord run;
  run.id = static_cast<int>(r.integer(QStringLiteral("id"), 1, 1e9, 0, true));
  run.name = r.string(QStringLiteral("name"), true, {}, true);
  try {
    readRunBody(r, run);
  } catch (const ConfigError& e) {
    // Which run, by its name as well as its place: "runs[3].evals[2].epsilon: … (run 'noise 1')".
    throw ConfigError(std::string(e.what()) + " (run '" + clipped(run.name).toStdString() + "')");
  }
  return run;
}

QJsonObject sessionToJson(const std::vector<RunRecord>& runs) {
  QJsonArray array;
  for (const auto& r : runs) array.append(runToJson(r));
  return QJsonObject{{"format", QString::fromLatin1(kSessionFormat)},
                     {"version", kSessionVersion},
                     {"runs", array}};
}

std::vector<RunRecord> sessionFromJson(const QJsonObject& session, const QString& fileName) {
  try {
    JsonReader r(session, {});
    // The format first: another kind of file (a run file, a figure) is named as such, not as
    // a session with unknown keys.
    const QString format = r.string(QStringLiteral("format"), true, {}, true);
    if (format != QLatin1String(kSessionFormat))
      throwSessionError(fileName,
                        QStringLiteral("not an EpsilonLab session (format is '%1', expected '%2')")
                            .arg(clipped(format), QLatin1String(kSessionFormat)));
    r.allowOnly({"format", "version", "runs"});
    r.integer(QStringLiteral("version"), kSessionVersion, kSessionVersion, 0, true);
    const QJsonArray array = r.array(QStringLiteral("runs"), true);
    // Each run is read on its own (10,000 runs open in seconds); the first bad one is reported.
    std::vector<RunRecord> runs(static_cast<std::size_t>(array.size()));
    forEachIndex(runs.size(), 64, [&](std::size_t i) {
      const QJsonValue value = array.at(static_cast<qsizetype>(i));
      const QString where = QStringLiteral("runs[%1]").arg(i);
      if (!value.isObject()) r.expected(where, QStringLiteral("an object"), value);
      runs[i] = runFromJson(value.toObject(), where);
    });
    QSet<int> ids;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (ids.contains(runs[i].id))
        r.fail(QStringLiteral("runs[%1].id").arg(i),
               QStringLiteral("duplicate run id %1").arg(runs[i].id));
      ids.insert(runs[i].id);
    }
    return runs;
  } catch (const ConfigError& e) {
    throwSessionError(fileName, QString::fromUtf8(e.what()));
  }
}

void writeFileAtomically(const QString& path, const QByteArray& bytes) {
  const QFileInfo target(path);
  if (target.exists() && !target.isFile()) {
    // A device or pipe (/dev/full, a FIFO): QSaveFile would rename its temporary file over
    // the node (as root it replaces /dev/full), so write to it directly and report errors.
    QFile direct(path);
    if (!direct.open(QIODevice::WriteOnly) || direct.write(bytes) != bytes.size() ||
        !direct.flush())
      throw SessionError(
          QStringLiteral("Cannot write %1: %2").arg(path, direct.errorString()).toStdString());
    return;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    throw SessionError(
        QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()).toStdString());
  if (file.write(bytes) != bytes.size()) {
    // The reason before cancelWriting(), which replaces it with "Writing canceled by
    // application" (a full disk must say "No space left on device").
    const QString reason = file.errorString();
    file.cancelWriting();
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, reason).toStdString());
  }
  // Flush before commit: commit() can lose a write error of the buffered tail (a full disk,
  // /dev/full) and report success.
  if (!file.flush()) {
    const QString reason = file.errorString();
    file.cancelWriting();
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, reason).toStdString());
  }
  if (!file.commit())
    throw SessionError(
        QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()).toStdString());
}

void saveSession(const QString& path, const std::vector<RunRecord>& runs) {
  // Compact, not indented: indentation was half of a long history's bytes (a 10^6-point run
  // took 529 MB indented, against loadSession's 512 MiB cap). Nothing is lost: Qt writes each
  // double in its shortest form that reads back to the same bits.
  writeFileAtomically(path, QJsonDocument(sessionToJson(runs)).toJson(QJsonDocument::Compact));
}

std::vector<RunRecord> loadSession(const QString& path) {
  constexpr qint64 kMaxSessionBytes = 512LL << 20;
  QJsonObject json;
  try {
    json = readJsonObjectFile(path, kMaxSessionBytes, QStringLiteral("session"));
  } catch (const ConfigError& e) {
    throw SessionError(e.what());
  }
  return sessionFromJson(json, path);
}

void exportHistoryCsv(const QString& path, const std::vector<RunRecord>& runs) {
  // The run's name and privacy label, the evaluation point's own columns, then the settings
  // that say what each run was (model, lot size, epochs, learning rate, and all that differ).
  std::vector<QJsonObject> configs;
  for (const auto& r : runs) configs.push_back(experimentToJson(r.config));
  const QStringList settings = settingColumns(configs);
  CsvWriter csv(QStringList{"run_id", "run_name", "privacy"} + evalPointKeys() + settings);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    const QStringList settingValues = settingCells(configs[i], settings);
    for (const auto& e : r.evals) {
      const QJsonObject point = evalPointToJson(e);
      QStringList cells{QString::number(r.id), csvText(r.name), csvText(r.privacyLabel)};
      for (const QString& key : evalPointKeys()) cells << csvJson(point.value(key));
      csv.addRow(cells + settingValues);
    }
  }
  writeFileAtomically(path, csv.bytes());
}

void exportHistoryJson(const QString& path, const std::vector<RunRecord>& runs) {
  saveSession(path, runs);
}

}  // namespace epsilon::ui

#include "base/io/run_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

#include "base/io/eval_point_json.h"
#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "base/io/run_conversion.h"
#include "base/io/run_verification.h"
#include "core/common/text.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

namespace {

constexpr const char* kRunFormat = "epsilonlab-run";
constexpr qint64 kMaxRunBytes = 256LL << 20;      // a run file holds one history
constexpr qint64 kMaxSessionBytes = 512LL << 20;  // as loadSession allows

// One history event (progressToJson's keys): the evaluation point, and the statement it
// carries (its words read back into a statement, privacy_statement.h). False in `stated` for
// an event that names no accountant (older files).
EvalPoint readEvent(JsonReader& e, privacy::PrivacyStatement& statement, bool& stated) {
  EvalPoint point = evalPointFromJson(e);
  // Run files wrote ∞ as null before the one evaluation-point schema; no run reports a NaN ε.
  if (std::isnan(point.epsilon)) point.epsilon = INFINITY;
  statement.epsilon = point.epsilon;
  if (std::isfinite(point.nominalEpsilon)) statement.nominalEpsilon = point.nominalEpsilon;
  statement.delta = e.number(QStringLiteral("delta"), false, 0.0);
  const QString accountant = e.string(QStringLiteral("accountant"), false, {}, true);
  stated = !accountant.isEmpty();
  const auto words = [&](const char* key) {
    return e.string(QLatin1String(key), stated, {}, true).toStdString();
  };
  const auto parsed = [&](const char* key, auto parse) {
    const std::string text = words(key);
    try {
      return parse(text);
    } catch (const PrivacyError&) {
      e.fail(QLatin1String(key), QStringLiteral("expected the words EpsilonLab writes, got '%1'")
                                     .arg(QString::fromStdString(clippedText(text))));
    }
  };
  if (stated) {
    statement.accountant = parsed("accountant", [&](const std::string&) {
      return privacy::parseAccountantKind(accountant.toStdString());
    });
    statement.sampling = parsed("sampling", [](const std::string& t) {
      return privacy::parseSamplingWords(t, "sampling");
    });
    statement.status = parsed("privacy_status", [](const std::string& t) {
      return privacy::parseStatusWords(t, "privacy_status");
    });
  }
  e.boolean(QStringLiteral("epsilon_is_guarantee"), false);  // follows from privacy_status
  for (const char* key : {"nominal_label", "pca_label"})
    e.string(QLatin1String(key), false, {}, true);
  statement.noiseRounded = e.boolean(QStringLiteral("sigma_rounded_for_accounting"), false);
  // What only a live event needs: checked for type, not kept.
  for (const char* key :
       {"run", "total_steps", "gradient_sigma", "learning_rate", "rdp_order", "count_noise"})
    e.numberOrNull(QLatin1String(key), kNaN);
  e.finish();
  return point;
}

void readHistory(JsonReader& r, RunRecord& run) {
  const QJsonArray history = r.array(QStringLiteral("history"), true);
  for (qsizetype i = 0; i < history.size(); ++i) {
    const QString key = QStringLiteral("history[%1]").arg(i);
    if (!history.at(i).isObject()) r.expected(key, QStringLiteral("an object"), history.at(i));
    JsonReader event(history.at(i).toObject(), r.path(key));
    privacy::PrivacyStatement statement;
    bool stated = false;
    const EvalPoint point = readEvent(event, statement, stated);
    run.evals.push_back(point);
    // As recordFromResult keeps them: each evaluation's training loss is a lot loss.
    if (std::isfinite(point.trainLoss)) run.losses.push_back({point.step, point.trainLoss});
    if (stated) run.privacyLabel = privacyLabelOf(statement);
  }
}

// The sweep point a sweep's run file belongs to; its label names the run.
QString readSweepLabel(JsonReader& r) {
  JsonReader sweep = r.child(QStringLiteral("sweep"));
  sweep.allowOnly({"index", "label", "values"});
  sweep.integer(QStringLiteral("index"), 0, 1e9, 0);
  const QString label = sweep.string(QStringLiteral("label"), false, {}, true);
  sweep.object(QStringLiteral("values"));
  sweep.finish();
  return label;
}

void readRunTop(JsonReader& r, RunRecord& run) {
  const QString format = r.string(QStringLiteral("format"), true, {}, true);
  if (format != QLatin1String(kRunFormat))
    r.fail(QStringLiteral("format"),
           QStringLiteral("expected \"%1\", got \"%2\"").arg(QLatin1String(kRunFormat), format));
  r.integer(QStringLiteral("version"), 1, 1, 0, true);
  run.status = readStoredRunStatus(r);
  run.progress = run.status == RunStatus::Done ? 1.0 : 0.0;
  run.message = r.string(QStringLiteral("message"), false, {}, true);
  run.elapsedSeconds = r.numberOrNull(QStringLiteral("elapsed_seconds"), 0.0);
  r.numberOrNull(QStringLiteral("train_examples"), 0.0);
  r.numberOrNull(QStringLiteral("test_examples"), 0.0);
  JsonReader model = r.child(QStringLiteral("model"));
  model.allowOnly({"parameters", "summary"});
  model.numberOrNull(QStringLiteral("parameters"), 0.0);
  model.string(QStringLiteral("summary"), false, {}, true);
  model.finish();
}

}  // namespace

RunRecord runRecordFromRunFile(const QJsonObject& json, const QString& where, const QString& name) {
  try {
    JsonReader r(json, {});
    r.allowOnly({"format", "version", "status", "message", "experiment", "history", "model",
                 "train_examples", "test_examples", "elapsed_seconds", "sweep"});
    RunRecord run;
    readRunTop(r, run);
    const QJsonObject experiment = r.object(QStringLiteral("experiment"), true);
    try {
      run.config = experimentFromJson(experiment);
    } catch (const ConfigError& e) {
      throw ConfigError("experiment." + std::string(e.what()));
    }
    readHistory(r, run);
    const QString label = readSweepLabel(r);
    run.name = label.isEmpty() ? name : label;
    r.finish();
    return run;
  } catch (const ConfigError& e) {
    throwSessionError(where, QString::fromUtf8(e.what()));
  }
}

RunRecord readRunFile(const QString& path) {
  QJsonObject json;
  try {
    json = readJsonObjectFile(path, kMaxRunBytes, QStringLiteral("run file"));
  } catch (const ConfigError& e) {
    throw SessionError(e.what());
  }
  return runRecordFromRunFile(json, path, QFileInfo(path).completeBaseName());
}

namespace {

// Every *.json of a folder, in name order, as run files (a sweep's output: run-NN-….json
// beside summary.csv).
std::vector<RunRecord> readRunFolder(const QString& path) {
  const QDir dir(path);
  const QStringList names =
      dir.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name);
  if (names.isEmpty())
    throwSessionError(path,
                      QStringLiteral("expected a folder holding run files (*.json), found none"));
  if (static_cast<std::size_t>(names.size()) > train::kMaxSweepRuns)
    throwSessionError(path, QStringLiteral("expected at most %1 run files, found %2")
                                .arg(static_cast<qulonglong>(train::kMaxSweepRuns))
                                .arg(names.size()));
  std::vector<RunRecord> runs;
  for (const QString& name : names) {
    runs.push_back(readRunFile(dir.filePath(name)));
    runs.back().id = static_cast<int>(runs.size());
  }
  return runs;
}

}  // namespace

namespace {

std::vector<RunRecord> readSessionOrRuns(const QString& path) {
  const QFileInfo info(path);
  if (info.isDir()) return readRunFolder(path);
  QJsonObject json;
  try {
    json = readJsonObjectFile(path, kMaxSessionBytes, QStringLiteral("session or run file"));
  } catch (const ConfigError& e) {
    throw SessionError(e.what());
  }
  const QString format = json.value(QLatin1String("format")).toString();
  if (format == QLatin1String(kSessionFormat)) return sessionFromJson(json, path);
  if (format != QLatin1String(kRunFormat))
    throwSessionError(
        path, QStringLiteral("not an EpsilonLab session or run file (format is '%1', expected "
                             "'%2' or '%3')")
                  .arg(clipped(format), QLatin1String(kSessionFormat), QLatin1String(kRunFormat)));
  if (info.size() > kMaxRunBytes)
    throwSessionError(path, QStringLiteral("expected a run file of at most %1 MiB, found %2 bytes")
                                .arg(kMaxRunBytes >> 20)
                                .arg(info.size()));
  RunRecord run = runRecordFromRunFile(json, path, info.completeBaseName());
  run.id = 1;
  return {run};
}

}  // namespace

std::vector<RunRecord> openSessionOrRuns(const QString& path) {
  std::vector<RunRecord> runs = readSessionOrRuns(path);
  verifyStatedEpsilons(runs);  // no ε is believed without checking it against its settings
  return runs;
}

QString saveSuggestionAfterOpening(const QString& path) {
  const QFileInfo info(path);
  if (!info.isDir()) {
    try {
      const QJsonObject json =
          readJsonObjectFile(path, kMaxSessionBytes, QStringLiteral("session or run file"));
      if (json.value(QLatin1String("format")).toString() == QLatin1String(kSessionFormat))
        return path;
    } catch (const std::exception&) {
      // Unreadable now: propose a new name rather than the file.
    }
  }
  if (info.isDir()) {
    QDir folder(info.absoluteFilePath());
    const QString name = folder.dirName();
    folder.cdUp();
    return folder.filePath(name + QStringLiteral("-session.json"));
  }
  return info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral("-session.json"));
}

}  // namespace epsilon::ui

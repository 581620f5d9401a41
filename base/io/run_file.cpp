#include "base/io/run_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <algorithm>
#include <atomic>
#include <cmath>

#include "base/io/eval_point_json.h"
#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "base/io/run_conversion.h"
#include "base/io/run_verification.h"
#include "core/common/parallel.h"
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

// An evaluation event as the trainer reported it, from what its run file keeps (the inverse of
// progressToJson; a snapshot and the PCA release's details are not in the file).
train::ProgressEvent eventFromFile(const EvalPoint& p, privacy::PrivacyStatement statement,
                                   const QJsonObject& o) {
  const auto number = [&](const char* key) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : kNaN;
  };
  if (std::isfinite(number("rdp_order"))) statement.order = number("rdp_order");
  train::ProgressEvent e;
  e.kind = train::EventKind::Evaluation;
  e.status = train::RunStatus::Running;
  e.runId = static_cast<train::RunId>(std::max(0.0, number("run")));
  e.step = p.step;
  e.totalSteps = static_cast<long long>(std::max(0.0, number("total_steps")));
  e.epoch = p.epoch;
  e.trainLoss = p.trainLoss;
  e.testAccuracy = p.testAccuracy;
  e.testLoss = p.testLoss;
  e.privacy = statement;
  e.sigma = p.sigma;
  e.gradientSigma = number("gradient_sigma");
  e.clipNorm = p.clipNorm;
  e.countNoise = number("count_noise");
  e.learningRate = number("learning_rate");
  e.fractionClipped = p.fractionClipped;
  e.meanGradientNorm = p.gradientNorm;
  e.elapsedSeconds = p.elapsedSeconds;
  return e;
}

void readHistory(JsonReader& r, RunRecord& run, std::vector<train::ProgressEvent>* events) {
  const QJsonArray history = r.array(QStringLiteral("history"), true);
  for (qsizetype i = 0; i < history.size(); ++i) {
    const QString key = QStringLiteral("history[%1]").arg(i);
    if (!history.at(i).isObject()) r.expected(key, QStringLiteral("an object"), history.at(i));
    JsonReader event(history.at(i).toObject(), r.path(key));
    privacy::PrivacyStatement statement;
    bool stated = false;
    const EvalPoint point = readEvent(event, statement, stated);
    if (events) events->push_back(eventFromFile(point, statement, history.at(i).toObject()));
    run.evals.push_back(point);
    // As recordFromResult keeps them: each evaluation's training loss is a lot loss.
    if (std::isfinite(point.trainLoss)) run.losses.push_back({point.step, point.trainLoss});
    if (stated) run.privacyLabel = privacyLabelOf(statement);
  }
  checkEvalOrder(r, QStringLiteral("history"), run.evals);
}

// The sweep point a sweep's run file belongs to; its label names the run.
QString readSweepLabel(JsonReader& r) {
  JsonReader sweep = r.child(QStringLiteral("sweep"));
  sweep.allowOnly({"index", "label", "values", "of"});
  const long long of = sweep.integer(QStringLiteral("of"), 0, double(train::kMaxSweepRuns), 0);
  sweep.integer(QStringLiteral("index"), 0, of > 0 ? double(of - 1) : 1e9, 0);
  const QString label = sweep.string(QStringLiteral("label"), false, {}, true);
  sweep.object(QStringLiteral("values"));
  sweep.finish();
  return label;
}

void readRunTop(JsonReader& r, RunRecord& run) {
  const QString format = r.string(QStringLiteral("format"), true, {}, true);
  if (format != QLatin1String(kRunFormat))
    r.fail(QStringLiteral("format"), QStringLiteral("expected \"%1\", got \"%2\"")
                                         .arg(QLatin1String(kRunFormat), clipped(format)));
  r.integer(QStringLiteral("version"), 1, 1, 0, true);
  run.status = readStoredRunStatus(r);
  run.progress = run.status == RunStatus::Done ? 1.0 : 0.0;
  run.message = r.string(QStringLiteral("message"), false, {}, true);
  run.elapsedSeconds = r.numberOrNull(QStringLiteral("elapsed_seconds"), 0.0);
  if (run.elapsedSeconds < 0)
    r.expected(QStringLiteral("elapsed_seconds"), QStringLiteral("a number ≥ 0"),
               run.elapsedSeconds);
  // Counts: whole and not negative (a file claiming −800 training examples is refused).
  constexpr double kMaxCount = 9007199254740992.0;
  r.integer(QStringLiteral("train_examples"), 0, kMaxCount, 0);
  r.integer(QStringLiteral("test_examples"), 0, kMaxCount, 0);
  JsonReader model = r.child(QStringLiteral("model"));
  model.allowOnly({"parameters", "summary"});
  model.integer(QStringLiteral("parameters"), 0, kMaxCount, 0);
  model.string(QStringLiteral("summary"), false, {}, true);
  model.finish();
}

}  // namespace

namespace {

RunRecord readRunRecord(const QJsonObject& json, const QString& where, const QString& name,
                        std::vector<train::ProgressEvent>* events) {
  try {
    JsonReader r(json, {});
    r.allowOnly({"format", "version", "status", "message", "experiment", "history", "model",
                 "train_examples", "test_examples", "elapsed_seconds", "sweep"});
    RunRecord run;
    readRunTop(r, run);
    const QJsonObject experiment = r.object(QStringLiteral("experiment"), true);
    readHistory(r, run, events);
    try {
      run.config = experimentFromJson(experiment);
      checkStoredConfig(run);
    } catch (const ConfigError& e) {
      throw ConfigError("experiment." + std::string(e.what()));
    }
    const QString label = readSweepLabel(r);
    run.name = label.isEmpty() ? name : label;
    r.finish();
    return run;
  } catch (const ConfigError& e) {
    throwSessionError(where, QString::fromUtf8(e.what()));
  }
}

// The share of an open's progress that reading takes; checking the ε takes the rest.
constexpr double kReadShare = 0.3;

QJsonObject readRunJson(const QString& path) {
  try {
    return readJsonObjectFile(path, kMaxRunBytes, QStringLiteral("run file"));
  } catch (const ConfigError& e) {
    throw SessionError(e.what());
  }
}

}  // namespace

RunRecord runRecordFromRunFile(const QJsonObject& json, const QString& where, const QString& name) {
  return readRunRecord(json, where, name, nullptr);
}

RunRecord readRunFile(const QString& path) {
  return runRecordFromRunFile(readRunJson(path), path, QFileInfo(path).completeBaseName());
}

std::optional<train::RunResult> readFinishedRun(const QString& path) {
  train::RunResult result = readRunResult(path);
  if (result.status != train::RunStatus::Done) return std::nullopt;
  return result;
}

train::RunResult readRunResult(const QString& path) {
  const QJsonObject json = readRunJson(path);
  train::RunResult result;
  const RunRecord run = readRunRecord(json, path, {}, &result.history);
  result.status = toTrainStatus(run.status);
  result.message = run.message.toStdString();
  result.config = run.config;
  const QJsonObject model = json.value(QStringLiteral("model")).toObject();
  result.modelSummary = model.value(QStringLiteral("summary")).toString().toStdString();
  result.parameterCount =
      static_cast<long long>(model.value(QStringLiteral("parameters")).toDouble());
  result.trainSize =
      static_cast<long long>(json.value(QStringLiteral("train_examples")).toDouble());
  result.testSize = static_cast<long long>(json.value(QStringLiteral("test_examples")).toDouble());
  result.elapsedSeconds = run.elapsedSeconds;
  return result;
}

namespace {

// Every *.json of a folder, in name order, as run files (a sweep's output: run-NN-….json
// beside summary.csv).
std::vector<RunRecord> readRunFolder(const QString& path, int* missingRuns,
                                     const OpenWatch& watch) {
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
  // The files are read in parallel (a sweep of 10,000 runs); the first bad one is reported.
  std::vector<RunRecord> runs(static_cast<std::size_t>(names.size()));
  std::vector<long long> sweepOf(runs.size(), 0);
  std::atomic<std::size_t> read{0};
  forEachIndex(runs.size(), 16, [&](std::size_t i) {
    if (watch.cancelled()) return;
    if (watch.progress && (++read % 64) == 0)
      watch.progress(kReadShare * static_cast<double>(read) / static_cast<double>(runs.size()));
    const QString file = dir.filePath(names.at(static_cast<qsizetype>(i)));
    const QJsonObject json = readRunJson(file);
    runs[i] = runRecordFromRunFile(json, file, QFileInfo(file).completeBaseName());
    runs[i].id = static_cast<int>(i + 1);
    const QJsonValue of = json.value(QLatin1String("sweep")).toObject().value(QLatin1String("of"));
    sweepOf[i] = static_cast<long long>(of.toDouble());
  });
  // The largest "of" the files state (a sweep's points in all).
  const long long sweepSize = *std::max_element(sweepOf.begin(), sweepOf.end());
  if (missingRuns)
    *missingRuns = static_cast<int>(std::max(0LL, sweepSize - static_cast<long long>(runs.size())));
  return runs;
}

}  // namespace

namespace {

std::vector<RunRecord> readSessionOrRuns(const QString& path, int* missingRuns, bool* isSession,
                                         const OpenWatch& watch) {
  const QFileInfo info(path);
  if (missingRuns) *missingRuns = 0;
  *isSession = false;
  if (info.isDir()) return readRunFolder(path, missingRuns, watch);
  QJsonObject json;
  try {
    json = readJsonObjectFile(path, kMaxSessionBytes, QStringLiteral("session or run file"));
  } catch (const ConfigError& e) {
    throw SessionError(e.what());
  }
  const QString format = json.value(QLatin1String("format")).toString();
  if (format == QLatin1String(kSessionFormat)) {
    *isSession = true;
    return sessionFromJson(json, path);
  }
  if (format != QLatin1String(kRunFormat))
    throwSessionError(
        path, QStringLiteral("not an EpsilonLab session or run file (format is '%1', expected "
                             "'%2' or '%3')%4")
                  .arg(clipped(format), QLatin1String(kSessionFormat), QLatin1String(kRunFormat),
                       format == QLatin1String("epsilonlab-figure")
                           ? QStringLiteral("; a figure file is drawn by epsilonlab-plot --figure")
                           : QString()));
  if (info.size() > kMaxRunBytes)
    throwSessionError(path, QStringLiteral("expected a run file of at most %1 MiB, found %2 bytes")
                                .arg(kMaxRunBytes >> 20)
                                .arg(info.size()));
  RunRecord run = runRecordFromRunFile(json, path, info.completeBaseName());
  run.id = 1;
  return {run};
}

// The session file itself, or a new "<name>-session.json" beside a run file or folder.
QString saveSuggestion(const QString& path, bool isSession) {
  const QFileInfo info(path);
  if (isSession) return path;
  if (info.isDir()) {
    QDir folder(info.absoluteFilePath());
    const QString name = folder.dirName();
    folder.cdUp();
    return folder.filePath(name + QStringLiteral("-session.json"));
  }
  return info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral("-session.json"));
}

}  // namespace

std::vector<RunRecord> openSessionOrRuns(const QString& path, int* missingRuns, QString* suggestion,
                                         const OpenWatch& watch) {
  bool isSession = false;
  std::vector<RunRecord> runs = readSessionOrRuns(path, missingRuns, &isSession, watch);
  if (watch.cancelled()) return {};
  if (watch.progress) watch.progress(kReadShare);
  // No ε is believed without checking it against its settings.
  verifyStatedEpsilons(runs, watch, kReadShare);
  if (watch.cancelled()) return {};
  if (suggestion) *suggestion = saveSuggestion(path, isSession);
  return runs;
}

QString saveSuggestionAfterOpening(const QString& path) {
  bool isSession = false;
  if (!QFileInfo(path).isDir()) {
    try {
      const QJsonObject json =
          readJsonObjectFile(path, kMaxSessionBytes, QStringLiteral("session or run file"));
      isSession = json.value(QLatin1String("format")).toString() == QLatin1String(kSessionFormat);
    } catch (const std::exception&) {
      // Unreadable now: propose a new name rather than the file.
    }
  }
  return saveSuggestion(path, isSession);
}

}  // namespace epsilon::ui

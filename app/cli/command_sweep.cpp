// `epsilonlab-cli sweep`: runs every combination of one or two parameters (or a preset's
// variants) as parallel jobs, writes one run file per point plus summary.csv, optionally
// draws the family of curves (--plot), and can run one shard of the sweep (--shard K/N). With
// --private-tuning DIST it runs instead a random number K of the grid's points, drawn at
// random, and reports the best one with the privacy of releasing it (private_tuning.h).
// Its runs live in the session model the GUI uses (base/session/batch_runs.h): the charts and
// --session are drawn and written from it.
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "base/io/json_reader.h"
#include "base/io/preset_file.h"
#include "base/io/privacy_preview.h"
#include "base/io/run_file.h"
#include "base/session/batch_runs.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "cli_options.h"
#include "core/common/errors.h"
#include "core/train/experiment_schema.h"
#include "core/train/private_tuning.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"
#include "experiment_json.h"
#include "reproduce_plot.h"
#include "reproduce_runs.h"
#include "sweep_options.h"
#include "sweep_slurm.h"
#include "tuning_flags.h"

namespace epsilon::cli {

namespace {

// "noise_multiplier=0.5,1,2" -> an axis; the parameter is checked by applySweepValue later.
train::SweepAxis parseAxis(const QString& flag, const QString& text) {
  const auto eq = text.indexOf(QLatin1Char('='));
  const QStringList values = text.mid(eq + 1).split(QLatin1Char(','), Qt::KeepEmptyParts);
  if (eq <= 0 || values.isEmpty() || values.contains(QString()))
    throw UsageError(
        QStringLiteral("--%1: expected NAME=v1,v2,... (e.g. noise_multiplier=0.5,1,2), got '%2'")
            .arg(flag, ui::clipped(text))
            .toStdString());
  train::SweepAxis axis{text.left(eq).trimmed().toStdString(), {}};
  for (const QString& v : values) axis.values.push_back(v.trimmed().toStdString());
  return axis;
}

QJsonObject pointSummary(const train::SweepPoint& point, const train::RunResult& result) {
  const train::ProgressEvent* last = lastEvaluation(result);
  const auto number = [](double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
  };
  QJsonObject o{{"index", point.index},
                {"label", QString::fromStdString(point.label)},
                {"status", QString::fromStdString(train::runStatusName(result.status))},
                {"final_accuracy", last ? number(last->testAccuracy) : QJsonValue()},
                {"final_epsilon", last ? number(last->privacy.epsilon) : QJsonValue()},
                {"delta", result.config.privacy.delta},
                {"seconds", result.elapsedSeconds}};
  if (last && last->privacy.nominalEpsilon)
    o.insert("nominal_epsilon", *last->privacy.nominalEpsilon);
  if (!result.message.empty() && result.status != train::RunStatus::Done)
    o.insert("message", QString::fromStdString(result.message));
  return o;
}

// The flags that shape a sweep, each checked and named when wrong.
struct SweepFlags {
  bool hasPreset = false;
  std::optional<long long> jobs;
  std::optional<std::pair<int, int>> shard;
  QString plot;
  std::vector<train::SweepAxis> axes;
  std::optional<privacy::TuningDistribution> tuning;  // --private-tuning
  std::optional<double> targetEpsilon;                // --target-epsilon
};

// --param and --param2 may ask for at most train::kMaxSweepRuns runs together (sweep.h).
void checkAxesSize(const std::vector<train::SweepAxis>& axes) {
  std::size_t runs = axes.empty() ? 0 : 1;
  QStringList sizes;
  for (const auto& axis : axes) {
    runs *= axis.values.size();  // each list is shorter than a command line
    sizes << QString::number(axis.values.size());
  }
  if (runs > train::kMaxSweepRuns)
    throw UsageError(QStringLiteral("--param/--param2: %1 values give %2 runs, expected at most %3")
                         .arg(sizes.join(QStringLiteral(" × ")))
                         .arg(static_cast<qulonglong>(runs))
                         .arg(static_cast<qulonglong>(train::kMaxSweepRuns))
                         .toStdString());
}

SweepFlags readSweepFlags(const QCommandLineParser& parser) {
  SweepFlags flags;
  flags.hasPreset = parser.isSet(QStringLiteral("preset"));
  if (parser.isSet(QStringLiteral("config")) == flags.hasPreset)
    throw UsageError("--config/--preset: expected exactly one of them");
  flags.jobs = readOptionalInteger(parser, QStringLiteral("jobs"));
  if (flags.jobs && (*flags.jobs < 1 || *flags.jobs > 1024))
    throw UsageError("--jobs: expected an integer in [1, 1024], got " +
                     std::to_string(*flags.jobs));
  if (parser.isSet(QStringLiteral("param2")) && !parser.isSet(QStringLiteral("param")))
    throw UsageError("--param2: given without --param");
  if (parser.isSet(QStringLiteral("shard"))) {
    try {
      flags.shard = train::parseShard(parser.value(QStringLiteral("shard")).toStdString());
    } catch (const ConfigError& e) {
      throw UsageError(e.what());
    }
  }
  flags.plot = parser.value(QStringLiteral("plot"));
  if (!flags.plot.isEmpty()) requirePlotting("--plot", flags.plot);
  for (const char* flag : {"param", "param2"})
    if (parser.isSet(QLatin1String(flag)))
      flags.axes.push_back(parseAxis(QLatin1String(flag), parser.value(QLatin1String(flag))));
  checkAxesSize(flags.axes);
  if (parser.isSet(QStringLiteral("target-epsilon"))) {
    flags.targetEpsilon = readDouble(parser, QStringLiteral("target-epsilon"));
    requirePositive(QStringLiteral("target-epsilon"), *flags.targetEpsilon);
    if (flags.axes.empty()) throw UsageError("--target-epsilon: needs --param (a sweep's axes)");
  }
  if (parser.isSet(QStringLiteral("private-tuning"))) {
    flags.tuning = parseTuningDistribution(QStringLiteral("--private-tuning"),
                                           parser.value(QStringLiteral("private-tuning")));
    if (flags.shard)
      throw UsageError(
          "--private-tuning: cannot be mixed with --shard (K runs are drawn from "
          "the whole grid)");
  }
  return flags;
}

// The preset (built-in or a file) or the experiment the axes apply to, and its points.
struct SweepPlan {
  std::optional<ui::Preset> preset;
  QString dataset;  // a preset's data set (--dataset, or the preferred one installed here)
  train::ExperimentConfig base;
  std::vector<train::SweepPoint> points;
};

void readSweepBase(const QCommandLineParser& parser, const SweepFlags& flags, SweepPlan& plan) {
  if (flags.hasPreset) {
    try {
      plan.preset = ui::findPreset(parser.value(QStringLiteral("preset")));
    } catch (const ConfigError& e) {
      throw UsageError(std::string("--preset: ") + e.what());
    }
  } else {
    // Read once: its format says whether it is a preset or an experiment.
    const QString path = parser.value(QStringLiteral("config"));
    const QJsonObject json = ui::readJsonObjectFile(path, ui::kMaxExperimentFileBytes,
                                                    QStringLiteral("experiment or preset file"));
    if (json.value(QStringLiteral("format")).toString() == QLatin1String(ui::kPresetFormat))
      plan.preset = ui::presetFromJson(json, path);
    else
      plan.base = ui::experimentFromFileJson(
          json, path, {}, std::any_of(flags.axes.begin(), flags.axes.end(), [](const auto& a) {
            return a.parameter == "dataset";
          }));
  }
}

SweepPlan planSweep(const QCommandLineParser& parser, const SweepFlags& flags,
                    DatasetCache& cache) {
  SweepPlan plan;
  readSweepBase(parser, flags, plan);
  const bool quick = parser.isSet(QStringLiteral("quick"));
  if (!plan.preset && quick) throw UsageError("--quick: only with a preset");
  if (!plan.preset && flags.axes.empty())
    throw UsageError(
        "--param: required with an experiment --config (e.g. --param noise_multiplier=0.5,1,2)");
  if (!plan.preset && parser.isSet(QStringLiteral("dataset")))
    throw UsageError("--dataset: only with a preset (an experiment file names its data set)");
  QString datasetNote;
  if (plan.preset) {
    plan.dataset = parser.isSet(QStringLiteral("dataset"))
                       ? parser.value(QStringLiteral("dataset"))
                       : ui::chooseDataset(*plan.preset, &datasetNote);
    plan.base = ui::presetBaseConfig(*plan.preset, quick, plan.dataset);
  }
  if (!datasetNote.isEmpty())
    QTextStream(stderr) << "epsilonlab-cli sweep: " << datasetNote << "\n";
  try {
    if (!flags.axes.empty()) {
      plan.points = train::expandSweep(plan.base, flags.axes, flags.targetEpsilon);
      // Each point's σ₀ for its own settings (its data set's N, its network's P).
      train::calibrateSweep(
          plan.points,
          [&cache](const train::ExperimentConfig& c) {
            return train::planInput(c, *cache.get(c.dataset));
          },
          ui::kNoiseMultiplierDecimals);
    } else
      plan.points = ui::presetPoints(*plan.preset, plan.base, quick,
                                     train::planInput(plan.base, *cache.get(plan.base.dataset)));
  } catch (const ConfigError& e) {
    throw UsageError(std::string(flags.axes.empty() ? "--preset: " : "--param: ") + e.what());
  } catch (const PrivacyError& e) {
    throw UsageError(std::string("--target-epsilon: ") + e.what());
  }
  // Each run file says how many points the whole sweep has, so that a folder opened before
  // the sweep ends (or after it was killed) can say how many runs are missing.
  for (auto& point : plan.points) point.of = static_cast<int>(plan.points.size());
  if (flags.shard)
    plan.points = train::shardOf(plan.points, flags.shard->first, flags.shard->second);
  return plan;
}

// Writes --out, --session and --plot and says which runs failed; a file that cannot be
// written is a failure of the work (exit 1), not an internal error. The session and the
// charts come from the session model, which holds the points' runs in their order.
int reportSweep(const QCommandLineParser& parser, const SweepFlags& flags, const SweepPlan& plan,
                const std::vector<train::RunResult>& results, const std::vector<bool>& resumed,
                ui::Session& session) {
  int exitCode = kExitOk;
  try {
    if (parser.isSet(QStringLiteral("out")))
      writeSweepOutputs(parser.value(QStringLiteral("out")), plan.points, results,
                        parser.value(QStringLiteral("summary")), resumed);
    if (parser.isSet(QStringLiteral("session"))) session.save(parser.value("session"));
  } catch (const std::runtime_error& e) {
    QTextStream(stderr) << "epsilonlab-cli sweep: " << e.what() << "\n";
    exitCode = kExitFailure;
  }
  if (!flags.plot.isEmpty()) {
    const QString caption = plan.preset
                                ? plan.preset->name
                                : QFileInfo(parser.value(QStringLiteral("config"))).fileName();
    const bool privacy = parser.isSet(QStringLiteral("privacy-caption"));
    const std::vector<ui::RunRecord>& runs = session.runs()->runs();
    QString error = plotRunGrid(plan.points, runs, flags.plot, caption, {1400, 950}, 110, privacy);
    // A sweep of --param (and --param2) is also drawn as a map beside the grid.
    if (error.isEmpty() && !flags.axes.empty())
      error = plotSweepMap(plan.points, runs, sweepMapPath(flags.plot), {1200, 800}, 110, privacy);
    if (!error.isEmpty()) {
      QTextStream(stderr) << "epsilonlab-cli sweep: --plot: " << error << "\n";
      exitCode = kExitFailure;
    }
  }
  for (const auto& r : results) {
    if (r.status == train::RunStatus::Failed) {
      QTextStream(stderr) << "epsilonlab-cli sweep: run " << r.runId
                          << " failed: " << QString::fromStdString(r.message) << "\n";
      exitCode = std::max(exitCode, r.inputError ? kExitUsage : kExitFailure);
    }
  }
  return exitCode;
}

// Each run file lands in --out (atomically) as soon as its run ends, so that a follower sees
// runs as they finish and a shard stopped part-way (a Slurm time limit) keeps its finished
// runs. reportSweep writes them all again with summary.csv at the end and reports there a
// file that cannot be written.
void landRunFile(const QString& out, const train::SweepPoint& point,
                 const train::RunResult& result) {
  if (out.isEmpty() || !QDir().mkpath(out)) return;
  try {
    writeFileAtomically(QDir(out).filePath(runFileName(point)), runFileBytes(point, result));
  } catch (const std::exception&) {
  }
}

// --resume: the result of each point whose run file in `out` is complete (its run finished
// with the point's settings), read back; the others are trained again. A damaged file (a run
// killed while its file was written is never one: files land atomically) is trained again
// and said so.
std::vector<std::optional<train::RunResult>> resumedRuns(
    const QString& out, const std::vector<train::SweepPoint>& points) {
  std::vector<std::optional<train::RunResult>> kept(points.size());
  const QDir dir(out);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const QString path = dir.filePath(runFileName(points[i]));
    if (!QFileInfo::exists(path)) continue;
    try {
      auto result = ui::readFinishedRun(path);
      if (result && experimentToJson(result->config) == experimentToJson(points[i].config))
        kept[i] = std::move(result);
    } catch (const std::exception& e) {
      QTextStream(stderr) << "epsilonlab-cli sweep: --resume: training again: " << e.what() << "\n";
    }
  }
  return kept;
}

// The points to train (all, or those --resume did not keep), each result landing in --out
// and in the session model's run as it finishes; then every point's result in the sweep's order.
std::vector<train::RunResult> runSweepPoints(const QCommandLineParser& parser,
                                             const SweepFlags& flags, const SweepPlan& plan,
                                             bool accountantOnly, DatasetCache& cache,
                                             std::vector<bool>& resumed, ui::RunModel& model) {
  const QString out = parser.value(QStringLiteral("out"));
  const std::vector<int> ids = ui::addPlannedRuns(model, plan.points);
  std::vector<std::optional<train::RunResult>> results(plan.points.size());
  if (parser.isSet(QStringLiteral("resume"))) results = resumedRuns(out, plan.points);
  std::vector<PlannedRun> planned;
  std::vector<std::size_t> indices;
  resumed.assign(plan.points.size(), false);
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    resumed[i] = results[i].has_value();
    if (resumed[i]) ui::landResult(model, ids[i], *results[i]);
    if (resumed[i]) continue;
    planned.push_back({plan.points[i], accountantOnly});
    indices.push_back(i);
  }
  const bool quiet = parser.isSet(QStringLiteral("quiet"));
  const auto trained = runPlanned(planned, flags.jobs ? static_cast<int>(*flags.jobs) : 0, cache,
                                  [&](std::size_t k, const train::RunResult& r) {
                                    const auto& point = plan.points[indices[k]];
                                    landRunFile(out, point, r);
                                    ui::landResult(model, ids[indices[k]], r);
                                    if (!quiet) printJsonLine(pointSummary(point, r));
                                  });
  for (std::size_t k = 0; k < trained.size(); ++k) results[indices[k]] = trained[k];
  std::vector<train::RunResult> all;
  for (auto& r : results) all.push_back(std::move(*r));
  return all;
}

// The selection score private tuning names and maximises.
constexpr const char* kTuningScore = "final test accuracy on the held-out test set";

// --private-tuning: the grid's point that bounds every other's privacy (privacy_statement.h,
// dominatingRun), then K points drawn from the sweep's seed in place of the grid.
QJsonObject planPrivateTuning(SweepPlan& plan, const privacy::TuningDistribution& tuning,
                              DatasetCache& cache) {
  std::vector<train::ExperimentConfig> configs;
  for (const auto& p : plan.points) configs.push_back(p.config);
  std::optional<train::TuningBound> found;
  try {
    found = train::tuningBound(
        configs,
        [&](const train::ExperimentConfig& c) {
          return train::planInput(c, *cache.get(c.dataset));
        },
        tuning);
  } catch (const ConfigError& e) {  // "private tuning: why", said of the flag
    const std::string why = e.what();
    throw UsageError("--private-tuning: " + why.substr(why.find(": ") + 2));
  }
  const std::size_t* bound = &found->index;
  QJsonObject summary{
      {QStringLiteral("bounding_point"), plan.points[*bound].index},
      {QStringLiteral("bounding_label"), QString::fromStdString(plan.points[*bound].label)},
      {QStringLiteral("grid_points"), static_cast<qint64>(plan.points.size())},
      {QStringLiteral("selection_score"), QString::fromUtf8(kTuningScore)}};
  found->description.tuning.reset();
  insertTunedStatements(summary, found->description, tuning, "--private-tuning");
  const train::PrivateTuningDraw draw =
      train::drawPrivateTuning(plan.points, tuning, plan.base.training.seed);
  QJsonArray drawn;
  for (int index : draw.gridIndices)
    drawn.append(plan.points[static_cast<std::size_t>(index)].index);
  summary.insert(QStringLiteral("runs_drawn"), static_cast<qint64>(draw.runs));
  summary.insert(QStringLiteral("grid_points_drawn"), drawn);
  plan.points = draw.points;
  for (auto& point : plan.points) point.of = static_cast<int>(plan.points.size());
  return summary;
}

// The run released by private tuning: the best final test accuracy among finished runs.
QJsonValue releasedRun(const SweepPlan& plan, const std::vector<train::RunResult>& results) {
  std::optional<std::size_t> best;
  double bestAccuracy = -1.0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const train::ProgressEvent* last = lastEvaluation(results[i]);
    if (results[i].status != train::RunStatus::Done || !last ||
        !(last->testAccuracy > bestAccuracy))
      continue;
    best = i;
    bestAccuracy = last->testAccuracy;
  }
  if (!best) return QJsonValue(QJsonValue::Null);  // K = 0, or no run finished
  return QJsonObject{{QStringLiteral("run"), plan.points[*best].index},
                     {QStringLiteral("label"), QString::fromStdString(plan.points[*best].label)},
                     {QStringLiteral("final_accuracy"), bestAccuracy}};
}

int runSweep(const QStringList& arguments) {
  QCommandLineParser parser;
  addSweepOptions(parser);
  if (const auto exit = parseOrExplain(parser, arguments, QStringLiteral("sweep"))) return *exit;
  const SweepFlags flags = readSweepFlags(parser);
  checkSlurmFlagUse(parser, {QStringLiteral("shard"), QStringLiteral("plot"),
                             QStringLiteral("summary"), QStringLiteral("session")});
  DatasetCache cache;
  SweepPlan plan = planSweep(parser, flags, cache);
  if (parser.isSet(QStringLiteral("slurm"))) {
    if (flags.tuning)
      throw UsageError("--private-tuning: runs on this computer only (not with --slurm)");
    return submitSweepToSlurm(parser, static_cast<int>(plan.points.size()), plan.dataset);
  }
  const bool accountantOnly = plan.preset && plan.preset->kind == ui::PresetKind::Accountant;
  if (flags.tuning && accountantOnly)
    throw UsageError("--private-tuning: an accountant-only preset trains nothing to select from");
  std::optional<QJsonObject> tuning;
  if (flags.tuning) tuning = planPrivateTuning(plan, *flags.tuning, cache);
  if (parser.isSet(QStringLiteral("resume")) && !parser.isSet(QStringLiteral("out")))
    throw UsageError("--resume: needs --out, the folder of the sweep to finish");
  if (parser.isSet(QStringLiteral("resume")) && flags.tuning)
    throw UsageError("--resume: cannot be mixed with --private-tuning (K runs are drawn anew)");
  std::vector<bool> resumed;
  ui::Session session;  // the sweep's runs, as the GUI's session model holds them
  const auto results =
      runSweepPoints(parser, flags, plan, accountantOnly, cache, resumed, *session.runs());
  if (tuning) {
    tuning->insert(QStringLiteral("released"), releasedRun(plan, results));
    printJsonLine(QJsonObject{{QStringLiteral("private_tuning"), *tuning}});
  }
  return reportSweep(parser, flags, plan, results, resumed, session);
}

}  // namespace

EPSILON_CLI_COMMAND(
    "sweep",
    "Run a parameter sweep or a preset as parallel jobs; write run files, a CSV summary, charts.",
    runSweep);

}  // namespace epsilon::cli

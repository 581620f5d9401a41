// `epsilonlab-cli train`: trains one experiment (DP-SGD or the non-private baseline) from
// flags and/or a versioned experiment file, printing one JSON object per evaluation and
// optionally writing the whole run (--out, JSON) and its history (--csv).
#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

#include "base/io/run_conversion.h"
#include "cli_options.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/train/job_runner.h"
#include "experiment_json.h"
#include "norms_plot.h"
#include "reproduce_plot.h"
#include "train_flags.h"

namespace epsilon::cli {

namespace {

int exitCodeOf(const train::RunResult& result) {
  switch (result.status) {
    case train::RunStatus::Done:
      return kExitOk;
    case train::RunStatus::Failed:
      return result.inputError ? kExitUsage : kExitFailure;
    default:
      return kExitFailure;
  }
}

void addTrainOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral(
      "Train a network with DP-SGD (or without privacy) and print one JSON object per evaluation.\n"
      "Flags override the --config file; --print-config shows every resolved value. Example:\n"
      "  epsilonlab-cli train --dataset fashion-mnist --model tfp-cnn --lot-size 256 \\\n"
      "      --learning-rate 0.15 --noise-multiplier 1.1 --clip-norm 1 --epochs 15 --out "
      "run.json"));
  parser.addOptions({
      {QStringLiteral("config"),
       QStringLiteral("Experiment file (format epsilonlab-experiment, version 1)."),
       QStringLiteral("FILE")},
      {QStringLiteral("threads"), QStringLiteral("Worker threads (default: all cores)."),
       QStringLiteral("N")},
      {QStringLiteral("out"), QStringLiteral("Write the whole run (experiment + history) as JSON."),
       QStringLiteral("FILE")},
      {QStringLiteral("csv"), QStringLiteral("Write the history as CSV."), QStringLiteral("FILE")},
      {QStringLiteral("plot"),
       QStringLiteral("Draw the GUI's four charts of the run (.png, .svg or .pdf), and the last "
                      "lot's gradient norms before clipping beside it (FILE-gradient-norms.EXT)."),
       QStringLiteral("FILE")},
      {QStringLiteral("privacy-caption"),
       QStringLiteral("With --plot: a caption under the charts with the run's delta, accountant "
                      "and sampling.")},
      {QStringLiteral("print-config"),
       QStringLiteral("Print the resolved experiment as JSON and exit.")},
      {QStringLiteral("quiet"), QStringLiteral("Do not print the evaluations.")},
  });
  addExperimentFlags(parser);
}

// The experiment: the --config file, then the flags over it, then --threads (0: all cores),
// then the experiment validated (errors name the flag), in that order.
train::ExperimentConfig readTrainConfig(const QCommandLineParser& parser, int& threads) {
  train::ExperimentConfig config;
  if (parser.isSet(QStringLiteral("config")))
    config = readExperimentFile(parser.value(QStringLiteral("config")), config,
                                parser.isSet(QStringLiteral("dataset")));
  applyExperimentFlags(parser, config);
  const auto requested = readOptionalInteger(parser, QStringLiteral("threads"));
  if (requested && (*requested < 1 || *requested > 1024)) {
    throw UsageError(QStringLiteral("--threads: expected an integer in [1, 1024], got %1")
                         .arg(*requested)
                         .toStdString());
  }
  threads = requested ? static_cast<int>(*requested) : 0;
  try {
    config.validate();
  } catch (const ConfigError& e) {
    rethrowNamingFlag(e);
  }
  return config;
}

// Trains on one job of a JobRunner, printing each evaluation as a JSON line unless quiet. With
// `lastNorms`, the run also reports each lot's pre-clip gradient norms (results are unchanged)
// and the last lot's are kept there.
train::RunResult trainOnce(train::ExperimentConfig config,
                           std::shared_ptr<const data::Dataset> dataset, int threads, bool quiet,
                           std::shared_ptr<const train::GradientNormSample>* lastNorms = nullptr) {
  if (lastNorms) config.training.gradientNorms = true;
  if (config.privacy.secureNoise) {
    // Said on stderr so the JSON on stdout stays machine-readable.
    QTextStream(stderr)
        << "train: --secure-noise: the DP noise comes from the OS CSPRNG (getrandom); "
           "this run is NOT reproducible from its seed (determinism off)\n";
  }
  std::mutex printing;
  train::JobRunner runner({.threads = threads, .maxConcurrentRuns = 1});
  const train::RunId id = runner.submit(
      config,
      [&](const train::ProgressEvent& event) {
        const std::lock_guard lock(printing);
        if (lastNorms && event.gradientNorms) *lastNorms = event.gradientNorms;
        if (quiet || event.kind != train::EventKind::Evaluation) return;
        printJsonLine(progressToJson(event));
      },
      std::move(dataset));
  return runner.wait(id);
}

// --plot's second figure, beside the charts: the last lot's gradient norms.
void plotGradientNorms(const QString& plotPath, const train::ExperimentConfig& config,
                       const train::GradientNormSample& sample) {
  const QString path = gradientNormPlotPath(plotPath);
  const QString error = plotFigure(gradientNormFigure(sample, config.privacy.privatizer,
                                                      QString::fromStdString(config.model.preset)),
                                   path);
  if (!error.isEmpty()) throw UsageError(QStringLiteral("--plot: %1").arg(error).toStdString());
}

// --out, --csv and --plot (the run's charts, and its last lot's gradient norms when known).
void writeTrainOutputs(const QCommandLineParser& parser, const train::ExperimentConfig& config,
                       const train::RunResult& result,
                       const std::shared_ptr<const train::GradientNormSample>& lastNorms) {
  if (parser.isSet(QStringLiteral("out"))) {
    writeFileAtomically(parser.value(QStringLiteral("out")),
                        QJsonDocument(runToJson(result)).toJson(QJsonDocument::Indented));
  }
  if (parser.isSet(QStringLiteral("csv")))
    writeFileAtomically(parser.value(QStringLiteral("csv")), historyToCsv(result.history));
  if (parser.isSet(QStringLiteral("plot"))) {
    const QString path = parser.value(QStringLiteral("plot"));
    const QString error = plotRecords(
        {ui::recordFromResult(result, QString::fromStdString(config.model.preset))}, path, {}, {},
        {1600, 1100}, 150, parser.isSet(QStringLiteral("privacy-caption")));
    if (!error.isEmpty()) throw UsageError(QStringLiteral("--plot: %1").arg(error).toStdString());
    if (lastNorms) plotGradientNorms(path, config, *lastNorms);
  }
}

int runTrain(const QStringList& arguments) {
  QCommandLineParser parser;
  addTrainOptions(parser);
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("train")))
    return *exitCode;
  int threads = 0;
  train::ExperimentConfig config = readTrainConfig(parser, threads);
  if (parser.isSet(QStringLiteral("print-config"))) {
    printJsonLine(experimentToJson(config));
    return kExitOk;
  }
  if (parser.isSet(QStringLiteral("plot"))) {
    requirePlotting("--plot", parser.value(QStringLiteral("plot")));
  }
  const auto dataset = std::make_shared<const data::Dataset>(
      data::loadDataset(config.dataset.name, config.dataset.options));
  try {
    config.validateFor(*dataset);
  } catch (const ConfigError& e) {
    rethrowNamingFlag(e);
  }
  std::shared_ptr<const train::GradientNormSample> lastNorms;
  const bool plotting = parser.isSet(QStringLiteral("plot"));
  const train::RunResult result =
      trainOnce(config, dataset, threads, parser.isSet(QStringLiteral("quiet")),
                plotting ? &lastNorms : nullptr);
  writeTrainOutputs(parser, config, result, lastNorms);
  if (result.status != train::RunStatus::Done) {
    QTextStream(stderr) << "epsilonlab-cli train: run "
                        << QString::fromStdString(train::runStatusName(result.status)) << ": "
                        << QString::fromStdString(result.message) << "\n";
  }
  return exitCodeOf(result);
}

}  // namespace

EPSILON_CLI_COMMAND("train", "Train a network with DP-SGD and print its progress as JSON lines.",
                    runTrain);

}  // namespace epsilon::cli

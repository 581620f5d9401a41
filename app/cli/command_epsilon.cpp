// `epsilonlab-cli epsilon`: the privacy statement of a run as one JSON object — the same
// privacyStatement the GUI's preview and the trainer use (privacy_statement.h). Either a
// DP-SGD run given by its sampling (q and T, or epochs over a data set) with an optional
// DP-PCA release before the steps (Abadi et al. 2016, §5; with --steps 0 accounted alone), or
// an experiment file (--config): then every mechanism of the config is honoured and the
// result is what the trained run ends with. With --tuning DIST (tuning_flags.h) the run is
// private selection: the best of a random number of runs, beside one run and ⌈μ⌉ composed.
#include <QCommandLineParser>
#include <QJsonObject>
#include <limits>

#include "cli_options.h"
#include "experiment_json.h"
#include "privacy_flags.h"
#include "train_flags.h"
#include "tuning_flags.h"

namespace epsilon::cli {

namespace {

void addEpsilonOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral(
      "Privacy budget (epsilon, delta) of a run: DP-SGD with Poisson sampling, optionally "
      "with a DP-PCA projection released before the first step, or an experiment file.\n"
      "  DP-SGD only:  epsilonlab-cli epsilon --sample-rate 0.01 --noise-multiplier 4 "
      "--steps 10000 --delta 1e-5\n"
      "  with PCA:     ... --pca-noise 7 --pca-sample 0.1   (epsilon of both, composed; "
      "\"pca\" gives the PCA's own)\n"
      "  PCA alone:    epsilonlab-cli epsilon --steps 0 --pca-noise 7 --delta 1e-5\n"
      "  experiment:   epsilonlab-cli epsilon --config run.json   (what the GUI's preview "
      "shows and the trained run ends with)\n"
      "  tuning:       ... --tuning geometric:10   (the best of a random number of runs, mean "
      "10, beside one run and 10 runs composed)"));
  addPrivacyRunOptions(parser);
  parser.addOptions(fieldOptions(
      "privacy.noise_multiplier",
      QStringLiteral("Noise multiplier sigma > 0 of the steps (not needed with --steps 0).")));
  parser.addOption(tuningOption());
}

int runEpsilon(const QStringList& arguments) {
  QCommandLineParser parser;
  addEpsilonOptions(parser);
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("epsilon")))
    return *exitCode;

  const std::optional<privacy::TuningDistribution> tuning = readTuning(parser);
  if (const auto planned = readPlannedRun(parser)) {
    QJsonObject result = planned->echo;
    if (tuning)
      insertTunedStatements(result, train::privacyDescription(planned->config, planned->input),
                            *tuning);
    else
      insertStatement(result, train::plannedPrivacy(planned->config, planned->input));
    printJsonLine(result);
    return kExitOk;
  }
  const PrivacyRunFlags flags = readPrivacyRunFlags(parser);
  double sigma = 0.0;
  if (flags.steps > 0 || parser.isSet(QStringLiteral("noise-multiplier"))) {
    sigma = readDouble(parser, QStringLiteral("noise-multiplier"));
    requirePositive(QStringLiteral("noise-multiplier"), sigma);
    // Below this σ² underflows to 0 in the accountants, which would then report a σ of 0
    // that nobody gave (1e-300 came back as "got 0").
    constexpr double kSmallestSigma = 1e-100;
    if (sigma < kSmallestSigma)
      requireRange(QStringLiteral("noise-multiplier"), sigma, kSmallestSigma,
                   std::numeric_limits<double>::infinity(), false, true);
  }
  QJsonObject result = flags.echo;
  if (flags.steps > 0) result.insert(QStringLiteral("noise_multiplier"), sigma);
  result.insert(QStringLiteral("mechanism"), flags.steps == 0    ? QStringLiteral("pca")
                                             : flags.pca.enabled ? QStringLiteral("pca+dp-sgd")
                                                                 : QStringLiteral("dp-sgd"));
  if (tuning) {
    const privacy::PrivacyStatement tuned =
        insertTunedStatements(result, describeFlags(flags, sigma), *tuning);
    if (tuned.pca) result.insert(QStringLiteral("pca"), pcaJson(flags.pca, tuned.pca->epsilon));
  } else {
    insertFlagStatement(result, flags, sigma);
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("epsilon",
                    "Privacy budget epsilon of a DP-SGD run or an experiment file (RDP or PLD).",
                    runEpsilon);

}  // namespace epsilon::cli

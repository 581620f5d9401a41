// `epsilonlab-cli epsilon`: the (ε, δ) of a DP-SGD run (Poisson-sampled Gaussian steps) from
// the RDP or the tight PLD accountant, as one JSON object; with --pca-noise a DP-PCA release
// (Abadi et al. 2016, §5) comes before the steps, and with --steps 0 it is accounted alone.
#include <QCommandLineParser>
#include <QJsonObject>

#include "cli_options.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"
#include "privacy_flags.h"

namespace epsilon::cli {

namespace {

int runEpsilon(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Privacy budget (epsilon, delta) of DP-SGD with Poisson sampling, optionally "
      "with a DP-PCA projection released before the first step.\n"
      "  DP-SGD only:  epsilonlab-cli epsilon --sample-rate 0.01 --noise-multiplier 4 "
      "--steps 10000 --delta 1e-5\n"
      "  with PCA:     ... --pca-noise 7 --pca-sample 0.1   (epsilon of both, composed; "
      "\"pca\" gives the PCA's own)\n"
      "  PCA alone:    epsilonlab-cli epsilon --steps 0 --pca-noise 7 --delta 1e-5"));
  addPrivacyRunOptions(parser);
  parser.addOptions({
      {QStringLiteral("noise-multiplier"),
       QStringLiteral("Noise multiplier sigma > 0 of the steps (not needed with --steps 0)."),
       QStringLiteral("S")},
      {QStringLiteral("conversion"),
       QStringLiteral("RDP to (epsilon, delta): improved (default) or classic."),
       QStringLiteral("NAME"), QStringLiteral("improved")},
  });
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("epsilon")))
    return *exitCode;

  const PrivacyRunFlags flags = readPrivacyRunFlags(parser);
  double sigma = 0.0;
  if (flags.steps > 0 || parser.isSet(QStringLiteral("noise-multiplier"))) {
    sigma = readDouble(parser, QStringLiteral("noise-multiplier"));
    requirePositive(QStringLiteral("noise-multiplier"), sigma);
  }
  const privacy::RdpConversion conversion = readConversion(parser);

  QJsonObject result = flags.echo;
  if (flags.steps > 0) result.insert(QStringLiteral("noise_multiplier"), sigma);
  result.insert(QStringLiteral("mechanism"), flags.steps == 0    ? QStringLiteral("pca")
                                             : flags.pca.enabled ? QStringLiteral("pca+dp-sgd")
                                                                 : QStringLiteral("dp-sgd"));
  // The PCA release first, once, unsampled (as the trainer's ledger does), then the steps.
  const auto compose = [&](privacy::Accountant& accountant, bool steps) {
    if (flags.pca.enabled) accountant.compose(privacy::dpPcaEvent(flags.pca.noiseMultiplier));
    if (steps && flags.steps > 0)
      accountant.compose(privacy::dpSgdStepEvent(flags.sampleRate, sigma), flags.steps);
  };
  if (flags.accountant == privacy::AccountantKind::Rdp) {
    privacy::RdpAccountantOptions options;
    options.conversion = conversion;
    privacy::RdpAccountant accountant(options);
    compose(accountant, true);
    const privacy::RdpEpsilon epsilon = accountant.epsilonAndOrder(flags.delta);
    result.insert(QStringLiteral("epsilon"), jsonNumber(epsilon.epsilon));
    result.insert(QStringLiteral("order"), jsonNumber(epsilon.order));
    result.insert(QStringLiteral("conversion"), conversion == privacy::RdpConversion::Improved
                                                    ? QStringLiteral("improved")
                                                    : QStringLiteral("classic"));
    if (flags.pca.enabled) {
      privacy::RdpAccountant alone(options);
      compose(alone, false);
      result.insert(QStringLiteral("pca"), pcaJson(flags.pca, alone.epsilon(flags.delta)));
    }
  } else {
    privacy::PldAccountant accountant;
    compose(accountant, true);
    result.insert(QStringLiteral("epsilon"), jsonNumber(accountant.epsilon(flags.delta)));
    result.insert(QStringLiteral("discretisation_interval"), accountant.usedInterval());
    if (flags.pca.enabled) {
      privacy::PldAccountant alone;
      compose(alone, false);
      result.insert(QStringLiteral("pca"), pcaJson(flags.pca, alone.epsilon(flags.delta)));
    }
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("epsilon",
                    "Privacy budget epsilon of a DP-SGD run, with or without DP-PCA (RDP or PLD).",
                    runEpsilon);

}  // namespace epsilon::cli

// `epsilonlab-cli epsilon`: the (ε, δ) of a DP-SGD run (Poisson-sampled Gaussian steps) from
// the RDP or the tight PLD accountant, as one JSON object.
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
  parser.setApplicationDescription(
      QStringLiteral("Privacy budget (epsilon, delta) of DP-SGD with Poisson sampling.\n"
                     "Example: epsilonlab-cli epsilon --sample-rate 0.01 --noise-multiplier 4 "
                     "--steps 10000 --delta 1e-5"));
  addPrivacyRunOptions(parser);
  parser.addOptions({
      {QStringLiteral("noise-multiplier"), QStringLiteral("Noise multiplier sigma > 0."),
       QStringLiteral("S")},
      {QStringLiteral("conversion"),
       QStringLiteral("RDP to (epsilon, delta): improved (default) or classic."),
       QStringLiteral("NAME"), QStringLiteral("improved")},
  });
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("epsilon")))
    return *exitCode;

  const PrivacyRunFlags flags = readPrivacyRunFlags(parser);
  const double sigma = readDouble(parser, QStringLiteral("noise-multiplier"));
  requirePositive(QStringLiteral("noise-multiplier"), sigma);
  const privacy::RdpConversion conversion = readConversion(parser);

  QJsonObject result = flags.echo;
  result.insert(QStringLiteral("noise_multiplier"), sigma);
  const privacy::DpEvent step = privacy::dpSgdStepEvent(flags.sampleRate, sigma);
  if (flags.accountant == privacy::AccountantKind::Rdp) {
    privacy::RdpAccountantOptions options;
    options.conversion = conversion;
    privacy::RdpAccountant accountant(options);
    accountant.compose(step, flags.steps);
    const privacy::RdpEpsilon epsilon = accountant.epsilonAndOrder(flags.delta);
    result.insert(QStringLiteral("epsilon"), jsonNumber(epsilon.epsilon));
    result.insert(QStringLiteral("order"), jsonNumber(epsilon.order));
    result.insert(QStringLiteral("conversion"), conversion == privacy::RdpConversion::Improved
                                                    ? QStringLiteral("improved")
                                                    : QStringLiteral("classic"));
  } else {
    privacy::PldAccountant accountant;
    accountant.compose(step, flags.steps);
    result.insert(QStringLiteral("epsilon"), jsonNumber(accountant.epsilon(flags.delta)));
    result.insert(QStringLiteral("discretisation_interval"), accountant.usedInterval());
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("epsilon", "Privacy budget epsilon of a DP-SGD run (RDP or PLD accountant).",
                    runEpsilon);

}  // namespace epsilon::cli

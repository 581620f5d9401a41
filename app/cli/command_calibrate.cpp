// `epsilonlab-cli calibrate`: the smallest noise multiplier whose ε stays within a target
// for a DP-SGD run, and the ε it achieves, as one JSON object.
#include <QCommandLineParser>
#include <QJsonObject>

#include "cli_options.h"
#include "core/privacy/calibration.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"
#include "privacy_flags.h"

namespace epsilon::cli {

namespace {

int runCalibrate(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Smallest noise multiplier reaching a target epsilon for DP-SGD.\n"
                     "Example: epsilonlab-cli calibrate --target-epsilon 3 --sample-rate 0.004267 "
                     "--steps 14063 --delta 1e-5"));
  addPrivacyRunOptions(parser);
  parser.addOptions({
      {QStringLiteral("target-epsilon"), QStringLiteral("Privacy budget epsilon > 0 to reach."),
       QStringLiteral("E")},
      {QStringLiteral("conversion"),
       QStringLiteral("RDP to (epsilon, delta): improved (default) or classic."),
       QStringLiteral("NAME"), QStringLiteral("improved")},
  });
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("calibrate")))
    return *exitCode;

  const PrivacyRunFlags flags = readPrivacyRunFlags(parser);
  const double target = readDouble(parser, QStringLiteral("target-epsilon"));
  requirePositive(QStringLiteral("target-epsilon"), target);
  const privacy::RdpConversion conversion = readConversion(parser);

  privacy::Calibration calibration;
  if (flags.accountant == privacy::AccountantKind::Pld) {
    calibration = privacy::calibrateDpSgd(privacy::AccountantKind::Pld, flags.sampleRate,
                                          flags.steps, flags.delta, target);
  } else {
    const auto epsilonOf = [&](double sigma) {
      privacy::RdpAccountantOptions options;
      options.conversion = conversion;
      privacy::RdpAccountant accountant(options);
      accountant.compose(privacy::dpSgdStepEvent(flags.sampleRate, sigma), flags.steps);
      return accountant.epsilon(flags.delta);
    };
    calibration = privacy::calibrateNoiseMultiplier(epsilonOf, target);
  }

  QJsonObject result = flags.echo;
  result.insert(QStringLiteral("target_epsilon"), target);
  result.insert(QStringLiteral("noise_multiplier"), calibration.noiseMultiplier);
  result.insert(QStringLiteral("epsilon"), jsonNumber(calibration.epsilon));
  if (flags.accountant == privacy::AccountantKind::Rdp) {
    result.insert(QStringLiteral("conversion"), conversion == privacy::RdpConversion::Improved
                                                    ? QStringLiteral("improved")
                                                    : QStringLiteral("classic"));
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("calibrate", "Smallest noise multiplier reaching a target epsilon for DP-SGD.",
                    runCalibrate);

}  // namespace epsilon::cli

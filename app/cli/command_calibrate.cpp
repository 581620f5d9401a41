// `epsilonlab-cli calibrate`: the smallest noise multiplier whose ε stays within a target
// for a DP-SGD run, and the ε it achieves, as one JSON object. A DP-PCA release (--pca-noise)
// is held fixed: only the steps' σ is calibrated, and the output says so.
#include <QCommandLineParser>
#include <QJsonObject>
#include <memory>

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
                     "--steps 14063 --delta 1e-5\n"
                     "With --pca-noise S the DP-PCA release is composed and held fixed: only the "
                     "steps' sigma is calibrated."));
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

  if (flags.steps < 1) throw UsageError("--steps: calibrate needs an integer >= 1, got 0");
  const auto accountantOf = [&]() -> std::unique_ptr<privacy::Accountant> {
    if (flags.accountant == privacy::AccountantKind::Pld)
      return std::make_unique<privacy::PldAccountant>();
    privacy::RdpAccountantOptions options;
    options.conversion = conversion;
    return std::make_unique<privacy::RdpAccountant>(options);
  };
  double pcaAlone = 0.0;
  if (flags.pca.enabled) {
    const auto alone = accountantOf();
    alone->compose(privacy::dpPcaEvent(flags.pca.noiseMultiplier));
    pcaAlone = alone->epsilon(flags.delta);
    if (!(pcaAlone < target)) {
      throw UsageError(
          QStringLiteral("--target-epsilon: %1 cannot be reached: the PCA release (--pca-noise %2) "
                         "alone costs epsilon %3 at this delta")
              .arg(target)
              .arg(flags.pca.noiseMultiplier)
              .arg(pcaAlone)
              .toStdString());
    }
  }
  privacy::Calibration calibration;
  if (flags.accountant == privacy::AccountantKind::Pld) {
    calibration = flags.pca.enabled
                      ? privacy::calibrateDpSgd(privacy::AccountantKind::Pld, flags.sampleRate,
                                                flags.steps, flags.delta, target,
                                                privacy::dpPcaEvent(flags.pca.noiseMultiplier))
                      : privacy::calibrateDpSgd(privacy::AccountantKind::Pld, flags.sampleRate,
                                                flags.steps, flags.delta, target);
  } else {
    const auto epsilonOf = [&](double sigma) {
      const auto accountant = accountantOf();
      if (flags.pca.enabled) accountant->compose(privacy::dpPcaEvent(flags.pca.noiseMultiplier));
      accountant->compose(privacy::dpSgdStepEvent(flags.sampleRate, sigma), flags.steps);
      return accountant->epsilon(flags.delta);
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
  if (flags.pca.enabled) {
    QJsonObject pca = pcaJson(flags.pca, pcaAlone);
    pca.insert(QStringLiteral("held_fixed"), true);  // only the steps' σ was calibrated
    result.insert(QStringLiteral("pca"), pca);
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("calibrate", "Smallest noise multiplier reaching a target epsilon for DP-SGD.",
                    runCalibrate);

}  // namespace epsilon::cli

// `epsilonlab-cli calibrate`: the smallest noise multiplier whose ε stays within a target, and
// the statement it achieves, as one JSON object — the one calibration the GUI and presets use
// (privacy_statement.h: calibrateNoise). For a DP-SGD run given by its sampling a DP-PCA
// release (--pca-noise) is held fixed; for an experiment file (--config) every mechanism of
// the config is honoured (tanh's √P, adaptive clipping's count noise, noise schedules, PCA).
#include <QCommandLineParser>
#include <QJsonObject>

#include "cli_options.h"
#include "experiment_json.h"
#include "privacy_flags.h"

namespace epsilon::cli {

namespace {

void addCalibrateOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral(
      "Smallest noise multiplier reaching a target epsilon for DP-SGD or an experiment file.\n"
      "Example: epsilonlab-cli calibrate --target-epsilon 3 --sample-rate 0.004267 "
      "--steps 14063 --delta 1e-5\n"
      "         epsilonlab-cli calibrate --target-epsilon 3 --config run.json\n"
      "With --pca-noise S the DP-PCA release is composed and held fixed: only the "
      "steps' sigma is calibrated."));
  addPrivacyRunOptions(parser);
  parser.addOptions({
      {QStringLiteral("target-epsilon"), QStringLiteral("Privacy budget epsilon > 0 to reach."),
       QStringLiteral("E")},
  });
}

// A PrivacyError of the calibration ("target ε … cannot be reached …") as a usage error; in
// the flag form the PCA release is named by its flag.
template <typename Calibrate>
privacy::Calibration calibrated(Calibrate calibrate, bool flagForm) {
  try {
    return calibrate();
  } catch (const PrivacyError& e) {
    QString message = QString::fromUtf8(e.what());
    if (flagForm) message.replace(QStringLiteral("model.pca_noise"), QStringLiteral("--pca-noise"));
    throw UsageError("--target-epsilon: " + message.toStdString());
  }
}

int runCalibrate(const QStringList& arguments) {
  QCommandLineParser parser;
  addCalibrateOptions(parser);
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("calibrate")))
    return *exitCode;

  const double target = readDouble(parser, QStringLiteral("target-epsilon"));
  requirePositive(QStringLiteral("target-epsilon"), target);
  if (auto planned = readPlannedRun(parser)) {
    const privacy::Calibration calibration = calibrated(
        [&] { return train::calibrateNoise(planned->config, planned->input, target); }, false);
    planned->config.privacy.noise.initial = calibration.noiseMultiplier;
    QJsonObject result = planned->echo;
    result.insert(QStringLiteral("target_epsilon"), target);
    result.insert(QStringLiteral("noise_multiplier"), calibration.noiseMultiplier);
    insertStatement(result, train::plannedPrivacy(planned->config, planned->input));
    printJsonLine(result);
    return kExitOk;
  }
  const PrivacyRunFlags flags = readPrivacyRunFlags(parser);
  if (flags.steps < 1) throw UsageError("--steps: calibrate needs an integer >= 1, got 0");
  const privacy::Calibration calibration = calibrated(
      [&] {
        return privacy::calibrateNoise([&](double sigma) { return describeFlags(flags, sigma); },
                                       target);
      },
      true);
  QJsonObject result = flags.echo;
  result.insert(QStringLiteral("target_epsilon"), target);
  result.insert(QStringLiteral("noise_multiplier"), calibration.noiseMultiplier);
  insertFlagStatement(result, flags, calibration.noiseMultiplier);
  if (flags.pca.enabled) {
    QJsonObject pca = result.value(QStringLiteral("pca")).toObject();
    pca.insert(QStringLiteral("held_fixed"), true);  // only the steps' σ was calibrated
    result.insert(QStringLiteral("pca"), pca);
  }
  printJsonLine(result);
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("calibrate",
                    "Smallest noise multiplier reaching a target epsilon (DP-SGD or an "
                    "experiment file).",
                    runCalibrate);

}  // namespace epsilon::cli

// Flags shared by the `epsilon` and `calibrate` commands: the sampling of a DP-SGD run,
// given either as --sample-rate/--steps or as --epochs/--dataset-size/--lot-size, plus
// --delta, --accountant and --conversion, and optionally a DP-PCA release before the steps
// (pca_flags.h) — or instead an experiment file (--config). Each bad value is a UsageError
// naming its flag. Both forms end in the one privacy statement (privacy_statement.h).
#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>
#include <cmath>
#include <limits>
#include <optional>

#include "base/io/json_reader.h"
#include "cli_options.h"
#include "core/common/errors.h"
#include "core/privacy/calibration.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/run_planning.h"
#include "experiment_json.h"
#include "pca_flags.h"
#include "train_flags.h"

namespace epsilon::cli {

struct PrivacyRunFlags {
  double sampleRate = 0.0;
  long long steps = 0;
  double delta = 0.0;
  privacy::AccountantKind accountant = privacy::AccountantKind::Rdp;
  privacy::RdpConversion conversion = privacy::RdpConversion::Improved;
  PcaRunFlags pca;   // steps may be 0 when pca.enabled: the PCA release alone
  QJsonObject echo;  // the run's parameters as they go into the JSON output
};

// The flags that are experiment fields (--steps, --epochs, --lot-size, --delta, --accountant)
// come from the experiment schema with their JSON key (train_flags.h).
inline void addPrivacyRunOptions(QCommandLineParser& parser) {
  parser.addOption({QStringLiteral("sample-rate"),
                    QStringLiteral("Poisson sampling rate q in (0, 1]."), QStringLiteral("Q")});
  parser.addOptions(fieldOptions(
      "training.steps",
      QStringLiteral(
          "Number of DP-SGD steps T >= 1 (0 with --pca-noise: the PCA release alone).")));
  parser.addOptions(fieldOptions("training.epochs",
                                 QStringLiteral("Epochs E (instead of --sample-rate/--steps).")));
  parser.addOption({QStringLiteral("dataset-size"),
                    QStringLiteral("Training set size N (with --epochs)."), QStringLiteral("N")});
  parser.addOptions(fieldOptions(
      "training.lot_size",
      QStringLiteral("Expected lot size L (with --epochs): q = L/N, T = round(E*floor(N/L)), "
                     "the steps the trainer runs.")));
  parser.addOptions(fieldOptions("privacy.delta", QStringLiteral("Target delta in (0, 1).")));
  parser.addOptions(
      fieldOptions("privacy.accountant", QStringLiteral("rdp (default) or pld (tight).")));
  parser.addOptions({
      {QStringLiteral("conversion"),
       QStringLiteral("RDP to (epsilon, delta): improved (default) or classic."),
       QStringLiteral("NAME"), QStringLiteral("improved")},
      {QStringLiteral("config"),
       QStringLiteral("Experiment file (format epsilonlab-experiment): its whole run is "
                      "accounted as the trainer will, instead of the flags above."),
       QStringLiteral("FILE")},
  });
  addPcaRunOptions(parser);
}

// --epochs/--dataset-size/--lot-size: q = L/N, T = round(E·⌊N/L⌋) (run_planning.h).
inline void readEpochForm(const QCommandLineParser& parser, PrivacyRunFlags& flags) {
  const double epochs = readDouble(parser, QStringLiteral("epochs"));
  requirePositive(QStringLiteral("epochs"), epochs);
  const long long datasetSize = readInteger(parser, QStringLiteral("dataset-size"));
  if (datasetSize < 1) {
    throw UsageError(QStringLiteral("--dataset-size: expected an integer >= 1, got %1")
                         .arg(datasetSize)
                         .toStdString());
  }
  const QString lotFlag = givenFlag(parser, "training.lot_size");
  const long long batchSize = readInteger(parser, lotFlag);
  if (batchSize < 1 || batchSize > datasetSize) {
    throw UsageError(QStringLiteral("--%1: expected an integer in [1, %2], got %3")
                         .arg(lotFlag)
                         .arg(datasetSize)
                         .arg(batchSize)
                         .toStdString());
  }
  // q = L/N and T = round(E·⌊N/L⌋), planned in core (run_planning.h); the flags above are
  // checked, so only a step count out of range can still fail here.
  try {
    const train::EpochSampling sampling = train::epochSampling(epochs, datasetSize, batchSize);
    flags.sampleRate = sampling.sampleRate;
    flags.steps = sampling.steps;
  } catch (const ConfigError& e) {
    throw UsageError(QStringLiteral("--epochs: %1").arg(QString::fromUtf8(e.what())).toStdString());
  }
  flags.echo.insert(QStringLiteral("epochs"), epochs);
  flags.echo.insert(QStringLiteral("dataset_size"), static_cast<qint64>(datasetSize));
  flags.echo.insert(QStringLiteral("lot_size"), static_cast<qint64>(batchSize));
}

// --sample-rate/--steps; 0 steps only with a PCA release (then --sample-rate is optional).
inline void readDirectForm(const QCommandLineParser& parser, PrivacyRunFlags& flags) {
  if (!parser.isSet(QStringLiteral("sample-rate")) && !parser.isSet(QStringLiteral("steps"))) {
    throw UsageError("--sample-rate is required (or --epochs, --dataset-size and --lot-size)");
  }
  flags.steps = readInteger(parser, QStringLiteral("steps"));
  const long long fewest = flags.pca.enabled ? 0 : 1;  // 0 steps: the PCA release alone
  if (flags.steps < fewest) {
    throw UsageError(QStringLiteral("--steps: expected an integer >= %1, got %2")
                         .arg(fewest)
                         .arg(flags.steps)
                         .toStdString());
  }
  if (flags.steps > 0 && !parser.isSet(QStringLiteral("sample-rate"))) {
    throw UsageError("--sample-rate is required (or --epochs, --dataset-size and --lot-size)");
  }
  if (parser.isSet(QStringLiteral("sample-rate"))) {
    flags.sampleRate = readDouble(parser, QStringLiteral("sample-rate"));
    requireRange(QStringLiteral("sample-rate"), flags.sampleRate, 0.0, 1.0, true, false);
  }
}

// --conversion improved|classic (RDP only).
inline privacy::RdpConversion readConversion(const QCommandLineParser& parser) {
  const QString conversion = parser.value(QStringLiteral("conversion"));
  if (conversion == QStringLiteral("improved")) return privacy::RdpConversion::Improved;
  if (conversion == QStringLiteral("classic")) return privacy::RdpConversion::Classic;
  throw UsageError(QStringLiteral("--conversion: expected 'improved' or 'classic', got '%1'")
                       .arg(ui::clipped(conversion))
                       .toStdString());
}

inline PrivacyRunFlags readPrivacyRunFlags(const QCommandLineParser& parser) {
  PrivacyRunFlags flags;
  flags.pca = readPcaRunFlags(parser);
  const bool direct =
      parser.isSet(QStringLiteral("sample-rate")) || parser.isSet(QStringLiteral("steps"));
  const bool epochForm = parser.isSet(QStringLiteral("epochs")) ||
                         parser.isSet(QStringLiteral("dataset-size")) ||
                         fieldFlagSet(parser, "training.lot_size");
  if (direct && epochForm) {
    throw UsageError(
        "--sample-rate/--steps and --epochs/--dataset-size/--lot-size cannot be mixed");
  }
  if (epochForm) {
    readEpochForm(parser, flags);
  } else {
    readDirectForm(parser, flags);
  }
  flags.delta = readDouble(parser, QStringLiteral("delta"));
  requireRange(QStringLiteral("delta"), flags.delta, 0.0, 1.0, true, true);
  const QString accountant = parser.isSet(QStringLiteral("accountant"))
                                 ? parser.value(QStringLiteral("accountant"))
                                 : QStringLiteral("rdp");
  if (accountant == QStringLiteral("rdp")) {
    flags.accountant = privacy::AccountantKind::Rdp;
  } else if (accountant == QStringLiteral("pld")) {
    flags.accountant = privacy::AccountantKind::Pld;
  } else {
    throw UsageError(QStringLiteral("--accountant: expected 'rdp' or 'pld', got '%1'")
                         .arg(ui::clipped(accountant))
                         .toStdString());
  }
  flags.conversion = readConversion(parser);
  if (flags.accountant == privacy::AccountantKind::Rdp)
    flags.echo.insert(QStringLiteral("conversion"), parser.value(QStringLiteral("conversion")));
  if (flags.steps > 0) flags.echo.insert(QStringLiteral("sample_rate"), flags.sampleRate);
  flags.echo.insert(QStringLiteral("steps"), static_cast<qint64>(flags.steps));
  flags.echo.insert(QStringLiteral("delta"), flags.delta);
  flags.echo.insert(QStringLiteral("accountant"),
                    QString::fromUtf8(privacy::accountantKindName(flags.accountant)));
  return flags;
}

// A JSON number, or null for ∞/NaN (JSON has no infinity).
inline QJsonValue jsonNumber(double value) {
  return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

// The flags' run at step noise multiplier σ: Poisson-sampled Gaussian steps (clipping), the
// PCA release first when given.
inline privacy::PrivacyRunDescription describeFlags(const PrivacyRunFlags& flags, double sigma) {
  privacy::PrivacyRunDescription run;
  run.sampleRate = flags.steps > 0 ? flags.sampleRate : 1.0;
  run.steps = flags.steps;
  run.noiseMultipliers = {sigma};
  run.delta = flags.delta;
  run.accountant = flags.accountant;
  run.conversion = flags.conversion;
  run.pca = flags.pca.enabled;
  run.pcaNoiseMultiplier = flags.pca.noiseMultiplier;
  run.pcaSampleFraction = flags.pca.sampleFraction;
  return run;
}

// The statement of the flags' run into `result`, and the PCA release's own ε under "pca".
inline void insertFlagStatement(QJsonObject& result, const PrivacyRunFlags& flags, double sigma) {
  const privacy::PrivacyStatement statement =
      privacy::privacyStatement(describeFlags(flags, sigma));
  insertStatement(result, statement);
  if (statement.pca)
    result.insert(QStringLiteral("pca"), pcaJson(flags.pca, statement.pca->epsilon));
}

// An experiment file's run as `epsilon --config` and `calibrate --config` plan it.
struct PlannedRunFlags {
  train::ExperimentConfig config;
  train::RunPlanInput input;  // N and P, as the trainer will have them
  QJsonObject echo;
};

// --config FILE, or nullopt when it is not given; the sampling flags cannot be mixed with it.
inline std::optional<PlannedRunFlags> readPlannedRun(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("config"))) return std::nullopt;
  for (const char* flag :
       {"sample-rate", "steps", "epochs", "dataset-size", "lot-size", "batch-size", "delta",
        "accountant", "conversion", "pca-noise", "noise-multiplier"})
    if (parser.isSet(QLatin1String(flag)))
      throw UsageError(std::string("--") + flag +
                       ": cannot be mixed with --config (the file gives the whole run)");
  PlannedRunFlags planned;
  const QString path = parser.value(QStringLiteral("config"));
  planned.config = readExperimentFile(path, train::ExperimentConfig{});
  planned.config.validate();
  planned.input = train::planInput(planned.config);
  const auto& c = planned.config;
  planned.echo = QJsonObject{
      {QStringLiteral("config"), path},
      {QStringLiteral("dataset"), QString::fromStdString(c.dataset.name)},
      {QStringLiteral("train_size"), static_cast<qint64>(planned.input.trainSize)},
      {QStringLiteral("parameter_count"), static_cast<qint64>(planned.input.parameterCount)},
      {QStringLiteral("sample_rate"), train::sampleRate(c, planned.input.trainSize)},
      {QStringLiteral("steps"), static_cast<qint64>(c.totalSteps(planned.input.trainSize))},
      {QStringLiteral("noise_multiplier"), c.privacy.noise.initial},
      {QStringLiteral("noise_schedule"),
       QString::fromStdString(privacy::noiseDecayName(c.privacy.noise.decay))},
      {QStringLiteral("privatizer"),
       QString::fromStdString(privacy::privatizerName(c.privacy.privatizer.kind))},
  };
  return planned;
}

}  // namespace epsilon::cli

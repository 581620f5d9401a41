// The DP-PCA flags of `epsilon` and `calibrate` (--pca-noise, --pca-sample, --pca-dims): the
// projection of Abadi et al. 2016 (§5) as one Gaussian release before the first DP-SGD step,
// composed with the steps; each bad value is a UsageError naming its flag.
#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "cli_options.h"
#include "core/privacy/dp_pca.h"
#include "train_flags.h"

namespace epsilon::cli {

struct PcaRunFlags {
  bool enabled = false;          // --pca-noise given: the run releases a DP-PCA projection
  double noiseMultiplier = 0.0;  // σ_pca (0: released without noise, ε = ∞)
  double sampleFraction = 0.1;   // f, for the label only: no amplification by it is claimed
  int dims = 60;                 // k, for the echo only: ε does not depend on it
};

// Named as the experiment schema names model.pca_* (train_flags.h), with the JSON key.
inline void addPcaRunOptions(QCommandLineParser& parser) {
  parser.addOptions(fieldOptions(
      "model.pca_noise",
      QStringLiteral("Add a DP-PCA projection (Abadi et al. 2016, sec. 5) released once before "
                     "the steps: its noise multiplier sigma_pca >= 0 (Gaussian, sensitivity 1). "
                     "With --steps 0 only the PCA release is accounted.")));
  parser.addOptions(fieldOptions(
      "model.pca_sample",
      QStringLiteral("Share of the data the PCA is formed from, in (0, 1] (default 0.1); shown "
                     "in the label only, no amplification by it is claimed.")));
  parser.addOptions(fieldOptions(
      "model.pca_dims",
      QStringLiteral(
          "Principal directions kept (default 60); echoed, epsilon does not depend on it.")));
}

// Reads the PCA flags; --pca-sample and --pca-dims without --pca-noise are an error (they
// would be silently ignored).
inline PcaRunFlags readPcaRunFlags(const QCommandLineParser& parser) {
  PcaRunFlags pca;
  pca.enabled = parser.isSet(QStringLiteral("pca-noise"));
  for (const char* flag : {"pca-sample", "pca-dims"}) {
    if (!pca.enabled && parser.isSet(QLatin1String(flag))) {
      throw UsageError(std::string("--") + flag +
                       ": only with --pca-noise (the PCA release's sigma)");
    }
  }
  if (!pca.enabled) return pca;
  pca.noiseMultiplier = readDouble(parser, QStringLiteral("pca-noise"));
  requireRange(QStringLiteral("pca-noise"), pca.noiseMultiplier, 0.0,
               std::numeric_limits<double>::infinity(), false, true);
  if (const auto f = readOptionalDouble(parser, QStringLiteral("pca-sample"))) {
    requireRange(QStringLiteral("pca-sample"), *f, 0.0, 1.0, true, false);
    pca.sampleFraction = *f;
  }
  if (const auto k = readOptionalInteger(parser, QStringLiteral("pca-dims"))) {
    if (*k < 1 || *k > 65536) {
      throw UsageError(QStringLiteral("--pca-dims: expected an integer in [1, 65536], got %1")
                           .arg(*k)
                           .toStdString());
    }
    pca.dims = static_cast<int>(*k);
  }
  return pca;
}

// The "pca" part of a privacy command's JSON: the settings, the label the app shows, and the
// ε of the PCA release alone (same δ, accountant and conversion; null when it is ∞).
inline QJsonObject pcaJson(const PcaRunFlags& pca, double epsilonAlone) {
  return QJsonObject{
      {QStringLiteral("noise_multiplier"), pca.noiseMultiplier},
      {QStringLiteral("sample_fraction"), pca.sampleFraction},
      {QStringLiteral("dims"), pca.dims},
      {QStringLiteral("label"),
       QString::fromStdString(privacy::dpPcaLabel(pca.noiseMultiplier, pca.sampleFraction))},
      {QStringLiteral("epsilon_alone"),
       std::isfinite(epsilonAlone) ? QJsonValue(epsilonAlone) : QJsonValue(QJsonValue::Null)},
  };
}

}  // namespace epsilon::cli

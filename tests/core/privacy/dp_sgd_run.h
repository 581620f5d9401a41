// Test fixture: plain DP-SGD (Poisson-sampled Gaussian steps after L2 clipping) as a
// privacy description, optionally after a DP-PCA release, and the one calibration on it.
#pragma once

#include <optional>

#include "core/privacy/privacy_statement.h"

namespace epsilon::privacy::test {

inline PrivacyRunDescription dpSgdRun(AccountantKind kind, double q, long long steps, double delta,
                                      double sigma, std::optional<double> pcaSigma = std::nullopt) {
  PrivacyRunDescription run;
  run.sampleRate = q;
  run.steps = steps;
  run.noiseMultipliers = {sigma};
  run.delta = delta;
  run.accountant = kind;
  run.pca = pcaSigma.has_value();
  run.pcaNoiseMultiplier = pcaSigma.value_or(0.0);
  return run;
}

inline Calibration calibrateDpSgd(AccountantKind kind, double q, long long steps, double delta,
                                  double target, std::optional<double> pcaSigma = std::nullopt,
                                  CalibrationOptions options = {}) {
  return calibrateNoise(
      [&](double sigma) { return dpSgdRun(kind, q, steps, delta, sigma, pcaSigma); }, target,
      options);
}

}  // namespace epsilon::privacy::test

// The other direction of calibration: at a fixed noise multiplier σ, the longest DP-SGD run
// (in steps) whose ε stays within a target budget — how the published ε = 3 anchors pick
// their number of epochs (Tramèr & Boneh 2021, §3 and App. C).
#pragma once

#include "core/privacy/calibration.h"

namespace epsilon::privacy {

struct StepCalibration {
  long long steps = 0;   // the largest count with ε ≤ target (0 when even one step exceeds it)
  double epsilon = 0.0;  // ε after `steps` steps (0 for 0 steps)
  int evaluations = 0;   // accountant evaluations the search made
};

// Largest T ≤ maxSteps with ε(T) ≤ targetEpsilon for T Poisson-sampled Gaussian steps at
// sample rate q and noise multiplier σ, by doubling then bisection (ε grows with T).
// Throws PrivacyError naming the argument for σ ≤ 0, q outside (0, 1], δ outside (0, 1),
// a target ≤ 0 or maxSteps < 1.
StepCalibration calibrateSteps(AccountantKind kind, double sampleRate, double noiseMultiplier,
                               double delta, double targetEpsilon,
                               long long maxSteps = 100'000'000);

}  // namespace epsilon::privacy

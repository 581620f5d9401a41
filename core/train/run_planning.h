// Planning a run without training it: the sample rate q = L/N of a config (the one place that
// computes it), the privacy description and report the run will get, the accountant-only
// ε-over-epochs curve (noise schedules honoured, sampling labelled as the trainer's report
// labels it), σ calibrated for a target ε, and the tanh filter's √P rule. ui/ and app/ only
// format what these return.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "core/privacy/calibration.h"
#include "core/privacy/privacy_report.h"
#include "core/train/experiment_config.h"

namespace epsilon::train {

// What a plan needs besides the config: the training-set size N and, for the tanh filter's
// honest sensitivity c·√P, the network's parameter count P.
struct RunPlanInput {
  long long trainSize = 0;
  long long parameterCount = 1;
};

// q = min(1, L/N) (Abadi et al. 2016, §3.1: each example joins a lot with probability L/N).
// Throws ConfigError "dataset: expected at least one training example, got N" when N < 1.
double sampleRate(const ExperimentConfig& config, long long trainSize);

// The sampling of a run given as epochs over a data set, as the accountant-only commands
// (`epsilon`, `calibrate`) take it: q = L/N (Abadi et al. 2016, §3.1) and T = ⌈E·N/L⌉, the
// steps after which each example has been sampled E times in expectation (E/q). The trainer
// instead runs round(E·⌊N/L⌋) steps (ExperimentConfig::totalSteps); the two agree when L
// divides N. Throws ConfigError naming training.epochs, dataset.size or training.lot_size
// when E ≤ 0, N < 1, L ∉ [1, N] or T ∉ [1, 10¹⁵).
struct EpochSampling {
  double sampleRate = 0.0;
  long long steps = 0;
};
EpochSampling epochSampling(double epochs, long long trainSize, long long lotSize);

// True when the run adds noise at all: a privatizer other than none and σ₀ > 0.
bool addsNoise(const ExperimentConfig& config);

// The tanh √P rule: the filter's output has L2 sensitivity c·√P (P coordinates, each in
// (−c, c); Amian's filter), so the noise multiplier relative to c must be √P times the
// effective one: σ = σ_eff·√P. P < 1 counts as 1.
double tanhNoiseMultiplier(double effectiveNoiseMultiplier, long long parameterCount);

// The run as the privacy report sees it (privacy_report.h): sampling, privatizer, q, T, the
// per-step gradient σ_t (adaptive clipping's σ_Δ, Andrew et al. 2021 Thm. 1; one value when
// the schedule is constant), P, σ_b, δ and the accountant. Throws ConfigError or PrivacyError
// naming the field.
privacy::PrivacyRunDescription privacyDescription(const ExperimentConfig& config,
                                                  const RunPlanInput& input);

// privacyReport(privacyDescription(...)): ε, δ, accountant, sampling label, guarantee status
// and, for tanh, the nominal ε — the statement the finished run will carry.
privacy::PrivacyReport plannedPrivacy(const ExperimentConfig& config, const RunPlanInput& input);

// The steps ending each epoch (and the last step when it is not one), thinned to at most
// `maxPoints` evenly spaced epoch ends when maxPoints > 0 (the last step always kept).
std::vector<long long> epochEndSteps(const ExperimentConfig& config, long long trainSize,
                                     std::size_t maxPoints = 0);

struct EpsilonCurvePoint {
  long long step = 0;
  double epoch = 0.0;
  double epsilon = 0.0;                  // honest ε after `step` steps
  std::optional<double> nominalEpsilon;  // tanh filter only: not a guarantee
  double noiseMultiplier = 0.0;          // σ_t of the last of these steps, as configured
};

struct EpsilonCurve {
  std::vector<EpsilonCurvePoint> points;
  // The report at the last point: its δ, accountant, sampling label and status label every
  // point shares (a curve is never shown without them).
  privacy::PrivacyReport report;
};

// ε after each of `steps` (sorted, each in [1, T]), from the accountant alone. A constant σ
// is composed once and read at every point (epsilonOverSteps); a schedule accounts
// σ_0 … σ_{s−1} afresh for each point s.
EpsilonCurve epsilonCurve(const ExperimentConfig& config, const RunPlanInput& input,
                          std::span<const long long> steps);

// The config's noise multiplier σ₀ that makes the planned run's honest ε at most
// `targetEpsilon` (bracketing then bisection on plannedPrivacy; calibration.h). So tanh runs
// get the √P rule and adaptive clipping its count noise for free. Throws ConfigError for a
// noise schedule (σ₀ alone does not fix ε) or a run without a privatizer, and PrivacyError
// when the target cannot be reached. pca-mlp's DP-PCA release is included and held fixed: only
// σ₀ moves, and a PCA release that alone spends the target is a PrivacyError naming it.
privacy::Calibration calibrateNoise(const ExperimentConfig& config, const RunPlanInput& input,
                                    double targetEpsilon);

}  // namespace epsilon::train

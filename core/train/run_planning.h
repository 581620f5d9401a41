// Planning a run without training it: the sample rate q = L/N of a config (the one place that
// computes it), the one step-count convention, the privacy description a config's run releases
// (the trainer starts its ledger from the same description), its statement, the accountant-only
// ε-over-epochs curve and run, σ calibrated for a target ε, and the tanh filter's √P rule.
// ui/ and app/ only format what these return.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "core/privacy/calibration.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

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
// (`epsilon`, `calibrate`) take it: q = L/N (Abadi et al. 2016, §3.1) and T = trainingSteps
// (experiment_config.h), the steps the trainer runs.
// Throws ConfigError naming training.epochs, dataset.size or training.lot_size when E ≤ 0,
// N < 1, L ∉ [1, N] or T ∉ [1, 10¹⁵).
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

// N and P of a config on a data set the registry describes (N after dataset.max_train; P by
// building the network once, as the trainer will), or on a loaded one. Throws ConfigError or
// ModelError naming the field when the network cannot be built for that data.
long long modelParameterCount(const ExperimentConfig& config, const data::SampleShape& shape,
                              int classCount);
RunPlanInput planInput(const ExperimentConfig& config, const data::DatasetInfo& info);
RunPlanInput planInput(const ExperimentConfig& config, const data::Dataset& dataset);
// The same for config.dataset by name: a real set from the registry's description (its split
// is fixed; nothing is loaded), a synthetic set or a folder by loading it. Throws DataError
// for an unknown name.
RunPlanInput planInput(const ExperimentConfig& config);

// The run as privacyStatement sees it (privacy_statement.h): sampling, privatizer, q, T, the
// per-step gradient σ_t (adaptive clipping's σ_Δ, Andrew et al. 2021 Thm. 1; one value when
// the schedule is constant), P, σ_b, δ, the accountant and the PCA release. The trainer's
// ledger starts from this description with no steps and appends the σ_t it used. Throws
// ConfigError or PrivacyError naming the field.
privacy::PrivacyRunDescription privacyDescription(const ExperimentConfig& config,
                                                  const RunPlanInput& input);

// privacyStatement(privacyDescription(...)): the statement the finished run will carry.
privacy::PrivacyStatement plannedPrivacy(const ExperimentConfig& config, const RunPlanInput& input);

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
  // The statement of the whole planned run: its δ, accountant and sampling every point
  // shares (a curve is never shown without them).
  privacy::PrivacyStatement statement;
};

// ε after each of `steps` (sorted, each in [1, T]), from the accountant alone: each point is
// privacyStatement of the run's first s steps, so it is the double the trainer reports there.
EpsilonCurve epsilonCurve(const ExperimentConfig& config, const RunPlanInput& input,
                          std::span<const long long> steps);

// The config's noise multiplier σ₀ that makes the planned run's honest ε at most
// `targetEpsilon` (privacy::calibrateNoise on privacyDescription): the tanh filter's √P rule,
// adaptive clipping's count noise, a noise schedule (σ_t scales with σ₀) and pca-mlp's DP-PCA
// release (held fixed: only σ₀ moves) are all honoured. Throws ConfigError for a run without a
// privatizer, and PrivacyError when the target cannot be reached (naming the PCA release when
// it alone spends the target). With `roundUpDecimals`, σ₀ is rounded up onto that many
// decimals, its ε still at most the target (privacy::CalibrationOptions::roundUpDecimals).
// With `cancel`, Cancelled is thrown once it is set (privacy::CalibrationOptions::cancel).
privacy::Calibration calibrateNoise(const ExperimentConfig& config, const RunPlanInput& input,
                                    double targetEpsilon,
                                    std::optional<int> roundUpDecimals = std::nullopt,
                                    const std::atomic<bool>* cancel = nullptr);

// A run that only accounts: ε after step 0 and at every epoch's end (noise schedules and every
// privatizer honoured, each point's statement as the trainer's would be), finished at once.
RunResult accountantOnlyRun(const ExperimentConfig& config, const RunPlanInput& input);

}  // namespace epsilon::train

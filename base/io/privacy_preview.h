// The privacy a configured run will spend, computed before any training: ε at the end with
// its δ, accountant and sampling assumption, its curve over epochs, the tanh filter's
// nominal figure, pca-mlp's DP-PCA release on its own line, and what it means for a
// membership attacker. Pure (no widgets), so the
// readout, the CLI and the tests share it.
#pragma once

#include <QString>
#include <atomic>
#include <optional>
#include <vector>

#include "core/privacy/privacy_statement.h"
#include "core/train/experiment_config.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

struct PrivacyPreviewInput {
  train::ExperimentConfig config;
  long long trainSize = 0;       // N
  long long parameterCount = 0;  // P, for the tanh filter's honest sensitivity c·√P
  // A run's config (a selected run) rather than the panel's: N and P are found from the
  // config itself (train::planInput, which may load the data set), so the preview is a job.
  bool sizesFromConfig = false;
};

struct PrivacyPreview {
  bool valid = false;
  QString error;  // why nothing could be computed (names the field)
  double epsilon = 0;
  double delta = 0;
  QString accountant;  // "RDP" or "PLD (tight)"
  QString sampling;    // "Poisson sampling" / "assumes Poisson sampling (…)"
  QString status;      // "DP guarantee", "no privacy", ...
  bool isGuarantee = false;
  std::optional<double> order;
  std::optional<double> nominalEpsilon;  // tanh filter: not a guarantee
  // pca-mlp: the DP-PCA release's own line ("PCA: σ 7 on 10% of the data (…)") and its ε alone
  // at the same δ and accountant; `epsilon` above already includes it.
  QString pcaLine;
  std::optional<double> pcaEpsilon;
  double sampleRate = 0;
  long long steps = 0;
  double effectiveNoiseMultiplier = 0;
  std::vector<std::pair<double, double>> curve;         // (epoch, ε)
  std::vector<std::pair<double, double>> nominalCurve;  // tanh only
  double tprAtOnePercent = 1;                           // attacker bound at FPR = 1%
  double maxAdvantage = 1;

  // "δ = 1e-5 · RDP · Poisson sampling"
  QString label() const;
  // "An attacker who wrongly accuses 1 in 100 non-members can detect a member at most 4.2% of the
  // time."
  QString attackerSentence() const;
};

// True when the preview is cheap enough to compute on the GUI thread while a slider moves
// (RDP with a constant noise multiplier); otherwise compute it on a worker.
bool previewIsInstant(const train::ExperimentConfig& config);

PrivacyPreview computePrivacyPreview(const PrivacyPreviewInput& input);

// Decimals of σ as the experiment panel's σ field shows and stores it: a calibrated σ is
// rounded UP onto them, so the run's ε never exceeds the target (1.72009 -> 1.721, not 1.72).
inline constexpr int kNoiseMultiplierDecimals = 3;

// What a calibration for "Fix ε" brings back: σ₀ for the target (the one calibration,
// run_planning.h: tanh's √P, adaptive clipping's count noise, a schedule through σ₀, the PCA
// release held fixed), or why the target cannot be met. Slow with PLD: run it off the GUI thread,
// with the job's `cancel` flag: once it is set the calibration stops within one ε evaluation
// (its result is then nobody's; it says "cancelled").
struct TargetCalibration {
  std::optional<double> sigma;
  QString error;
  std::optional<privacy::PcaStatement> pca;  // the PCA release it held fixed
};
TargetCalibration calibrateForTarget(const train::ExperimentConfig& config,
                                     const train::RunPlanInput& input, double targetEpsilon,
                                     const std::atomic<bool>* cancel = nullptr);

// A sweep with a target ε ("Fix ε" on, or a target_epsilon axis): every point's σ₀ calibrated
// for that point's own settings (train::calibrateSweep, the one calibration; N and P from each
// point's data set and network, σ rounded up onto kNoiseMultiplierDecimals so no run's ε
// exceeds its target), or why a point cannot be (then no points). Slow with PLD: a job.
struct SweepCalibration {
  std::vector<train::SweepPoint> points;
  QString error;
};
SweepCalibration calibrateSweepForTarget(std::vector<train::SweepPoint> points);

// "sampling rate q = L/N = 0.032 · 31 steps per epoch" for N training examples.
QString samplingLine(const train::ExperimentConfig& config, long long trainSize);

// The network's parameter count on a data set, as the trainer will build it, or why it cannot
// be built there (then the count is 0).
struct ModelSize {
  long long parameterCount = 0;
  QString problem;
};
ModelSize modelSize(const train::ExperimentConfig& config, const data::DatasetInfo& info);

}  // namespace epsilon::ui

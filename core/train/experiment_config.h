// ExperimentConfig: everything that defines one training run (data set, network, privatizer,
// noise and its schedule, optimizer, lot size, length, evaluation cadence, δ, accountant,
// sampling, seed) as a plain struct; validate() names the field of any impossible value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/dataset_info.h"
#include "core/optim/learning_rate.h"
#include "core/optim/optimizer.h"
#include "core/privacy/calibration.h"
#include "core/privacy/noise_schedule.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/privatizer.h"

namespace epsilon::train {

// Poisson: each example joins a lot independently with probability q = L/N (what the
// accountants assume). Shuffle: fixed-size batches of a fresh permutation each epoch; every
// ε is then marked "assumes Poisson sampling". One enum with the privacy report's.
using SamplingKind = privacy::SamplingKind;

struct DatasetConfig {
  std::string name = "mnist-10k";  // a registry name or a folder path
  data::DatasetOptions options;
};

struct ModelConfig {
  std::string preset = "mlp";          // see nn::presetNames()
  std::vector<int> hiddenWidths{256};  // "mlp" only
  // "pca-mlp" only: the DP-PCA input projection (Abadi et al. 2016, §5), computed once per run
  // before the first step; its release is accounted with the steps.
  int pcaDims = 60;                // k: principal directions kept
  double pcaNoise = 7.0;           // σ_pca: noise multiplier on AᵀA (sensitivity 1)
  double pcaSampleFraction = 0.1;  // f: share of the training set the covariance is formed from
  bool usesPca() const { return preset == "pca-mlp"; }
};

struct PrivacyConfig {
  privacy::PrivatizerOptions privatizer;  // kind, C, per-layer, c, k, γ, η, σ_b, policy
  privacy::NoiseSchedule noise;           // σ₀, schedule, ρ
  int microbatchSize = 1;                 // m: gradients averaged over m examples, then privatized
  double delta = 1e-5;
  privacy::AccountantKind accountant = privacy::AccountantKind::Rdp;
  SamplingKind sampling = SamplingKind::Poisson;
  // Draw the gradient noise (and adaptive clipping's count noise) from the OS CSPRNG
  // (getrandom(2)) instead of the seeded Philox stream, for real use: no one who learns the
  // seed can predict, and so subtract, the noise. The run is then NOT reproducible: the same
  // seed gives different noise, and the determinism guarantee of docs/ARCHITECTURE.md does not
  // hold. Sampling and initialisation stay seeded. Off by default, so teaching runs reproduce.
  bool secureNoise = false;
};

struct OptimizerConfig {
  optim::OptimizerOptions options;  // kind and its hyper-parameters
  double learningRate = 0.15;
  optim::LearningRateDecay lrDecay = optim::LearningRateDecay::Constant;
  double lrDecayRate = 0.5;
  double lrDecayEpochs = 1.0;  // the decay period, in epochs
};

struct TrainingConfig {
  int lotSize = 256;             // L: the expected lot (Poisson) or the batch (shuffle)
  double epochs = 1.0;           // the length when steps is 0
  long long steps = 0;           // > 0: the length in steps, overriding epochs
  bool evalEveryEpoch = true;    // evaluate at every epoch's end
  long long evalEverySteps = 0;  // > 0: also every k steps
  std::uint64_t seed = 1;        // sampling, initialisation, noise
  bool snapshots = false;        // attach a copy of the model to every evaluation event
  bool stepEvents = false;       // report every step's lot loss (EventKind::Step)
  // Report every step (EventKind::Step) with the lot's pre-clip gradient norms for the
  // gradient-norm view; off by default so normal runs compute nothing extra.
  bool gradientNorms = false;
  // > 0: spread the steps so the run lasts at least this many seconds of wall time (for
  // watching a small run train); never changes a result. At most kMaxPaceSeconds.
  double paceSeconds = 0.0;
};

inline constexpr double kMaxPaceSeconds = 10.0;

struct ExperimentConfig {
  DatasetConfig dataset;
  ModelConfig model;
  PrivacyConfig privacy;
  OptimizerConfig optimizer;
  TrainingConfig training;

  // Every check that needs no data; throws ConfigError "<section.field>: expected …, got …".
  void validate() const;
  // validate() plus the checks against the data set: lot ≤ training examples, m ≤ L, and
  // the memory the run needs (train::checkMemory, naming model.hidden, model.preset or
  // dataset.name).
  void validateFor(const data::Dataset& dataset) const;

  // max(1, ⌊N/L⌋): an epoch is N/L lots (Abadi et al. 2016, §3.1), rounded down.
  long long stepsPerEpoch(long long trainSize) const;
  long long totalSteps(long long trainSize) const;
  // Expected units (examples or micro-batches) per lot: L, or K = max(1, round(L/m)).
  double expectedUnitsPerLot() const;
  int microbatchSlots() const;
};

// The one step-count convention, what the trainer runs and every plan counts:
// ⌊N/L⌋ lots an epoch (at least 1; Abadi et al. 2016, §3.1), and T = max(1, round(E·⌊N/L⌋)).
long long lotsPerEpoch(long long trainSize, long long lotSize);
long long trainingSteps(double epochs, long long trainSize, long long lotSize);

// The same experiment trained without privacy (no clipping, no noise): the baseline a private
// run is compared with (a calibrated preset's "no privacy" point, "Compare to non-private").
ExperimentConfig withoutPrivacy(ExperimentConfig config);
bool isPrivate(const ExperimentConfig& config);  // a privatizer other than none

std::string samplingName(SamplingKind kind);  // "poisson", "shuffle"
SamplingKind parseSamplingKind(const std::string& text,
                               const std::string& field = "privacy.sampling");

}  // namespace epsilon::train

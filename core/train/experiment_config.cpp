#include "core/train/experiment_config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/nn/model.h"
#include "core/privacy/dp_pca.h"
#include "core/train/experiment_schema.h"
#include "core/train/memory_estimate.h"

namespace epsilon::train {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& expected,
                      const std::string& got) {
  throw ConfigError(field + ": expected " + expected + ", got " + got);
}

void validateModel(const ModelConfig& model) {
  const auto names = nn::presetNames();
  if (std::find(names.begin(), names.end(), model.preset) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    bad("model.preset", "one of " + list, "'" + clippedText(model.preset) + "'");
  }
  if (model.usesPca()) {
    // The input's feature count also bounds k; validateFor() checks that against the data.
    privacy::validateDpPcaOptions({model.pcaDims, model.pcaNoise, model.pcaSampleFraction, 1},
                                  model.pcaDims);
  }
}

void validatePrivacy(const PrivacyConfig& p, double expectedUnits) {
  p.privatizer.validate();
  if (p.privatizer.kind == privacy::PrivatizerKind::None) return;
  p.noise.validate();
  if (!(p.delta > 0.0 && p.delta < 1.0))
    bad("privacy.delta", "a value in (0, 1)", shortNumber(p.delta));
  if (p.privatizer.kind == privacy::PrivatizerKind::Adaptive && p.noise.initial > 0.0) {
    // Andrew et al. 2021, Thm. 1: the gradient keeps σ_Δ = (σ⁻² − (2σ_b)⁻²)^(−1/2) only if 2σ_b >
    // σ.
    const double countStddev = p.privatizer.countStddev(expectedUnits);
    if (!(2.0 * countStddev > p.noise.initial)) {
      bad(p.privatizer.fractionStddev ? "privacy.fraction_stddev" : "privacy.clip_count_stddev",
          "a count noise σ_b > σ/2 = " + shortNumber(p.noise.initial / 2) +
              " (Andrew et al. 2021, Thm. 1)",
          "σ_b = " + shortNumber(countStddev));
    }
  }
}

void validateOptimizer(const OptimizerConfig& o) {
  o.options.validate();
  if (!(o.learningRate > 0.0 && std::isfinite(o.learningRate))) {
    bad("optimizer.learning_rate", "a finite value > 0", shortNumber(o.learningRate));
  }
  if (o.lrDecay == optim::LearningRateDecay::Constant) return;
  if (!(o.lrDecayRate > 0.0 && o.lrDecayRate <= 1.0))
    bad("optimizer.lr_decay_rate", "a value in (0, 1]", shortNumber(o.lrDecayRate));
  if (!(o.lrDecayEpochs > 0.0 && std::isfinite(o.lrDecayEpochs))) {
    bad("optimizer.lr_decay_epochs", "a finite value > 0", shortNumber(o.lrDecayEpochs));
  }
}

// The ranges every value must keep (sizes, counts, seeds, widths, pace) are the schema's
// (experiment_schema.h, checkFieldRanges); what follows depends on other fields.
void validateTraining(const TrainingConfig& t) {
  if (t.steps == 0 && !(t.epochs > 0.0 && t.epochs <= 1e6))
    bad("training.epochs", "a value in (0, 1e6]", shortNumber(t.epochs));
}

}  // namespace

void ExperimentConfig::validate() const {
  if (dataset.name.empty()) bad("dataset.name", "a data set name or folder", "nothing");
  checkFieldRanges(*this);
  validateModel(model);
  validateTraining(training);
  validatePrivacy(privacy, expectedUnitsPerLot());
  validateOptimizer(optimizer);
  if (privacy.privatizer.kind != privacy::PrivatizerKind::None &&
      privacy.microbatchSize > training.lotSize) {
    bad("privacy.microbatch_size", "at most the lot size " + std::to_string(training.lotSize),
        std::to_string(privacy.microbatchSize));
  }
}

void ExperimentConfig::validateFor(const data::Dataset& data) const {
  validate();
  const long long n = data.train.size();
  if (n < 1)
    bad("dataset.name", "a data set with training examples",
        "'" + clippedText(data.name) + "' with none");
  if (data.test.size() < 1)
    bad("dataset.name", "a data set with test examples",
        "'" + clippedText(data.name) + "' with none");
  if (model.usesPca()) {
    privacy::validateDpPcaOptions({model.pcaDims, model.pcaNoise, model.pcaSampleFraction, 1},
                                  data.shape.featureCount());
  }
  if (training.lotSize > n) {
    bad("training.lot_size",
        "at most the " + std::to_string(n) + " training examples of '" + clippedText(data.name) +
            "'",
        std::to_string(training.lotSize));
  }
  // The memory the run needs, before its network is allocated (memory_estimate.h). A network
  // that cannot take this input is reported where it is built, with the preset's context.
  MemoryEstimate estimate;
  try {
    estimate = estimateMemory(*this, data.shape, data.classCount(), n + data.test.size(),
                              presetOptions(*this));
  } catch (const ModelError&) {
    return;
  }
  checkMemory(*this, estimate);
}

long long lotsPerEpoch(long long trainSize, long long lotSize) {
  return std::max<long long>(1, trainSize / std::max<long long>(1, lotSize));
}

long long trainingSteps(double epochs, long long trainSize, long long lotSize) {
  return std::max<long long>(
      1, std::llround(epochs * static_cast<double>(lotsPerEpoch(trainSize, lotSize))));
}

bool isPrivate(const ExperimentConfig& config) {
  return config.privacy.privatizer.kind != privacy::PrivatizerKind::None;
}

ExperimentConfig withoutPrivacy(ExperimentConfig config) {
  config.privacy.privatizer.kind = privacy::PrivatizerKind::None;
  return config;
}

long long ExperimentConfig::stepsPerEpoch(long long trainSize) const {
  return lotsPerEpoch(trainSize, training.lotSize);
}

long long ExperimentConfig::totalSteps(long long trainSize) const {
  if (training.steps > 0) return training.steps;
  return trainingSteps(training.epochs, trainSize, training.lotSize);
}

int ExperimentConfig::microbatchSlots() const {
  if (privacy.microbatchSize <= 1) return training.lotSize;
  return std::max(1, static_cast<int>(std::lround(static_cast<double>(training.lotSize) /
                                                  privacy.microbatchSize)));
}

double ExperimentConfig::expectedUnitsPerLot() const {
  return static_cast<double>(microbatchSlots());
}

std::string samplingName(SamplingKind kind) {
  return kind == SamplingKind::Poisson ? "poisson" : "shuffle";
}

SamplingKind parseSamplingKind(const std::string& text, const std::string& field) {
  if (text == "poisson") return SamplingKind::Poisson;
  if (text == "shuffle") return SamplingKind::Shuffle;
  throw ConfigError(field + ": expected one of poisson, shuffle, got '" + text + "'");
}

}  // namespace epsilon::train

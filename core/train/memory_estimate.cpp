#include "core/train/memory_estimate.h"

#include <algorithm>

#include "core/common/errors.h"

namespace epsilon::train {

namespace {

// Copies of the parameter vector a step holds: the weights, the summed gradient, the noise
// drawn for it, and up to two optimizer moments (Adam's m and v).
constexpr double kParameterCopies = 5.0;
// The per-example gradient rows held at once (core/train/private_gradient.cpp materialises at
// least 16 rows of P; the fast path holds as many squared-norm rows and activations).
constexpr long long kPerExampleRows = 16;

std::string grouped(long long value) {
  std::string digits = std::to_string(value), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

nn::PresetOptions presetOptions(const ExperimentConfig& config) {
  nn::PresetOptions options;
  options.hiddenWidths = config.model.hiddenWidths;
  if (config.model.usesPca()) options.projectionDims = config.model.pcaDims;
  return options;
}

MemoryEstimate estimateMemory(const ExperimentConfig& config, const data::SampleShape& shape,
                              int classes, long long examples, const nn::PresetOptions& options) {
  MemoryEstimate estimate;
  estimate.parameters =
      nn::presetParameterCount(config.model.preset, shape, std::max(2, classes), options);
  const double p = static_cast<double>(estimate.parameters);
  estimate.modelBytes = kParameterCopies * p * sizeof(float);
  const long long rows = std::clamp<long long>(config.training.lotSize, 1, kPerExampleRows);
  estimate.gradientBytes = static_cast<double>(rows) * p * sizeof(float);
  estimate.dataBytes = static_cast<double>(std::max(0LL, examples)) *
                       static_cast<double>(shape.featureCount()) * sizeof(float);
  return estimate;
}

void checkMemory(const ExperimentConfig& config, const MemoryEstimate& estimate,
                 double limitBytes) {
  if (!(estimate.total() > limitBytes)) return;
  const double network = estimate.modelBytes + estimate.gradientBytes;
  std::string field, what;
  if (network >= estimate.dataBytes) {
    field = config.model.preset == "mlp" ? "model.hidden" : "model.preset";
    what = "the network would have " + grouped(estimate.parameters) + " parameters and needs";
  } else {
    field = "dataset.name";
    what = "the data set's features need " + memoryText(estimate.dataBytes) + " and the run";
  }
  throw ConfigError(field + ": " + what + " about " + memoryText(estimate.total()) +
                    " of memory (weights, gradients, optimizer state, per-example gradients " +
                    "and the data set), more than the " + memoryText(limitBytes) +
                    " of memory here; choose a smaller network or data set");
}

}  // namespace epsilon::train

// The memory a run needs, estimated before anything big is allocated: the network's parameters
// (counted by the one preset assembly, core/nn/model.h, without building it), the copies of
// them a step keeps, the per-example gradients of the lot, and the data set. A run whose
// estimate exceeds the machine's memory is refused with a message naming the field, where it
// would otherwise end in std::bad_alloc or the kernel's OOM killer. The trainer and every plan
// (train::planInput: the CLI's commands, the panel's preview) ask it.
#pragma once

#include <cstdint>
#include <string>

#include "core/common/memory.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/train/experiment_config.h"

namespace epsilon::train {

struct MemoryEstimate {
  long long parameters = 0;  // P, as the network will have them
  double modelBytes = 0;     // P floats × the copies a step keeps (weights, gradient sum,
                             // noise, up to two optimizer moments)
  double gradientBytes = 0;  // per-example gradients: min(L, 16) rows of P floats at a time
  double dataBytes = 0;      // the data set's features (floats)
  double total() const { return modelBytes + gradientBytes + dataBytes; }
};

// The estimate for `config` on `examples` examples (train and test) of `shape` with `classes`
// classes; `options` as the trainer builds the network. Throws ModelError as buildPreset.
MemoryEstimate estimateMemory(const ExperimentConfig& config, const data::SampleShape& shape,
                              int classes, long long examples, const nn::PresetOptions& options);

// Throws ConfigError when estimate.total() exceeds `limitBytes`: "model.hidden: the network
// would have 12,884,901,888 parameters and needs about 275 GB …, more than the 24 GB of
// memory here", naming model.hidden (an mlp) or model.preset, or dataset.name when the data
// set's share is the larger.
void checkMemory(const ExperimentConfig& config, const MemoryEstimate& estimate,
                 double limitBytes = availableMemoryBytes());

// The PresetOptions the trainer builds `config`'s network with (hidden widths, PCA dims).
nn::PresetOptions presetOptions(const ExperimentConfig& config);

}  // namespace epsilon::train

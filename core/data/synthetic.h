// Two-class 2-D point sets after TensorFlow Playground's (Smilkov, Carter et al. 2016,
// playground.tensorflow.org, src/dataset.ts): circle, xor, two gaussians, spiral.
// Deterministic for a seed (Philox, RandomPurpose::SyntheticData).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/dataset_info.h"

namespace epsilon::data {

enum class SyntheticKind { Circle, Xor, Gauss, Spiral };

std::optional<SyntheticKind> syntheticKindFromName(std::string_view name);
std::string_view syntheticName(SyntheticKind kind);
std::string_view syntheticDescription(SyntheticKind kind);
std::vector<SyntheticKind> allSyntheticKinds();

// Points are generated in the Playground's coordinates (a square of half-side 5) and then
// divided by 5, so features lie roughly in [-1, 1]. Class 1 is the Playground's "positive"
// (blue) class. Throws ConfigError naming the option for noise outside [0, 1], size
// outside [4, 1,000,000], or a trainFraction that leaves a split empty.
Dataset makeSyntheticDataset(SyntheticKind kind, const DatasetOptions& options);

// The train/test sizes makeSyntheticDataset gives (after validating the options).
std::pair<long, long> syntheticSplitSizes(const DatasetOptions& options);

}  // namespace epsilon::data

// Fixed feature maps of a data set (the scattering transform), computed once: kept in memory
// for the process and on disk under the user cache folder, keyed by the data set's content,
// so every later run on that data set starts at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "core/data/dataset.h"
#include "core/nn/scattering.h"

namespace epsilon::train {

struct FeatureCacheOptions {
  std::filesystem::path directory;  // empty: defaultFeatureCacheDirectory()
  bool useDisk = true;
  bool useMemory = true;
};

enum class FeatureSource { Memory, Disk, Computed };

// $XDG_CACHE_HOME/epsilonlab/features, else ~/.cache/epsilonlab/features (XDG Base
// Directory Specification); empty when neither variable is set.
std::filesystem::path defaultFeatureCacheDirectory();

// A 64-bit FNV-1a-style hash (Fowler–Noll–Vo, over 64-bit words) of the shape, the features' bits
// and the labels of both splits: equal for equal content, whatever the name or folder it was loaded
// from.
std::uint64_t datasetContentHash(const data::Dataset& dataset);

// The scattering features of `raw` (same labels, splits and class names; shape the
// transform's output). From the memory cache, else from a disk cache file whose header,
// size and checksum all match (read in pieces, reporting the rows read), else computed (in
// parallel, reporting progress) and stored. `progress` may throw to stop either.
// A corrupt or truncated cache file is ignored and overwritten. Disk failures never fail
// the call: the features are then only kept in memory.
std::shared_ptr<const data::Dataset> scatteringFeatures(const data::Dataset& raw,
                                                        nn::ScatteringOptions options = {},
                                                        const FeatureCacheOptions& cache = {},
                                                        const nn::ScatteringProgress& progress = {},
                                                        FeatureSource* source = nullptr);

// Forgets the features kept in memory (tests; a GUI "free memory" action).
void clearFeatureMemoryCache();

}  // namespace epsilon::train

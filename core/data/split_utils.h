// Fixed, deterministic train/test splits and train-fitted standardisation for the
// embedded tabular sets, and the "first n train examples" subset of DatasetOptions.
#pragma once

#include <cstdint>
#include <vector>

#include "core/data/csv_loader.h"
#include "core/data/dataset.h"

namespace epsilon::data {

struct SplitIndices {
  std::vector<long> train;  // ascending row indices
  std::vector<long> test;
};

// Stratified split: within each class, rows are shuffled (Fisher-Yates driven by a Philox
// stream keyed by `seed`, purpose DataSplit, sub-stream = class) and the first
// round(testFraction × class size) go to test. Indices come back in file order.
SplitIndices stratifiedSplit(const std::vector<int>& labels, int classCount, double testFraction,
                             std::uint64_t seed);

// The rows of `table` at `indices`, in that order.
Split selectRows(const LabelledTable& table, const std::vector<long>& indices);

// Keeps the first maxCount examples (no-op when maxCount <= 0 or >= size).
void keepFirst(Split& split, long maxCount);

// Keeps the first round(keep × n) of the n examples labelled `label` and every other example,
// in their order (DatasetOptions::minorityClass). keep in [0, 1].
void keepFractionOfClass(Split& split, int label, double keep);

// Per-feature mean and standard deviation (population, divide by n) fitted on `train`,
// applied to both splits: z = (x - mean) / std; a constant feature gets std 1.
void standardise(Split& train, Split& test);

}  // namespace epsilon::data

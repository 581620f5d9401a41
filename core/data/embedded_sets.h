// The data sets built into the binaries (resources/data/, see embedded_files.h): real MNIST
// digits, the UCI optical digits and the UCI breast-cancer set, with their fixed splits.
#pragma once

#include <cstdint>

#include "core/data/dataset.h"

namespace epsilon::data {

// The seed of the fixed stratified splits of uci-digits and breast-cancer. Changing it
// changes every published number on those sets: don't.
inline constexpr std::uint64_t kEmbeddedSplitSeed = 20240601;
inline constexpr double kEmbeddedTestFraction = 0.2;

// mnist-10k: 8,000 train / 2,000 test real MNIST digits, 1×28×28 in [0, 1].
// maxTrain > 0 keeps the first maxTrain train examples.
Dataset loadMnist10k(long maxTrain = 0);

// uci-digits: 1,797 8×8 digits as 1×8×8 images in [0, 1] (value / 16), split 80/20
// stratified per class with kEmbeddedSplitSeed (1,438 train / 359 test).
Dataset loadUciDigits(long maxTrain = 0);

// breast-cancer: 569 patients, 30 features, split 80/20 stratified with kEmbeddedSplitSeed
// (456 train / 113 test), standardised with mean and std fitted on the (kept) train rows.
Dataset loadBreastCancer(long maxTrain = 0);

// Provenance lines (README attribution).
extern const char* const kMnist10kProvenance;
extern const char* const kUciDigitsProvenance;
extern const char* const kBreastCancerProvenance;

}  // namespace epsilon::data

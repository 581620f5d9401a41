// What a user can ask of a data set (DatasetOptions) and what the registry says about one
// without loading it (DatasetInfo).
#pragma once

#include <cstdint>
#include <string>

#include "core/data/dataset.h"

namespace epsilon::data {

// Options for loadDataset. noise, size, trainFraction and seed shape the synthetic sets
// only; the real sets have fixed splits. maxTrain applies to every set.
struct DatasetOptions {
  double noise = 0.1;          // synthetic: 0 .. 1 (TensorFlow Playground's 0..50 % is 0 .. 0.5)
  int size = 1000;             // synthetic: points in train + test
  double trainFraction = 0.8;  // synthetic: share of the points in train
  std::uint64_t seed = 1;      // synthetic: Philox key
  long maxTrain = 0;           // 0 = all; else keep the first maxTrain train examples
  // An unbalanced training set (who pays for privacy, Bagdasaryan et al. 2019): of the class
  // minorityClass (-1 = none) only the first round(minorityKeep × count) training examples
  // are kept, after maxTrain; the test set is untouched.
  int minorityClass = -1;
  double minorityKeep = 1.0;
};

struct DatasetInfo {
  std::string name;         // what users type
  std::string description;  // one short line
  std::string provenance;   // source, licence, preparation
  std::string location;     // "embedded", "generated", or a folder path
  long trainSize = 0;
  long testSize = 0;
  SampleShape shape;
  int classCount = 0;
  bool synthetic = false;
};

}  // namespace epsilon::data

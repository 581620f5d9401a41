// The settings a data set opens with. For the 2-D teaching sets (circle, xor, gauss, spiral)
// they are chosen so a class sees the trade-off: without privacy every set is learnt (≥ 95%),
// at σ = 4 spiral and xor visibly lose accuracy, and a paced run lasts long enough to watch.
#pragma once

#include <string>

#include "core/data/dataset_info.h"
#include "core/train/experiment_config.h"

namespace epsilon::train {

// The settings `info`'s data set opens with, in the GUI and the CLI alike: the 2-D teaching
// sets' (defaultConfigFor); any other set a CNN for images of 16 px and more, a small MLP for
// 2-D points, a lot and a length that train in reasonable time, and δ = defaultDelta(N).
ExperimentConfig datasetDefaults(const data::DatasetInfo& info);

// The largest power of ten strictly below 1/N (δ ≪ 1/N, Dwork & Roth 2014, §2.3); 0.1 for N ≤ 1.
double defaultDelta(long long trainSize);

// The 2-D sets' defaults (network, data size and noise, lot, epochs, optimizer, σ = 1, C,
// pace); for any other data set the general ExperimentConfig defaults with its name.
ExperimentConfig defaultConfigFor(const std::string& datasetName);

// The pace 2-D sets open with: a run spread over this many seconds so the decision boundary,
// the curves and the gradient-norm view are seen moving.
inline constexpr double kTeachingPaceSeconds = 4.0;

}  // namespace epsilon::train

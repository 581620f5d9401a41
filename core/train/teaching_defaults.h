// The settings a data set opens with. For the 2-D teaching sets (circle, xor, gauss, spiral)
// they are chosen so a class sees the trade-off: without privacy every set is learnt (≥ 95%),
// at σ = 4 spiral and xor visibly lose accuracy, and a paced run lasts long enough to watch.
#pragma once

#include <string>

#include "core/train/experiment_config.h"

namespace epsilon::train {

// The 2-D sets' defaults (network, data size and noise, lot, epochs, optimizer, σ = 1, C,
// pace); for any other data set the general ExperimentConfig defaults with its name.
ExperimentConfig defaultConfigFor(const std::string& datasetName);

// The pace 2-D sets open with: a run spread over this many seconds so the decision boundary,
// the curves and the gradient-norm view are seen moving.
inline constexpr double kTeachingPaceSeconds = 4.0;

}  // namespace epsilon::train

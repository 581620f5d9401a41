// Run names for legends, the Runs table and exports: unique, and saying what differs between
// runs ("σ 0.5 · C 4", "mlp · 30 epochs"), with a counter for identical set-ups ("… #2").
#pragma once

#include <string>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::train {

// One name per config, in order. Names are built from the parameters whose values differ
// among `configs`, led by the network when it is not one of them ("mlp · σ 1 · C 4"); when
// nothing differs, from the network, the privacy set-up and the
// optimizer ("mlp · σ 1 · C 4 · sgd"). A name equal to one in `existing` or to an earlier one
// in the list gets the first free counter " #2", " #3", ...
std::vector<std::string> uniqueRunNames(const std::vector<ExperimentConfig>& configs,
                                        const std::vector<std::string>& existing = {});

// The name of a run on its own: network, privacy set-up and optimizer.
std::string baseRunName(const ExperimentConfig& config);

}  // namespace epsilon::train

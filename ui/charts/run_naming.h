// Names for runs about to join the Runs table: built by train::uniqueRunNames from what differs
// among all the runs' configs ("mlp · 100 epochs", "σ 0.5 · C 4"), and unique among the names
// already there (" #2", " #3", ...), so legends, the table and exports tell every run apart.
#pragma once

#include <QStringList>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::ui {

class RunModel;

QStringList namesForNewRuns(const RunModel& model,
                            const std::vector<train::ExperimentConfig>& configs);

}  // namespace epsilon::ui

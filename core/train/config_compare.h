// Comparing two ExperimentConfigs field by field: which fields differ (named as the experiment
// file names them, "privacy.clip_norm"), so a test or a tool can say what changed, not only that
// something did.
#pragma once

#include <string>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::train {

// Every field of the experiment schema (experiment_schema.h) whose value differs, in its order;
// names are the experiment file's keys
// ("dataset.max_train", "optimizer.beta2"), plus "training.step_events",
// "training.gradient_norms" and "training.pace_seconds", which the file does not hold.
// Numbers compare exactly (==): a value rounded on its way through a control differs.
std::vector<std::string> differingFields(const ExperimentConfig& a, const ExperimentConfig& b);

// differingFields() joined with ", " ("none" when equal): for a test's failure message.
std::string describeDifferences(const ExperimentConfig& a, const ExperimentConfig& b);

// The number of fields differingFields() looks at (a test checks it against the file's keys).
int comparedFieldCount();

bool operator==(const ExperimentConfig& a, const ExperimentConfig& b);

}  // namespace epsilon::train

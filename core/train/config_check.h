// The check before a run starts: every impossible or questionable combination of an
// ExperimentConfig and its data set's size, as issues the UI shows at the control concerned.
// Messages are plain words for a student; `field` names the control's setting, never the text.
#pragma once

#include <string>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::train {

// Impossible: the run cannot start (the Run button is disabled). Warning: it can run, but the
// result is not what a user would expect (no privacy, a weak guarantee, no sampling).
enum class IssueSeverity { Impossible, Warning };

struct ConfigIssue {
  IssueSeverity severity = IssueSeverity::Impossible;
  std::string
      field;  // the setting, as in experiment files: "training.lot_size", "privacy.delta", ...
  std::string message;  // one or two plain sentences, with the value found and what would work
};

// `trainSize` is the number of training examples (N) the run will use; ≤ 0 when unknown (the
// checks against N are then skipped). Impossible issues first, then warnings.
std::vector<ConfigIssue> checkConfig(const ExperimentConfig& config, long long trainSize);

bool hasImpossible(const std::vector<ConfigIssue>& issues);

}  // namespace epsilon::train

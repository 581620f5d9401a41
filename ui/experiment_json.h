// The experiment file format (ExperimentConfig <-> versioned JSON), shared with the CLI.
#pragma once

#include "app/cli/experiment_json.h"

namespace epsilon::ui {
using cli::experimentFromJson;
using cli::experimentToJson;
using cli::readExperimentFile;
}  // namespace epsilon::ui

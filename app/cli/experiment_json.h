// The CLI's names for the experiment and run file formats, which ui/ owns (docs/ARCHITECTURE.md:
// ui/ does the JSON; core has plain structs).
#pragma once

#include "base/io/experiment_json.h"
#include "base/io/session_file.h"

namespace epsilon::cli {
using ui::experimentFromJson;
using ui::experimentToJson;
using ui::historyToCsv;
using ui::insertStatement;
using ui::kExperimentFormat;
using ui::kExperimentVersion;
using ui::progressToJson;
using ui::readExperimentFile;
using ui::runToJson;
using ui::writeFileAtomically;
}  // namespace epsilon::cli

// The command line that trains an experiment again ("epsilonlab-cli train --lot-size 128 …"),
// made from the experiment schema's flags, and the text "Copy settings" puts on the clipboard
// (the experiment file beside that line), so a report can say exactly what a run was.
#pragma once

#include <QString>

#include "core/train/experiment_config.h"

namespace epsilon::ui {

// The text as one word of a POSIX shell: as it is when it is plain, else in single quotes.
QString shellQuoted(const QString& text);

// "epsilonlab-cli train --dataset mnist-10k --lot-size 128 …": one flag of the schema
// (experiment_schema.h; a Boolean as --word or --no-word) per field whose value differs from
// ExperimentConfig{}'s, each value as fieldText writes it (it reads back to the same value),
// quoted for a shell. `train --print-config` with it prints the same experiment.
QString trainCommandLine(const train::ExperimentConfig& config);

// The experiment file's JSON (experiment_json.h), then a blank line and trainCommandLine.
QString settingsClipboardText(const train::ExperimentConfig& config);

}  // namespace epsilon::ui

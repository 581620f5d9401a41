// The flags of `epsilonlab-cli train`: one per ExperimentConfig field, each applied over the
// config read from --config (flags override the file), each bad value a UsageError or
// ConfigError naming the flag.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <string>

#include "core/train/experiment_config.h"

namespace epsilon::cli {

// Adds every experiment flag to the parser.
void addExperimentFlags(QCommandLineParser& parser);
// Applies the flags that are set, in a fixed order, over `config`.
void applyExperimentFlags(const QCommandLineParser& parser, train::ExperimentConfig& config);
// The flag that sets a config field ("privacy.noise_multiplier" -> "--noise-multiplier"), or
// an empty string.
QString flagForField(const std::string& field);

}  // namespace epsilon::cli

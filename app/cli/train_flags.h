// The experiment flags of `train` and `audit`, made from the experiment schema
// (core/train/experiment_schema.h): one flag per field, --<word> (a Boolean also --no-<word>),
// plus each older spelling, which --help marks as old; each flag's help names its JSON key.
// Applied over the config read from --config (flags override the file); a bad value is a
// ConfigError naming the flag. A new field's flag comes with its row in the schema.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <string>

#include "core/common/errors.h"
#include "core/train/experiment_config.h"

namespace epsilon::cli {

// Adds every experiment flag to the parser.
void addExperimentFlags(QCommandLineParser& parser);
// Applies the flags that are set, in a fixed order, over `config`.
void applyExperimentFlags(const QCommandLineParser& parser, train::ExperimentConfig& config);
// The flag that sets a config field ("privacy.noise_multiplier" -> "--noise-multiplier"), or
// an empty string.
QString flagForField(const std::string& field);
// For commands that take only some fields (`epsilon`, `calibrate`): the option of one schema
// field, with `help` (the command's own words; the schema's when empty) and its JSON key, then
// one option per older spelling, marked old.
QList<QCommandLineOption> fieldOptions(const std::string& field, const QString& help = {});
// The spelling of the field's flag that is set ("batch-size" for an old command line), or its
// flag when none is.
QString givenFlag(const QCommandLineParser& parser, const std::string& field);
// Whether any spelling of the field's flag is set.
bool fieldFlagSet(const QCommandLineParser& parser, const std::string& field);

// Re-throws a ConfigError "<field>: …" with the flag that sets the field, so a user who typed
// the flag sees it: "privacy.noise_multiplier (--noise-multiplier): expected …".
[[noreturn]] void rethrowNamingFlag(const ConfigError& e);
// Every flag addExperimentFlags adds, old spellings included ("lot-size", "batch-size", ...).
QStringList experimentFlagNames();

}  // namespace epsilon::cli

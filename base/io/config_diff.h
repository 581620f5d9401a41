// Which experiment parameters differ between runs: the Runs table shows only those, so a
// sweep over σ reads "privacy.noise_multiplier=0.5" rather than thirty identical fields.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::ui {

// "dataset.name" -> "mnist-10k", nested objects flattened with dots, arrays as JSON text.
QMap<QString, QString> flattenConfig(const QJsonObject& config);
// The same keys with their JSON values as they are (numbers at full precision, for exports).
QMap<QString, QJsonValue> flattenConfigValues(const QJsonObject& config);

// The experiment schema's fields (core/train/experiment_schema.h) whose values are not the
// same in every experiment, by name ("privacy.noise_multiplier"), in the schema's order and
// compared exactly as train::differingFields compares; JSON that is not an experiment is
// left out of the comparison.
QStringList differingKeys(const std::vector<QJsonObject>& configs);
QStringList differingKeys(const std::vector<train::ExperimentConfig>& configs);

// "noise_multiplier=0.5, clip_norm=4" for the given fields (by their word, the flag and sweep
// name; numbers to 6 significant digits).
QString describeKeys(const QJsonObject& config, const QStringList& keys);
QString describeKeys(const train::ExperimentConfig& config, const QStringList& keys);

}  // namespace epsilon::ui

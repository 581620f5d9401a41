// Which experiment parameters differ between runs: the Runs table shows only those, so a
// sweep over σ reads "privacy.noise_multiplier=0.5" rather than thirty identical fields.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

namespace epsilon::ui {

// "dataset.name" -> "mnist-10k", nested objects flattened with dots, arrays as JSON text.
QMap<QString, QString> flattenConfig(const QJsonObject& config);
// The same keys with their JSON values as they are (numbers at full precision, for exports).
QMap<QString, QJsonValue> flattenConfigValues(const QJsonObject& config);

// Keys whose values are not the same in every config (a key missing somewhere differs).
QStringList differingKeys(const std::vector<QJsonObject>& configs);

// "noise_multiplier=0.5, clip_norm=4" for the given keys (short names: last path part).
QString describeKeys(const QJsonObject& config, const QStringList& keys);

}  // namespace epsilon::ui

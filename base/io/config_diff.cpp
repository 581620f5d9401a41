#include "base/io/config_diff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <optional>

#include "base/io/experiment_json.h"
#include "core/common/errors.h"
#include "core/train/experiment_schema.h"

namespace epsilon::ui {

namespace {
void flattenInto(const QJsonObject& object, const QString& prefix, QMap<QString, QJsonValue>& out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
    if (it.value().isObject()) {
      flattenInto(it.value().toObject(), key, out);
    } else {
      out.insert(key, it.value());
    }
  }
}

std::optional<train::ExperimentConfig> parsed(const QJsonObject& json) {
  try {
    return experimentFromJson(json);
  } catch (const ConfigError&) {
    return std::nullopt;
  }
}

// A value as the Runs table shows it: numbers to 6 significant digits.
QString shown(const train::ExperimentField& field, const train::FieldValue& value) {
  if (std::holds_alternative<double>(value))
    return QString::number(std::get<double>(value), 'g', 6);
  return QString::fromStdString(train::fieldText(field, value));
}
}  // namespace

QMap<QString, QJsonValue> flattenConfigValues(const QJsonObject& config) {
  QMap<QString, QJsonValue> out;
  flattenInto(config, QString(), out);
  return out;
}

QMap<QString, QString> flattenConfig(const QJsonObject& config) {
  QMap<QString, QString> out;
  const QMap<QString, QJsonValue> values = flattenConfigValues(config);
  for (auto it = values.cbegin(); it != values.cend(); ++it) {
    const QJsonValue& value = it.value();
    if (value.isArray()) {
      out.insert(it.key(),
                 QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)));
    } else if (value.isDouble()) {
      out.insert(it.key(), QString::number(value.toDouble(), 'g', 6));
    } else if (value.isBool()) {
      out.insert(it.key(), value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
    } else {
      out.insert(it.key(), value.toString());
    }
  }
  return out;
}

QStringList differingKeys(const std::vector<QJsonObject>& configs) {
  std::vector<train::ExperimentConfig> experiments;
  for (const QJsonObject& json : configs)
    if (const auto c = parsed(json)) experiments.push_back(*c);
  return differingKeys(experiments);
}

QStringList differingKeys(const std::vector<train::ExperimentConfig>& configs) {
  QStringList result;
  if (configs.size() < 2) return result;
  // The schema's fields that a file holds, compared as the schema compares them (exactly).
  for (const auto& field : train::experimentFields()) {
    if (!field.persisted) continue;
    const train::FieldValue first = field.get(configs.front());
    for (const auto& c : configs) {
      if (!(field.get(c) == first)) {
        result << QString::fromStdString(field.name);
        break;
      }
    }
  }
  return result;
}

namespace {
QString describeFieldsOf(const train::ExperimentConfig* c, const QStringList& keys) {
  QStringList parts;
  for (const QString& key : keys) {
    const train::ExperimentField* field = train::fieldNamed(key.toStdString());
    if (!field) continue;
    parts << QString::fromStdString(field->word) + QLatin1Char('=') +
                 (c ? shown(*field, field->get(*c)) : QStringLiteral("–"));
  }
  return parts.join(QStringLiteral(", "));
}
}  // namespace

QString describeKeys(const QJsonObject& config, const QStringList& keys) {
  const auto c = parsed(config);
  return describeFieldsOf(c ? &*c : nullptr, keys);
}

QString describeKeys(const train::ExperimentConfig& config, const QStringList& keys) {
  return describeFieldsOf(&config, keys);
}

}  // namespace epsilon::ui

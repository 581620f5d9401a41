#include "base/io/config_diff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

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
  if (configs.size() < 2) return {};
  std::vector<QMap<QString, QString>> flat;
  QSet<QString> keys;
  for (const auto& c : configs) {
    flat.push_back(flattenConfig(c));
    for (auto it = flat.back().cbegin(); it != flat.back().cend(); ++it) keys.insert(it.key());
  }
  QStringList result;
  for (const QString& key : keys) {
    const QString first = flat.front().value(key, QStringLiteral("\x01missing"));
    for (const auto& f : flat) {
      if (f.value(key, QStringLiteral("\x01missing")) != first) {
        result << key;
        break;
      }
    }
  }
  result.removeAll(QStringLiteral("name"));
  result.sort();
  return result;
}

QString describeKeys(const QJsonObject& config, const QStringList& keys) {
  const auto flat = flattenConfig(config);
  QStringList parts;
  for (const QString& key : keys) {
    const QString shortName = key.section(QLatin1Char('.'), -1);
    parts << shortName + QLatin1Char('=') + flat.value(key, QStringLiteral("–"));
  }
  return parts.join(QStringLiteral(", "));
}

}  // namespace epsilon::ui

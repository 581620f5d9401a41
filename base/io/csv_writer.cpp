#include "base/io/csv_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <stdexcept>

#include "base/io/config_diff.h"

namespace epsilon::ui {

QString csvText(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double v) {
  if (std::isnan(v)) return {};
  if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(v, 'g', 10);
}

QString csvJson(const QJsonValue& v) {
  if (v.isDouble()) return csvNumber(v.toDouble());
  if (v.isBool()) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
  if (v.isString()) return csvText(v.toString());
  if (v.isArray() || v.isObject())
    return csvText(
        QString::fromUtf8((v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                              .toJson(QJsonDocument::Compact)));
  return {};
}

QStringList settingColumns(const std::vector<QJsonObject>& configs) {
  QStringList columns{QStringLiteral("model.preset"), QStringLiteral("model.hidden"),
                      QStringLiteral("training.lot_size"), QStringLiteral("training.epochs"),
                      QStringLiteral("optimizer.learning_rate")};
  for (const QString& key : differingKeys(configs))
    if (!columns.contains(key)) columns << key;
  return columns;
}

QStringList settingCells(const QJsonObject& config, const QStringList& columns) {
  const QMap<QString, QJsonValue> values = flattenConfigValues(config);
  QStringList cells;
  for (const QString& column : columns) cells << csvJson(values.value(column));
  return cells;
}

CsvWriter::CsvWriter(const QStringList& header) : m_columns(header.size()) {
  QStringList cells;
  for (const QString& name : header) cells << csvText(name);
  m_bytes = cells.join(QLatin1Char(',')).toUtf8() + '\n';
}

void CsvWriter::addRow(const QStringList& cells) {
  // A row of the wrong width would shift every later column: a programming error.
  if (cells.size() != m_columns) throw std::logic_error("CsvWriter: a row of the wrong width");
  m_bytes += cells.join(QLatin1Char(',')).toUtf8() + '\n';
}

}  // namespace epsilon::ui

#include "base/io/csv_writer.h"

#include <cmath>
#include <stdexcept>

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
  return {};
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

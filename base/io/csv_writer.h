// The one CSV writer of EpsilonLab's exports (run histories, session histories, sweep
// summaries): a header and rows, cells quoted as RFC 4180 asks, numbers with 10 significant
// digits, NaN as an empty cell and infinities as "inf"/"-inf" (the JSON files' spelling).
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace epsilon::ui {

QString csvText(const QString& text);  // quoted when it holds a comma, quote or line break
QString csvNumber(double value);
QString csvJson(const QJsonValue& value);  // a JSON value as a cell (null: empty)

class CsvWriter {
 public:
  explicit CsvWriter(const QStringList& header);
  // Cells already formatted with csvText / csvNumber / csvJson.
  void addRow(const QStringList& cells);
  const QByteArray& bytes() const { return m_bytes; }

 private:
  qsizetype m_columns = 0;
  QByteArray m_bytes;
};

}  // namespace epsilon::ui

// The one CSV writer of EpsilonLab's exports (run histories, session histories, sweep
// summaries): a header and rows, cells quoted as RFC 4180 asks, numbers with 10 significant
// digits, NaN as an empty cell and infinities as "inf"/"-inf" (the JSON files' spelling); and
// the settings columns that let a report say what each run was.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <vector>

namespace epsilon::ui {

QString csvText(const QString& text);  // quoted when it holds a comma, quote or line break
QString csvNumber(double value);
QString csvJson(const QJsonValue& value);  // a JSON value as a cell (null: empty; arrays as JSON)

// The settings columns of an export of several runs, as flattened keys of their experiment
// JSON ("training.lot_size", config_diff.h): the model, lot size, epochs and learning rate a
// report always needs, then every other setting that differs between the runs.
QStringList settingColumns(const std::vector<QJsonObject>& configs);
// One run's cells for `columns` (its experiment JSON), empty where it has no such key.
QStringList settingCells(const QJsonObject& config, const QStringList& columns);

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

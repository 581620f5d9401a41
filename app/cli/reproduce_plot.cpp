#include "reproduce_plot.h"

#include <QApplication>
#include <QPainter>

#include <map>
#include <stdexcept>

#include "ui/chart_export.h"
#include "ui/headless_plot.h"
#include "ui/run_conversion.h"
#include "ui/run_model.h"

namespace epsilon::cli {

namespace {

// Legends have little room: swept parameters by their usual symbols ("σ=0.5, C=4").
QString chartLabel(const train::SweepPoint& point) {
  static const std::map<std::string, QString> symbols{
      {"noise_multiplier", QStringLiteral("σ")}, {"clip_norm", QStringLiteral("C")},   {"learning_rate", QStringLiteral("lr")},
      {"tanh_c", QStringLiteral("c")},           {"tanh_k", QStringLiteral("k")},      {"lot_size", QStringLiteral("L")},
      {"train_size", QStringLiteral("N")},       {"microbatch_size", QStringLiteral("m")}};
  QStringList parts;
  for (const auto& [parameter, value] : point.values) {
    if (parameter == "variant" || parameter == "target_epsilon") return QString::fromStdString(point.label);
    const auto it = symbols.find(parameter);
    parts << (it != symbols.end() ? it->second : QString::fromStdString(parameter)) + QLatin1Char('=') + QString::fromStdString(value);
  }
  return parts.isEmpty() ? QString::fromStdString(point.label) : parts.join(QStringLiteral(", "));
}

std::vector<ui::RunRecord> recordsOf(const std::vector<train::SweepPoint>& points,
                                     const std::vector<train::RunResult>& results) {
  std::vector<ui::RunRecord> records;
  for (std::size_t i = 0; i < points.size() && i < results.size(); ++i)
    records.push_back(ui::recordFromResult(results[i], chartLabel(points[i])));
  return records;
}

}  // namespace

void requirePlotting(const char* flag) {
  if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
    throw std::runtime_error(std::string(flag) + ": drawing charts needs a QApplication, which this program did not create");
}

QString plotRunGrid(const std::vector<train::SweepPoint>& points, const std::vector<train::RunResult>& results,
                    const QString& path, const QString& caption, QSize size, int dpi) {
  return ui::plotRunsToFile(recordsOf(points, results), path, size, dpi, caption);
}

QString plotOneChart(const std::vector<train::SweepPoint>& points, const std::vector<train::RunResult>& results,
                     ui::ChartKind kind, const QString& path, const QString& caption, QSize size, int dpi) {
  // As in ui::plotRunsToFile: the model gives each run its palette colour.
  ui::RunModel model;
  for (ui::RunRecord& r : recordsOf(points, results)) model.addRun(std::move(r));
  ui::RunCharts charts;
  charts.setCaption(caption);
  charts.update(model.runs());
  QChart* chart = charts.chart(kind);
  return ui::exportDrawing([chart](QPainter& painter, const QRectF& target) { ui::renderChart(chart, painter, target); },
                           path, size, dpi, QStringLiteral("EpsilonLab"));
}

}  // namespace epsilon::cli

#include "ui/charts/headless_plot.h"

#include <QPainter>

#include "base/io/json_reader.h"
#include "base/io/run_conversion.h"
#include "base/session/run_model.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/run_charts.h"
#include "ui/charts/sweep_map_chart.h"

namespace epsilon::ui {

namespace {

// A model gives runs without colours their palette colours, as in the GUI, all in one
// insertion as File › Open does (run by run, 10,000 runs compared every run with the others).
void drawRuns(RunCharts& charts, const std::vector<RunRecord>& runs, const QString& caption) {
  RunModel model;
  model.addRuns(runs);
  charts.setCaption(caption);
  charts.update(model.runs());
}

QString captionOf(const std::vector<RunRecord>& runs, bool privacy) {
  return privacy ? privacyCaption(runs) : QString();
}

}  // namespace

QString plotRunsToFile(const std::vector<RunRecord>& runs, const QString& path, QSize size, int dpi,
                       const QString& caption, bool privacy) {
  RunCharts charts;
  drawRuns(charts, runs, caption);
  return exportDrawing(
      [&charts](QPainter& painter, const QRectF& target) { charts.renderGrid(painter, target); },
      path, size, dpi, QStringLiteral("EpsilonLab"), captionOf(runs, privacy));
}

QString plotChartToFile(const std::vector<RunRecord>& runs, const QString& chartStem,
                        const QString& path, QSize size, int dpi, const QString& caption,
                        bool privacy) {
  if (chartStem == sweepMapFileStem()) return plotSweepMapToFile(runs, path, size, dpi, privacy);
  QStringList stems;
  for (ChartKind kind : kAllChartKinds) {
    stems << chartFileStem(kind);
    if (chartFileStem(kind) != chartStem) continue;
    RunCharts charts;
    drawRuns(charts, runs, caption);
    return exportDrawing(
        [&charts, kind](QPainter& painter, const QRectF& target) {
          charts.renderOne(kind, painter, target);
        },
        path, size, dpi, QStringLiteral("EpsilonLab"), captionOf(runs, privacy));
  }
  stems << sweepMapFileStem();
  return QStringLiteral("unknown chart '%1' (expected one of %2)")
      .arg(clipped(chartStem), stems.join(QStringLiteral(", ")));
}

QString plotSweepMapToFile(const std::vector<RunRecord>& runs, const QString& path, QSize size,
                           int dpi, bool privacy) {
  SweepMapChart chart;
  chart.setRuns(runs);
  return exportDrawing(
      [&chart](QPainter& painter, const QRectF& target) { chart.render(painter, target); }, path,
      size, dpi, sweepMapTitle(), captionOf(runs, privacy));
}

}  // namespace epsilon::ui

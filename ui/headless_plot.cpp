#include "ui/headless_plot.h"

#include <QPainter>

#include "ui/chart_export.h"
#include "ui/run_charts.h"
#include "ui/run_model.h"

namespace epsilon::ui {

QString plotRunsToFile(const std::vector<RunRecord>& runs, const QString& path, QSize size, int dpi,
                       const QString& caption) {
  // A model gives runs without colours their palette colours, as in the GUI.
  RunModel model;
  for (const RunRecord& r : runs) model.addRun(r);
  RunCharts charts;
  charts.setCaption(caption);
  charts.update(model.runs());
  return exportDrawing([&charts](QPainter& painter, const QRectF& target) { charts.renderGrid(painter, target); },
                       path, size, dpi, QStringLiteral("EpsilonLab"));
}

}  // namespace epsilon::ui

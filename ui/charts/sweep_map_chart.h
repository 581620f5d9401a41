// The sweep map drawn (issue 28, item 5): for a two-parameter sweep a heat map of final test
// accuracy over the swept values with iso-ε lines and the best run under each ε level marked;
// for a one-parameter sweep final accuracy and ε against the parameter. The map itself (grid,
// levels, best cells, contours) is base/io/sweep_map.h; this only paints it, into a widget or
// an export (chart_export.h), and says which run sits under a point.
#pragma once

#include <QFont>
#include <QMap>
#include <QRectF>
#include <QString>
#include <vector>

#include "base/io/run_record.h"
#include "base/io/sweep_map.h"

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace epsilon::ui {

// The value the export dialog and exportChartTo use for the sweep map (the four run charts are
// ChartKind 0–3, the grid −1); its file stem and the plot tool's --chart name is "sweep-map".
inline constexpr int kSweepMapChart = 4;
QString sweepMapTitle();
QString sweepMapFileStem();

class SweepMapChart {
 public:
  // The shown runs (hidden ones are left out) become the map.
  void setRuns(const std::vector<RunRecord>& runs);
  const SweepMap& map() const { return m_map; }
  const std::vector<double>& levels() const { return m_levels; }

  // Without a map (fewer than two shown runs), the title, caption and message at least as
  // large as charts whose tick labels are `points` (the run charts' size: presentation mode
  // and View › Chart text size); 0 (exports) and a map size them by the target alone.
  void setTextPointSize(double points) { m_textPoints = points; }
  void render(QPainter& painter, const QRectF& target) const;
  // The font of the message drawn instead of a map ("needs at least two shown runs").
  QFont messageFont(const QRectF& target) const;
  // The run drawn at `point` of a drawing into `target`; 0 where there is none.
  int runAt(const QRectF& target, const QPointF& point) const;
  // Where cell `cell` is drawn (its column for a one-parameter sweep).
  QRectF cellRect(const QRectF& target, int cell) const;
  // "run name: accuracy, ε (δ · accountant · sampling)": what hovering a run shows.
  QString describeRun(int runId) const;

 private:
  struct Layout {
    QRectF title, caption, plot, colourBar, notes;
    double scale = 1;
  };
  Layout layout(const QRectF& target) const;
  QPointF toPoint(const Layout& l, double x, double y) const;  // axis coordinates to pixels
  QRectF cellIn(const Layout& l, int cell) const;
  double yOf1D(const Layout& l, double value, double low, double high) const;
  void drawCells(QPainter& painter, const Layout& l, bool texts) const;
  void drawContours(QPainter& painter, const Layout& l) const;
  void drawBest(QPainter& painter, const Layout& l) const;
  void drawAxes(QPainter& painter, const Layout& l) const;
  void drawXAxis(QPainter& painter, const Layout& l) const;
  void drawColourBar(QPainter& painter, const Layout& l) const;
  void drawOneAxisSweep(QPainter& painter, const Layout& l) const;
  void drawNotes(QPainter& painter, const Layout& l) const;

  SweepMap m_map;
  std::vector<double> m_levels;
  QMap<int, QString> m_names;
  QMap<int, QString> m_labels;  // each run's δ · accountant · sampling
  double m_accuracyLow = 0, m_accuracyHigh = 1;
  double m_textPoints = 0;
};

}  // namespace epsilon::ui

// The chart grid of the main window: four chart views over RunCharts, redrawn from the
// RunModel at most ten times a second however fast progress arrives (CoalescedRefresh: none
// while the Charts tab is hidden; none in the same turn as the privacy readout's delivery),
// with a tooltip on the point under the mouse.
#pragma once

#include <QWidget>
#include <array>
#include <functional>

#include "ui/charts/run_charts.h"

class QLabel;
class QMenu;
QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace epsilon::ui {

class CoalescedRefresh;
class RunModel;

class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPanel(RunModel* model, QWidget* parent = nullptr);

  RunCharts* charts() const { return m_charts; }
  QChartView* view(ChartKind kind) const { return m_views[static_cast<int>(kind)]; }
  QLabel* legend() const { return m_legend; }
  // Redraws now (tests, exports); normally redraws are coalesced.
  void redrawNow();
  int redrawCount() const;
  // A redraw due while `busy` (the readout's calibration or preview is on its way) waits for
  // releaseRedraw() (that work delivered), at most 250 ms after it was asked.
  void deferRedrawWhile(std::function<bool()> busy);
  void releaseRedraw();
  void setPresentationMode(bool on);
  void setFontStep(int points);  // View › Chart text size: every chart and the legend
  // The View menu's "ε axes" choices (automatic, linear, logarithmic), owned by `parent`.
  QMenu* epsilonScaleMenu(QWidget* parent);
  // The View menu's "Loss axis" choices, the same three.
  QMenu* lossScaleMenu(QWidget* parent);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void scheduleRedraw();
  void redraw(bool live);  // the charts and the legend from the model (live: a chart a turn)
  void drawNextChart();
  // The legend's font: the mode's size, or smaller (down to 8 points) while the legend would
  // take more than a fifth of the panel's height. Five long run names at presentation size
  // took six lines of a 1024×720 window and left the charts too short for their axis labels.
  void fitLegend();
  QMenu* scaleMenu(const QString& title, const QString& automatic, RunCharts::AxisScale current,
                   const std::function<void(RunCharts::AxisScale)>& choose, QWidget* parent);
  void connectHover(QXYSeries* series, int runId, ChartKind kind);

  RunModel* m_model;
  RunCharts* m_charts;
  std::array<QChartView*, kChartKindCount> m_views{};
  CoalescedRefresh* m_redraw;
  QLabel* m_legend;
  int m_nextChart = kChartKindCount;  // the chart a redraw draws next (all four: none pending)
};

}  // namespace epsilon::ui

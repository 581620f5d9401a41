// The Sweep map tab: the shown runs drawn as a sweep map (ui/charts/sweep_map_chart.h), kept
// up to date as runs progress and finish; hovering a cell names its run and clicking it asks
// for that run to be selected in the Runs table.
#pragma once

#include <QWidget>

#include "ui/charts/sweep_map_chart.h"

namespace epsilon::ui {

class CoalescedRefresh;

class RunModel;

class SweepMapView : public QWidget {
  Q_OBJECT
 public:
  explicit SweepMapView(RunModel* model, QWidget* parent = nullptr);

  const SweepMapChart& chart() const { return m_chart; }
  // The texts in place of a map ("needs at least two shown runs") in this size at the least
  // (the run charts' tick labels: presentation mode and View › Chart text size), as the
  // Attack tab's chart takes it (SweepMapChart::setTextPointSize).
  void setChartPointSize(int points);
  // Redraws from the model now (tests, exports); normally redraws are coalesced.
  void redrawNow();

 Q_SIGNALS:
  void runClicked(int runId);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  void scheduleRedraw();
  void redraw();

  RunModel* m_model;
  CoalescedRefresh* m_redraw;  // none while hidden: redrawn as shown
  SweepMapChart m_chart;
};

}  // namespace epsilon::ui

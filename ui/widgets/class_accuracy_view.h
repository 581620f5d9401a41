// The Per class tab (who pays for privacy, issue 28 item 4): for the one selected run, its
// test accuracy per class over epochs, one line per class (base/io/class_accuracy.h), so a
// class that DP-SGD leaves behind shows as a line below the others. A run recorded before
// EpsilonLab kept per-class accuracy shows a sentence saying the view is empty for it.
#pragma once

#include <QWidget>

class QChartView;
class QLabel;

namespace epsilon::ui {

class CoalescedRefresh;

class RunModel;

class ClassAccuracyView : public QWidget {
  Q_OBJECT
 public:
  explicit ClassAccuracyView(RunModel* model, QWidget* parent = nullptr);

  // The run drawn (0: none); redrawn as its history grows.
  void setRun(int runId);
  int run() const { return m_runId; }
  // Redraws from the model now (tests, screenshots); normally redraws are coalesced.
  void redrawNow();
  QChartView* chartView() const { return m_chartView; }
  // The sentence shown instead of the chart; empty while the chart is shown.
  QString emptyText() const;

 private:
  void scheduleRedraw();
  void redraw();

  RunModel* m_model;
  QChartView* m_chartView;
  QLabel* m_empty;
  CoalescedRefresh* m_redraw;  // none while hidden: redrawn as shown
  int m_runId = 0;
};

}  // namespace epsilon::ui

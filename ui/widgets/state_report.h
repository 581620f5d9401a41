// `epsilonlab --state-file FILE`: the window's state written as JSON to FILE (atomically,
// twice a second), for scripted walkthroughs (scripts/walkthrough) that drive the app with
// xdotool and must check what it shows without reading pixels. Written keys:
//   window {x, y, width, height, fullScreen}, screen {width, height}, presentation, focusView,
//   chartTextStep, modified, setAside (runs a lesson set aside), dialog {title, text} or null
//   (the active modal box), noise {value, x, y, width, height, shown, panel} (the σ slider in
//   global pixels, whether it is whole in the Experiment panel's view, and that view's rectangle),
//   lesson {question, answer (empty while hidden), answerButton {x, y, width, height}}, runs [{id,
//   name, dataset, status, visible, evals, onCharts}] (onCharts: points the accuracy chart draws
//   for it; a Charts tab behind another draws when shown), tabs {current (the central tab in
//   front), charts {x, y, width, height} (the Charts tab's label)}.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

class QTimer;

namespace epsilon::ui {

class MainWindow;

class StateReport : public QObject {
  Q_OBJECT
 public:
  StateReport(MainWindow* window, QString file);
  QJsonObject state() const;
  void write() const;

 private:
  MainWindow* m_window;
  QString m_file;
  QTimer* m_timer;
};

}  // namespace epsilon::ui

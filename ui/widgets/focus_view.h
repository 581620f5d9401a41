// The Focus view of a main window: the central charts and the Lesson only, full screen, one
// key (F10) to enter and to leave. Entering hides every other dock and the status bar;
// leaving puts the docks, their sizes and the window's state back exactly as they were
// (QMainWindow::saveState / restoreState), whatever was moved in between.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;

namespace epsilon::ui {

class FocusView : public QObject {
  Q_OBJECT
 public:
  // `kept`: the object names of the docks that stay (when they are shown at the time).
  FocusView(QMainWindow* window, QStringList kept);

  QAction* action() const { return m_action; }  // checkable, F10; the View menu shows it
  bool isOn() const { return m_on; }
  void setOn(bool on);

 private:
  void enter();
  void leave();

  QMainWindow* m_window;
  QStringList m_kept;
  QAction* m_action;
  bool m_on = false;
  QByteArray m_dockState;
  Qt::WindowStates m_windowState;
  bool m_statusBarShown = true;
};

}  // namespace epsilon::ui

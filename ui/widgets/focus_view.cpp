#include "ui/widgets/focus_view.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>

namespace epsilon::ui {

FocusView::FocusView(QMainWindow* window, QStringList kept)
    : QObject(window), m_window(window), m_kept(std::move(kept)), m_action(new QAction(this)) {
  m_action->setText(tr("&Focus view"));
  m_action->setCheckable(true);
  // F11 is presentation mode's; F10 is free in the window (no menu or dock uses it).
  m_action->setShortcut(QKeySequence(Qt::Key_F10));
  m_action->setShortcutContext(Qt::WindowShortcut);
  m_action->setToolTip(
      tr("The charts and the lesson only, full screen (F10 again: back as it was)"));
  connect(m_action, &QAction::toggled, this, &FocusView::setOn);
  // On the window too, so the key works whichever widget has the focus.
  window->addAction(m_action);
}

void FocusView::setOn(bool on) {
  if (on == m_on) return;
  m_on = on;
  if (on)
    enter();
  else
    leave();
  if (m_action->isChecked() != on) m_action->setChecked(on);
}

void FocusView::enter() {
  m_dockState = m_window->saveState();
  m_windowState = m_window->windowState();
  m_statusBarShown = m_window->statusBar()->isVisible();
  for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
    if (!m_kept.contains(dock->objectName())) dock->hide();
  }
  m_window->statusBar()->hide();
  m_window->setWindowState(m_windowState | Qt::WindowFullScreen);
}

void FocusView::leave() {
  m_window->setWindowState(m_windowState);
  m_window->statusBar()->setVisible(m_statusBarShown);
  m_window->restoreState(m_dockState);
}

}  // namespace epsilon::ui

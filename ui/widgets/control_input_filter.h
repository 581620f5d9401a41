// Keeps the window's controls from taking input meant for something else: the mouse wheel
// over a combo box, spin box or slider that does not have the focus scrolls the panel around
// it instead of changing a value, and Del in a spin box with nothing to erase reaches the
// window's Delete action. One application-wide filter, installed once.
#pragma once

#include <QObject>

class QWidget;

namespace epsilon::ui {

class ControlInputFilter : public QObject {
  Q_OBJECT
 public:
  // Installs the filter on the application unless it is already there.
  static void installOnce();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  using QObject::QObject;
  bool redirectWheel(QWidget* target, QEvent* event);
};

// The combo box, spin box or slider `widget` is part of (itself or an ancestor inside the same
// window); null when there is none.
QWidget* valueControlOf(QWidget* widget);

}  // namespace epsilon::ui

#include "ui/widgets/control_input_filter.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScrollBar>

namespace epsilon::ui {

namespace {

bool isValueControl(const QWidget* w) {
  return qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
         qobject_cast<const QAbstractSlider*>(w);
}

// Del would erase nothing: no selection and the caret after the last character.
bool deleteWouldEraseNothing(const QAbstractSpinBox* spin) {
  const auto* edit = spin->findChild<QLineEdit*>();
  return edit && !edit->hasSelectedText() && edit->cursorPosition() == edit->text().size();
}

}  // namespace

QWidget* valueControlOf(QWidget* widget) {
  for (QWidget* w = widget; w; w = w->parentWidget()) {
    // A scroll bar belongs to its scroll area, which the wheel should move.
    if (isValueControl(w) && !qobject_cast<QScrollBar*>(w)) return w;
    if (w->isWindow()) break;
  }
  return nullptr;
}

void ControlInputFilter::installOnce() {
  if (qApp->findChild<ControlInputFilter*>(QString(), Qt::FindDirectChildrenOnly)) return;
  qApp->installEventFilter(new ControlInputFilter(qApp));
}

bool ControlInputFilter::eventFilter(QObject* watched, QEvent* event) {
  auto* widget = qobject_cast<QWidget*>(watched);
  if (!widget) return false;
  switch (event->type()) {
    case QEvent::Polish:
      // The wheel must not give these controls the focus (Qt::WheelFocus), or the first
      // wheel turn over one would make it take the next ones.
      if (isValueControl(widget) && widget->focusPolicy() == Qt::WheelFocus)
        widget->setFocusPolicy(Qt::StrongFocus);
      return false;
    case QEvent::Wheel:
      return redirectWheel(widget, event);
    case QEvent::ShortcutOverride: {
      const auto* key = static_cast<QKeyEvent*>(event);
      const auto* spin = qobject_cast<QAbstractSpinBox*>(widget);
      // Not accepted: the window's shortcut (delete the selected runs) gets the key.
      return spin && key->key() == Qt::Key_Delete && key->modifiers() == Qt::NoModifier &&
             deleteWouldEraseNothing(spin);
    }
    default:
      return false;
  }
}

bool ControlInputFilter::redirectWheel(QWidget* target, QEvent* event) {
  QWidget* control = valueControlOf(target);
  if (!control || control->hasFocus()) return false;
  for (QWidget* w = control->parentWidget(); w && !w->isWindow(); w = w->parentWidget()) {
    if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
      QScrollBar* bar = area->verticalScrollBar();
      if (bar && bar->isVisible()) QCoreApplication::sendEvent(bar, event);
      break;
    }
  }
  return true;  // the control's value stays as it is
}

}  // namespace epsilon::ui

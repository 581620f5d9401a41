// One font size for every chart (the four run charts, their legend and the Attack chart): the
// View menu's Larger (Ctrl++), Smaller (Ctrl+-) and Reset (Ctrl+0), in points over the mode's
// own size, remembered between sessions (QSettings "chartFontStep").
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace epsilon::ui {

class FontSizeControl : public QObject {
  Q_OBJECT
 public:
  static constexpr int kSmallest = -3;
  static constexpr int kLargest = 12;

  // `remember`: read the step from QSettings now and write it on every change.
  FontSizeControl(bool remember, QObject* parent = nullptr);

  int step() const { return m_step; }  // points added to each chart font
  void setStep(int step);              // clamped to [kSmallest, kLargest]
  // "Chart text size" with Larger, Smaller and Reset; owned by `parent`. The actions are also
  // added to `parent`'s window so their keys work while the menu bar is hidden.
  QMenu* menu(QWidget* parent);

 Q_SIGNALS:
  void stepChanged(int step);

 private:
  void updateActions();

  bool m_remember;
  int m_step = 0;
  QAction* m_larger = nullptr;
  QAction* m_smaller = nullptr;
  QAction* m_reset = nullptr;
};

}  // namespace epsilon::ui

// For the panel-size suites: whether any value in a panel is cut, i.e. a visible spin box laid
// out narrower than its text needs at the current font.
#pragma once

#include <QAbstractSpinBox>
#include <QString>
#include <QWidget>

// The first cut spin box under `root` as "text: width < needed" (empty when none is cut);
// `checked` counts the visible spin boxes looked at.
inline QString cutSpinBox(const QWidget* root, int& checked) {
  checked = 0;
  for (const QAbstractSpinBox* spin : root->findChildren<QAbstractSpinBox*>()) {
    if (!spin->isVisibleTo(root)) continue;
    ++checked;
    if (spin->width() < spin->minimumSizeHint().width())
      return QStringLiteral("%1: %2 < %3")
          .arg(spin->text())
          .arg(spin->width())
          .arg(spin->minimumSizeHint().width());
  }
  return {};
}

// The main window as the widget suites open it: no QSettings read or written, no question
// about the last session. One helper for new suites instead of a copy in each.
#pragma once

#include <QAction>
#include <QTest>

#include "ui/widgets/main_window.h"

namespace epsilon::test {

inline ui::MainWindow::Options quietWindowOptions() {
  ui::MainWindow::Options o;
  o.useSettings = false;
  o.offerLastSession = false;
  return o;
}

// Run › Pace › Real time: the window's small runs are not spread over seconds (lessons pace them
// so a class can watch; their results are the same). For suites that only wait for the result.
inline void trainInRealTime(ui::MainWindow& w) {
  auto* realTime = w.findChild<QAction*>(QStringLiteral("pace0"));
  QVERIFY(realTime);
  realTime->trigger();
}

}  // namespace epsilon::test

// The main window as the widget suites open it: no QSettings read or written, no question
// about the last session. One helper for new suites instead of a copy in each.
#pragma once

#include "ui/widgets/main_window.h"

namespace epsilon::test {

inline ui::MainWindow::Options quietWindowOptions() {
  ui::MainWindow::Options o;
  o.useSettings = false;
  o.offerLastSession = false;
  return o;
}

}  // namespace epsilon::test

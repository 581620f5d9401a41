// For suites that write QSettings (remembered dialog choices): a member of the suite makes
// them use Qt's test location, never the user's, empty at the start and at the end.
#pragma once

#include <QSettings>
#include <QStandardPaths>

namespace epsilon::test {

struct TestSettings {
  TestSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }
  ~TestSettings() { QSettings().clear(); }
  TestSettings(const TestSettings&) = delete;
  TestSettings& operator=(const TestSettings&) = delete;
};

}  // namespace epsilon::test

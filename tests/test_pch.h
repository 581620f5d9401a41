// The precompiled header shared by a folder's test suites in the asan build (EPSILON_TEST_PCH;
// tests/CMakeLists.txt): what most suites include, and what takes longest to parse.
// Every suite still includes what it uses; this file only saves the parsing.
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

// Only the suites that link the engine have Eigen on their include path.
#if __has_include(<Eigen/Core>)
#include <Eigen/Core>
#endif

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

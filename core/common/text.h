// Small text helpers for error messages, shared by every core area.
#pragma once

#include <cstdio>
#include <string>

namespace epsilon {

// A number as people write it ("-1", "0.5", "1e-05"), for messages that quote a value.
inline std::string shortNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace epsilon

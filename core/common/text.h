// Small text helpers for error messages, shared by every core area.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace epsilon {

// A number as people write it ("-1", "0.5", "1e-05"), for messages that quote a value.
inline std::string shortNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// A value quoted in an error message: at most 80 characters (code points; a UTF-8 sequence is
// never cut), then "… (N bytes)" when longer, so a hostile megabyte never comes back whole.
inline std::string clippedText(const std::string& text) {
  constexpr std::size_t kMaxCharacters = 80;
  std::size_t characters = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (++characters > kMaxCharacters)
      return text.substr(0, i) + "… (" + std::to_string(text.size()) + " bytes)";
  }
  return text;
}

}  // namespace epsilon

// What every EpsilonLab fuzz target shares: the input as a byte span, and the rule that a
// parser of outside input may only fail with a typed error (core/common/errors.h). Any other
// exception escapes the target, and libFuzzer reports it as a crash with the input saved.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "core/common/errors.h"

namespace epsilon::fuzz {

inline std::span<const std::byte> asBytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `parse`, accepting only the engine's typed errors as a clean rejection.
template <class Parse>
void expectCleanRejection(Parse&& parse) {
  try {
    parse();
  } catch (const epsilon::Error&) {
    // A malformed input, rejected with a message naming the file: what we want.
  }
}

// For a target with several parsers: the first input byte picks one (modulo their count),
// the rest of the input is the file it parses.
template <std::size_t N>
int parseWithFirstByte(
    const std::uint8_t* data, std::size_t size,
    const std::array<std::function<void(std::span<const std::byte>)>, N>& parsers) {
  if (size < 1) return 0;
  const auto body = asBytes(data + 1, size - 1);
  expectCleanRejection([&] { parsers[data[0] % N](body); });
  return 0;
}

}  // namespace epsilon::fuzz

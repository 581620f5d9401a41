// What the JSON fuzz targets share: the input parsed as the file readers parse it (one JSON
// object at the top), and the round-trip rule: whatever a reader accepts, the app may write
// back, and what it writes must read again to the same JSON (a saved file always reopens).
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "fuzz_support.h"

namespace epsilon::fuzz {

// The input as a JSON object, or nothing when it is not one (the file readers reject such a
// file before any schema is read: that path is Qt's parser, not ours).
inline std::optional<QJsonObject> jsonObjectOf(const std::uint8_t* data, std::size_t size) {
  QJsonParseError error{};
  const QJsonDocument document = QJsonDocument::fromJson(
      QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)), &error);
  if (error.error != QJsonParseError::NoError || !document.isObject()) return std::nullopt;
  return document.object();
}

// A finding when a written file does not read back to itself: both forms are printed.
inline void requireSameJson(const QJsonObject& first, const QJsonObject& second, const char* what) {
  if (first == second) return;
  std::fprintf(stderr, "%s: written, read and written again, the JSON changed:\n%s\n%s\n", what,
               QJsonDocument(first).toJson(QJsonDocument::Compact).constData(),
               QJsonDocument(second).toJson(QJsonDocument::Compact).constData());
  std::abort();
}

// Runs `read` (which may reject the input with a typed error); when it accepted the input,
// runs `roundTrip` on its result outside the catch, so any error there is a finding.
template <class Read, class RoundTrip>
int readThenRoundTrip(Read&& read, RoundTrip&& roundTrip) {
  std::optional<decltype(read())> value;
  expectCleanRejection([&] { value.emplace(read()); });
  if (value) roundTrip(*value);
  return 0;
}

}  // namespace epsilon::fuzz

// Text as the charts draw it (titles, axis titles, legend entries, run names): at most a few
// hundred characters, then "…", so a name or title from a file cannot make layout cost or
// memory grow with its length (a 100 KB title once took 10 GB and crashed the plot tool).
#pragma once

#include <QString>

namespace epsilon::ui {

inline constexpr qsizetype kMaxDrawnCharacters = 300;

inline QString drawnText(const QString& text) {
  if (text.size() <= kMaxDrawnCharacters) return text;
  qsizetype keep = kMaxDrawnCharacters;
  if (text.at(keep - 1).isHighSurrogate()) --keep;  // never split a surrogate pair
  return text.left(keep) + QChar(0x2026);
}

}  // namespace epsilon::ui

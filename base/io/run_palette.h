// The runs' colours: one palette for the charts, the Runs table, the Attack tab and the
// headless plots, as "#rrggbb" strings (Qt Core only, so the CLI and the GUI share it). Every
// colour keeps a contrast of at least 3:1 (WCAG 2.1, "non-text contrast") against the chart
// background, so no run fades away on a washed-out projector, and a new run takes a colour no
// shown run has.
#pragma once

#include <QString>
#include <QStringList>

namespace epsilon::ui {

// The charts' background (the Qt Charts light theme's white).
inline constexpr const char* kChartBackground = "#ffffff";
inline constexpr double kMinimumSeriesContrast = 3.0;

// The palette in the order runs take it.
const QStringList& runPalette();

// The colour for a new run: the first palette colour not in `inUse` (compared case-blind);
// when every one is taken, the one taken least often (the earlier on a tie).
QString nextRunColor(const QStringList& inUse);

// WCAG 2.1 contrast ratio (L₁ + 0.05) / (L₂ + 0.05) of two "#rrggbb" colours, from their
// relative luminance L = 0.2126 R + 0.7152 G + 0.0722 B of linearised sRGB; 1 .. 21. NaN for
// a string that is not "#rrggbb".
double contrastRatio(const QString& first, const QString& second);

}  // namespace epsilon::ui

// The runs' colours: one palette for the charts, the Runs table, the Attack tab and the
// headless plots, as "#rrggbb" strings (Qt Core only, so the CLI and the GUI share it). Every
// colour keeps a contrast of at least 3:1 (WCAG 2.1, "non-text contrast") against the chart
// background, so no run fades away on a washed-out projector, and a new run takes a colour no
// shown run has.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace epsilon::ui {

// The charts' background (the Qt Charts light theme's white).
inline constexpr const char* kChartBackground = "#ffffff";
inline constexpr double kMinimumSeriesContrast = 3.0;

// The palette in the order runs take it.
const QStringList& runPalette();

// The colour for a new run: the first palette colour not in `inUse` (compared case-blind);
// when every one is taken, the one taken least often (the earlier on a tie).
QString nextRunColor(const QStringList& inUse);

// nextRunColor for many new runs at once: the palette's uses are counted once, and each colour
// given or added counts from then on, so giving n colours costs n, not n² (opening 10,000 runs).
class RunColorPicker {
 public:
  explicit RunColorPicker(const QStringList& inUse = {});
  void add(const QString& color);  // a colour now in use
  QString take();                  // nextRunColor of the colours in use, then in use itself

 private:
  std::vector<int> m_uses;
};

// WCAG 2.1 contrast ratio (L₁ + 0.05) / (L₂ + 0.05) of two "#rrggbb" colours, from their
// relative luminance L = 0.2126 R + 0.7152 G + 0.0722 B of linearised sRGB; 1 .. 21. NaN for
// a string that is not "#rrggbb".
double contrastRatio(const QString& first, const QString& second);

}  // namespace epsilon::ui

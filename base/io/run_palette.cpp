#include "base/io/run_palette.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace epsilon::ui {

namespace {

// Okabe & Ito's colour-blind-safe hues where they are dark enough (blue, vermillion, bluish
// green), darker relatives for the pale ones (orange → olive, reddish purple → purple, sky
// blue → violet; the yellow is left out), then grey, pink, green and black. Contrast against
// white: 5.2, 3.9, 3.4, 5.3, 4.2, 4.5, 5.9, 4.0, 5.7, 21.
const QStringList kPalette = {QStringLiteral("#0072b2"), QStringLiteral("#d55e00"),
                              QStringLiteral("#009e73"), QStringLiteral("#aa4499"),
                              QStringLiteral("#808000"), QStringLiteral("#785ef0"),
                              QStringLiteral("#646464"), QStringLiteral("#e0457b"),
                              QStringLiteral("#117733"), QStringLiteral("#000000")};

// sRGB channel (0..255) to linear light (IEC 61966-2-1).
double linear(int channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// Relative luminance of "#rrggbb", or NaN.
double luminance(const QString& color) {
  if (color.size() != 7 || color.at(0) != QLatin1Char('#'))
    return std::numeric_limits<double>::quiet_NaN();
  bool ok = false;
  const uint rgb = QStringView(color).mid(1).toUInt(&ok, 16);
  if (!ok) return std::numeric_limits<double>::quiet_NaN();
  return 0.2126 * linear(static_cast<int>((rgb >> 16) & 0xff)) +
         0.7152 * linear(static_cast<int>((rgb >> 8) & 0xff)) +
         0.0722 * linear(static_cast<int>(rgb & 0xff));
}

}  // namespace

const QStringList& runPalette() {
  return kPalette;
}

RunColorPicker::RunColorPicker(const QStringList& inUse)
    : m_uses(static_cast<std::size_t>(kPalette.size()), 0) {
  for (const QString& color : inUse) add(color);
}

void RunColorPicker::add(const QString& color) {
  const qsizetype i = kPalette.indexOf(color.toLower());
  if (i >= 0) ++m_uses[static_cast<std::size_t>(i)];
}

QString RunColorPicker::take() {
  const auto least = std::min_element(m_uses.begin(), m_uses.end());
  ++*least;
  return kPalette.at(least - m_uses.begin());
}

QString nextRunColor(const QStringList& inUse) {
  return RunColorPicker(inUse).take();
}

double contrastRatio(const QString& first, const QString& second) {
  const double a = luminance(first);
  const double b = luminance(second);
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

}  // namespace epsilon::ui

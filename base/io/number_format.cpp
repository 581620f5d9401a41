#include "base/io/number_format.h"

#include <algorithm>
#include <cmath>

namespace epsilon::ui {

QString formatNumber(double value, int significant) {
  if (std::isnan(value)) return QStringLiteral("–");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
  return QString::number(value, 'g', significant);
}

QString formatEpsilon(double epsilon) {
  if (std::isfinite(epsilon) && epsilon >= 100) return QString::number(epsilon, 'f', 0);
  return formatNumber(epsilon, 3);
}

QString formatEpsilonAgainst(double epsilon, double target) {
  const QString plain = formatEpsilon(epsilon);
  if (!std::isfinite(epsilon) || !std::isfinite(target) || !(target > 0) || epsilon == target ||
      std::abs(epsilon - target) > 0.01 * target)
    return plain;
  // The fewest significant digits (at least 3) whose text is on the same side as ε itself.
  for (int digits = 3; digits <= 17; ++digits) {
    const QString text = QString::number(epsilon, 'g', digits);
    const double shown = text.toDouble();
    if (shown != target && (shown > target) == (epsilon > target)) return text;
  }
  return QString::number(epsilon, 'g', 17);
}

QString formatDelta(double delta) {
  if (!(delta > 0)) return formatNumber(delta);
  const double exponent = std::log10(delta);
  if (std::abs(exponent - std::round(exponent)) < 1e-9)
    return QStringLiteral("1e%1").arg(static_cast<int>(std::round(exponent)));
  return QString::number(delta, 'g', 3);
}

QString formatPercent(double fraction) {
  if (!std::isfinite(fraction)) return QStringLiteral("–");
  return QString::number(100.0 * fraction, 'f', 1) + QLatin1Char('%');
}

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  // A small run finishes in a few milliseconds, which one decimal of seconds shows as 0.0 s.
  if (seconds > 0 && seconds < 0.095)
    return QString::number(std::max(1.0, std::round(seconds * 1000))) + QStringLiteral(" ms");
  if (seconds < 60) return QString::number(seconds, 'f', 1) + QStringLiteral(" s");
  const int total = static_cast<int>(std::round(seconds));
  if (total < 3600)
    return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1 h %2 min")
      .arg(total / 3600)
      .arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

}  // namespace epsilon::ui

// Number formatting shared by labels, tables, tooltips and exports, so ε reads the same
// everywhere ("ε = 1.23", "∞" for a non-private run).
#pragma once

#include <QString>

namespace epsilon::ui {

QString formatEpsilon(double epsilon);   // 3 significant digits; "∞" when infinite; "–" NaN
QString formatDelta(double delta);       // "1e-5" style
QString formatPercent(double fraction);  // 0.9734 -> "97.3%"
QString formatDuration(double seconds);  // "43 ms", "4.2 s", "3 min 05 s"
QString formatNumber(double value, int significant = 3);

}  // namespace epsilon::ui

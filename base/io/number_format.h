// Number formatting shared by labels, tables, tooltips and exports, so ε reads the same
// everywhere ("ε = 1.23", "∞" for a non-private run).
#pragma once

#include <QString>

namespace epsilon::ui {

QString formatEpsilon(double epsilon);  // 3 significant digits; "∞" when infinite; "–" NaN
// ε beside a target ε ("Target ε", a budget): formatEpsilon, except that an ε within 1% of the
// target but not equal to it gets as many digits as it takes to read on its own side of the
// target: 2.000037 against 2 is "2.00004", never "2"; 1.99981 is "1.9998".
QString formatEpsilonAgainst(double epsilon, double target);
QString formatDelta(double delta);       // "1e-5" style
QString formatPercent(double fraction);  // 0.9734 -> "97.3%"
QString formatDuration(double seconds);  // "43 ms", "4.2 s", "3 min 05 s"
QString formatNumber(double value, int significant = 3);

}  // namespace epsilon::ui

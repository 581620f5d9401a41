#include "reproduce_trend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace epsilon::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double numberOf(const QString& text) {
  bool ok = false;
  const double v = text.toDouble(&ok);
  return ok ? v : kNaN;
}

QString format(const QString& metric, double v) {
  if (std::isnan(v)) return QStringLiteral("n/a");
  if (std::isinf(v)) return QStringLiteral("∞");
  if (metric == QLatin1String("accuracy_jitter"))
    return QString::number(100.0 * v, 'f', 2) + QStringLiteral(" pt");
  if (metric.contains(QLatin1String("accuracy")))
    return QString::number(100.0 * v, 'f', 1) + QLatin1Char('%');
  return QString::number(v, 'g', 4);
}

// The metric in words, for the report.
QString words(const QString& metric) {
  if (metric == QLatin1String("final_accuracy")) return QStringLiteral("final test accuracy");
  if (metric == QLatin1String("best_accuracy")) return QStringLiteral("best test accuracy");
  if (metric == QLatin1String("final_epsilon")) return QStringLiteral("final ε");
  if (metric == QLatin1String("nominal_epsilon")) return QStringLiteral("nominal ε");
  if (metric == QLatin1String("accuracy_jitter"))
    return QStringLiteral(
        "instability (mean |Δ accuracy| between evaluations, second half of training)");
  return metric;
}

double metricOf(const MeasuredRun& r, const QString& metric) {
  if (metric == QLatin1String("final_accuracy")) return r.hasAccuracy ? r.finalAccuracy : kNaN;
  if (metric == QLatin1String("best_accuracy")) return r.hasAccuracy ? r.bestAccuracy : kNaN;
  if (metric == QLatin1String("final_epsilon")) return r.finalEpsilon;
  if (metric == QLatin1String("nominal_epsilon")) return r.nominalEpsilon;
  if (metric == QLatin1String("accuracy_jitter")) return r.hasAccuracy ? r.accuracyJitter : kNaN;
  return kNaN;
}

// The run's position along `over`: the swept parameter's value, or the key.
QString xTextOf(const MeasuredRun& r, const QString& over) {
  for (const auto& [parameter, value] : r.values)
    if (QString::fromStdString(parameter) == over) return QString::fromStdString(value);
  return r.key;
}

double xOf(const MeasuredRun& r, const QString& over) {
  if (over == QLatin1String("final_epsilon"))
    return std::isfinite(r.finalEpsilon) ? r.finalEpsilon : kNaN;
  return numberOf(xTextOf(r, over));
}

struct Point {
  QString name;
  double x = kNaN;
  double y = kNaN;
};

QString listOf(const std::vector<Point>& points, const QString& metric) {
  QStringList parts;
  for (const Point& p : points) parts << p.name + QStringLiteral(" → ") + format(metric, p.y);
  return parts.join(QStringLiteral(", "));
}

// Monotone within the tolerance, and the ends apart by more than it.
bool monotone(const std::vector<double>& ys, double direction, double tolerance) {
  for (std::size_t i = 1; i < ys.size(); ++i)
    if (direction * (ys[i] - ys[i - 1]) < -tolerance) return false;
  return direction * (ys.back() - ys.front()) > tolerance;
}

// metric epsilon, over epoch: along each run, ε must be monotone in the trend's order.
TrendVerdict checkEpsilonOverEpochs(const ui::PresetTrend& t,
                                    const std::vector<const MeasuredRun*>& group) {
  TrendVerdict v{t.figure, t.statement, false, {}};
  const double direction = t.order == QLatin1String("decreasing") ? -1.0 : 1.0;
  QStringList parts;
  bool all = !group.empty();
  for (const MeasuredRun* r : group) {
    std::vector<double> finite;
    for (double e : r->epsilons)
      if (std::isfinite(e)) finite.push_back(e);
    const bool ok = finite.size() >= 2 && monotone(finite, direction, t.tolerance);
    all = all && ok;
    parts << QStringLiteral("%1: ε %2 → %3 over %4 evaluations%5")
                 .arg(r->label, format(t.metric, finite.empty() ? kNaN : finite.front()),
                      format(t.metric, finite.empty() ? kNaN : finite.back()))
                 .arg(finite.size())
                 .arg(ok ? QString() : QStringLiteral(" (not ") + t.order + QLatin1Char(')'));
  }
  v.same = all;
  v.detail = parts.join(QStringLiteral("; "));
  return v;
}

const Point* findPoint(const std::vector<Point>& points, const QString& key) {
  for (const Point& p : points)
    if (p.name == key) return &p;
  return nullptr;
}

// increasing, decreasing, highest_inside: the points with a numeric position, sorted by it.
TrendVerdict checkAlong(const ui::PresetTrend& t, const std::vector<Point>& points) {
  TrendVerdict v{t.figure, t.statement, false, {}};
  std::vector<Point> numeric;
  for (const Point& p : points)
    if (std::isfinite(p.x)) numeric.push_back(p);
  std::stable_sort(numeric.begin(), numeric.end(),
                   [](const Point& a, const Point& b) { return a.x < b.x; });
  if (t.over == QLatin1String("final_epsilon"))
    for (Point& p : numeric)
      p.name = QStringLiteral("ε %1").arg(format(QStringLiteral("epsilon"), p.x));
  if (numeric.size() < (t.order == QLatin1String("highest_inside") ? 3u : 2u)) {
    v.detail =
        QStringLiteral("too few measured points along %1 (%2)").arg(t.over).arg(numeric.size());
    return v;
  }
  std::vector<double> ys;
  for (const Point& p : numeric) ys.push_back(p.y);
  if (t.order == QLatin1String("highest_inside")) {
    const auto best = std::max_element(ys.begin(), ys.end()) - ys.begin();
    v.same = best > 0 && best + 1 < static_cast<long>(ys.size()) &&
             ys[best] > std::max(ys.front(), ys.back()) + t.tolerance;
    v.detail = QStringLiteral("%1 along %2: %3; highest at %4")
                   .arg(words(t.metric), t.over, listOf(numeric, t.metric), numeric[best].name);
  } else {
    v.same = monotone(ys, t.order == QLatin1String("increasing") ? 1.0 : -1.0, t.tolerance);
    v.detail = QStringLiteral("%1 along %2: %3 (%4 expected, tolerance %5)")
                   .arg(words(t.metric), t.over, listOf(numeric, t.metric), t.order,
                        format(t.metric, t.tolerance));
  }
  return v;
}

// highest_at, lowest_at: the run `at[0]` is the highest (lowest), within the tolerance.
TrendVerdict checkExtreme(const ui::PresetTrend& t, const std::vector<Point>& points) {
  TrendVerdict v{t.figure, t.statement, false, {}};
  double top = -std::numeric_limits<double>::infinity(),
         bottom = std::numeric_limits<double>::infinity();
  QString topName, bottomName;
  for (const Point& p : points) {
    if (p.y > top) top = p.y, topName = p.name;
    if (p.y < bottom) bottom = p.y, bottomName = p.name;
  }
  const Point* at = findPoint(points, t.at.front());
  if (!at) {
    v.detail = QStringLiteral("no measured run '%1'").arg(t.at.front());
    return v;
  }
  const bool highest = t.order == QLatin1String("highest_at");
  v.same = highest ? at->y >= top - t.tolerance : at->y <= bottom + t.tolerance;
  v.detail = QStringLiteral("%1: %2; %3 is %4 (tolerance %5)")
                 .arg(words(t.metric), listOf(points, t.metric), highest ? topName : bottomName,
                      highest ? QStringLiteral("highest") : QStringLiteral("lowest"),
                      format(t.metric, t.tolerance));
  return v;
}

// The lowest (or highest) metric of the runs `keys` (±∞ for none); empty, with `missing` set,
// when one of them was not measured.
std::optional<double> boundOf(const std::vector<Point>& points, const QStringList& keys,
                              bool lowest, QString& missing) {
  double bound =
      lowest ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  for (const QString& key : keys) {
    const Point* p = findPoint(points, key);
    if (!p) {
      missing = key;
      return std::nullopt;
    }
    bound = lowest ? std::min(bound, p->y) : std::max(bound, p->y);
  }
  return bound;
}

// higher: every run in `at` above every run in `than`, by more than the tolerance.
TrendVerdict checkHigher(const ui::PresetTrend& t, const std::vector<Point>& points) {
  QString missing;
  const std::optional<double> low = boundOf(points, t.at, true, missing);
  const std::optional<double> high = low ? boundOf(points, t.than, false, missing) : std::nullopt;
  if (!low || !high)
    return TrendVerdict{t.figure, t.statement, false,
                        QStringLiteral("no measured run '%1'").arg(missing)};
  TrendVerdict v{t.figure, t.statement, *low > *high + t.tolerance, {}};
  v.detail =
      QStringLiteral("%1: %2; {%3} above {%4} expected")
          .arg(words(t.metric), listOf(points, t.metric), t.at.join(", "), t.than.join(", "));
  return v;
}

// flat: the spread over the chosen keys (all when none are given) within the tolerance.
TrendVerdict checkFlat(const ui::PresetTrend& t, const std::vector<Point>& points) {
  TrendVerdict v{t.figure, t.statement, false, {}};
  std::vector<Point> chosen;
  for (const Point& p : points)
    if (t.at.isEmpty() || t.at.contains(p.name)) chosen.push_back(p);
  if (chosen.size() < 2) {
    v.detail = QStringLiteral("too few measured points to compare");
    return v;
  }
  double lo = chosen.front().y, hi = chosen.front().y;
  for (const Point& p : chosen) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
  v.same = hi - lo <= t.tolerance;
  v.detail = QStringLiteral("%1: %2; spread %3 (at most %4 expected)")
                 .arg(words(t.metric), listOf(chosen, t.metric), format(t.metric, hi - lo),
                      format(t.metric, t.tolerance));
  return v;
}

TrendVerdict checkGroup(const ui::PresetTrend& t, const std::vector<const MeasuredRun*>& group) {
  if (t.metric == QLatin1String("epsilon")) return checkEpsilonOverEpochs(t, group);
  std::vector<Point> points;
  for (const MeasuredRun* r : group) {
    const double y = metricOf(*r, t.metric);
    if (std::isnan(y)) continue;
    points.push_back({xTextOf(*r, t.over), xOf(*r, t.over), y});
  }
  if (t.order == QLatin1String("increasing") || t.order == QLatin1String("decreasing") ||
      t.order == QLatin1String("highest_inside"))
    return checkAlong(t, points);
  if (points.empty())
    return TrendVerdict{t.figure, t.statement, false,
                        QStringLiteral("no run measured %1").arg(t.metric)};
  if (t.order == QLatin1String("highest_at") || t.order == QLatin1String("lowest_at"))
    return checkExtreme(t, points);
  if (t.order == QLatin1String("higher")) return checkHigher(t, points);
  return checkFlat(t, points);
}

}  // namespace

MeasuredRun measureRun(const train::SweepPoint& point, const train::RunResult& result) {
  MeasuredRun m;
  m.values = point.values;
  m.label = QString::fromStdString(point.label);
  m.key = point.values.size() == 1 ? QString::fromStdString(point.values.front().second) : m.label;
  m.status = QString::fromStdString(train::runStatusName(result.status));
  m.finalAccuracy = m.bestAccuracy = m.finalEpsilon = m.nominalEpsilon = m.accuracyJitter = kNaN;
  std::vector<double> accuracies;
  for (const auto& e : result.history) {
    if (e.kind != train::EventKind::Evaluation) continue;
    m.epsilons.push_back(e.privacy.epsilon);
    m.finalEpsilon = e.privacy.epsilon;
    m.nominalEpsilon = e.privacy.nominalEpsilon.value_or(kNaN);
    if (std::isfinite(e.testAccuracy)) accuracies.push_back(e.testAccuracy);
  }
  m.hasAccuracy = !accuracies.empty();
  if (m.hasAccuracy) {
    m.finalAccuracy = accuracies.back();
    m.bestAccuracy = *std::max_element(accuracies.begin(), accuracies.end());
    // Instability at the end of training: the mean step-to-step change of the test accuracy
    // over the second half of the evaluations.
    const std::size_t from = accuracies.size() / 2;
    double sum = 0;
    int count = 0;
    for (std::size_t i = std::max<std::size_t>(from, 1); i < accuracies.size(); ++i, ++count)
      sum += std::abs(accuracies[i] - accuracies[i - 1]);
    m.accuracyJitter = count > 0 ? sum / count : kNaN;
  }
  return m;
}

TrendVerdict checkTrend(const ui::PresetTrend& trend, const std::vector<MeasuredRun>& runs) {
  // Along a swept parameter in a two-parameter sweep, the trend must hold at every value of
  // the other one; every other comparison looks at all runs at once.
  std::map<QString, std::vector<const MeasuredRun*>> groups;
  for (const MeasuredRun& r : runs) {
    QStringList others;
    bool hasOver = false;
    for (const auto& [parameter, value] : r.values) {
      if (QString::fromStdString(parameter) == trend.over)
        hasOver = true;
      else
        others << QString::fromStdString(parameter + "=" + value);
    }
    groups[hasOver ? others.join(QStringLiteral(", ")) : QString()].push_back(&r);
  }
  if (groups.size() == 1) return checkGroup(trend, groups.begin()->second);
  TrendVerdict all{trend.figure, trend.statement, true, {}};
  QStringList details;
  for (const auto& [name, group] : groups) {
    const TrendVerdict v = checkGroup(trend, group);
    all.same = all.same && v.same;
    details << QStringLiteral("[%1] %2").arg(name, v.detail);
  }
  all.detail = details.join(QStringLiteral("; "));
  return all;
}

std::vector<FigureVerdict> figureVerdicts(const ui::Preset& preset,
                                          const std::vector<MeasuredRun>& runs) {
  std::vector<FigureVerdict> figures;
  for (const ui::PresetTrend& t : preset.trends) {
    auto it = std::find_if(figures.begin(), figures.end(),
                           [&](const FigureVerdict& f) { return f.figure == t.figure; });
    if (it == figures.end()) {
      figures.push_back({t.figure, true, {}});
      it = figures.end() - 1;
    }
    TrendVerdict v = checkTrend(t, runs);
    it->same = it->same && v.same;
    it->checks.push_back(std::move(v));
  }
  return figures;
}

}  // namespace epsilon::cli

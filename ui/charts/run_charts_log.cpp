// RunCharts: the logarithmic axes. One run with ε ≈ 28 beside runs at ε ≈ 1 flattens them on
// a linear axis, and so does one run whose loss climbs to thousands of nats beside runs that
// stay below one; a logarithmic axis (chosen automatically past kLogEpsilonSpan or
// kLogLossRise) keeps every curve readable. Each chart that has one swaps its linear axis for
// its logarithmic one and back.
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/run_charts.h"

namespace epsilon::ui {

namespace {

// The orientation of the axis that chart `kind` can make logarithmic (accuracy vs epoch has
// none: Qt::Orientation(0)).
Qt::Orientation logOrientation(ChartKind kind) {
  switch (kind) {
    case ChartKind::EpsilonVsEpoch:
    case ChartKind::LossVsStep:
      return Qt::Vertical;
    case ChartKind::AccuracyVsEpsilon:
      return Qt::Horizontal;
    case ChartKind::AccuracyVsEpoch:
      break;
  }
  return Qt::Orientation(0);
}

// The largest finite ε of a run (its last evaluation's, as ε only grows).
double finalEpsilon(const RunRecord& run) {
  double largest = 0;
  for (const EvalPoint& e : run.evals)
    if (std::isfinite(e.epsilon)) largest = std::max(largest, e.epsilon);
  return largest;
}

// Whole decades around [low, high], so the labels read 0.1, 1, 10, 100; at most `decades`
// below the top, so a loss that reaches 1e-9 does not squeeze the rest into a corner.
std::pair<double, double> decadeRange(double low, double high, double decades) {
  if (!(high > 0) || !(low > 0)) return {0.1, 10.0};
  const double to = std::pow(10.0, std::ceil(std::log10(high)));
  double from = std::pow(10.0, std::floor(std::log10(low)));
  from = std::max(from, to / std::pow(10.0, decades));
  return {from, to > from ? to : 10 * from};
}

}  // namespace

bool RunCharts::wantLogEpsilon(const std::vector<RunRecord>& runs,
                               const std::vector<char>& drawn) const {
  if (m_epsilonScale != AxisScale::Automatic) return m_epsilonScale == AxisScale::Logarithmic;
  double low = std::numeric_limits<double>::infinity(), high = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double eps = drawn[i] ? finalEpsilon(runs[i]) : 0.0;
    if (eps <= 0) continue;
    low = std::min(low, eps);
    high = std::max(high, eps);
  }
  return high > 0 && high / low > kLogEpsilonSpan;
}

bool RunCharts::wantLogLoss(const std::vector<RunRecord>& runs,
                            const std::vector<char>& drawn) const {
  if (m_lossScale != AxisScale::Automatic) return m_lossScale == AxisScale::Logarithmic;
  // The first loss of a run is about the loss of guessing (ln K nats for K classes); a run
  // far above it has blown up.
  double first = 0, highest = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!drawn[i]) continue;
    bool seen = false;
    for (const LossPoint& p : runs[i].losses) {
      if (!std::isfinite(p.loss)) continue;
      if (!seen) first = std::max(first, p.loss);
      seen = true;
      highest = std::max(highest, p.loss);
    }
  }
  return first > 0 && highest > kLogLossRise * first;
}

QAbstractAxis* RunCharts::axisInUse(ChartKind kind, Qt::Orientation orientation) const {
  const int k = static_cast<int>(kind);
  if (m_log[k] && logOrientation(kind) == orientation) return m_logAxes[k];
  return orientation == Qt::Horizontal ? static_cast<QAbstractAxis*>(m_xAxes[k]) : m_yAxes[k];
}

QList<QPointF> RunCharts::onScale(QList<QPointF> points, ChartKind kind) const {
  if (!m_log[static_cast<int>(kind)]) return points;
  const bool onX = logOrientation(kind) == Qt::Horizontal;
  points.removeIf([&](const QPointF& p) { return (onX ? p.x() : p.y()) <= 0; });
  return points;
}

void RunCharts::useLogAxis(ChartKind kind, bool on) {
  const int k = static_cast<int>(kind);
  const Qt::Orientation orientation = logOrientation(kind);
  if (orientation == Qt::Orientation(0) || on == m_log[k]) return;
  QValueAxis* linear = orientation == Qt::Horizontal ? m_xAxes[k] : m_yAxes[k];
  if (!m_logAxes[k]) {
    auto* axis = new QLogValueAxis(this);
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);  // minor ticks at 2..9 × 10^k
    m_logAxes[k] = axis;
  }
  m_log[k] = on;  // onScale() below filters for the axis being attached
  QAbstractAxis* old = on ? static_cast<QAbstractAxis*>(linear) : m_logAxes[k];
  QAbstractAxis* now = on ? static_cast<QAbstractAxis*>(m_logAxes[k]) : linear;
  QChart* c = chart(kind);
  c->removeAxis(old);  // detaches the series; the axis is kept for switching back
  old->setParent(this);
  now->setLabelsFont(old->labelsFont());
  now->setTitleFont(old->titleFont());
  c->addAxis(now, orientation == Qt::Horizontal ? Qt::AlignBottom : Qt::AlignLeft);
  for (QAbstractSeries* s : c->series()) {
    auto* xy = static_cast<QXYSeries*>(s);
    if (on) xy->replace(onScale(xy->points(), kind));  // no point ≤ 0 may meet the log axis
    xy->attachAxis(now);
  }
  fitTexts(kind);  // the axis title says "(log scale)" when it fits
}

void RunCharts::fitLogAxes() {
  const auto span = [this](ChartKind kind) {
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const auto& [id, rs] : m_series) {
      for (const QPointF& p : rs.line[static_cast<int>(kind)]->points()) {
        if (p.y() <= 0) continue;
        low = std::min(low, p.y());
        high = std::max(high, p.y());
      }
    }
    return std::pair{low, high};
  };
  const int e = static_cast<int>(ChartKind::EpsilonVsEpoch),
            f = static_cast<int>(ChartKind::AccuracyVsEpsilon),
            l = static_cast<int>(ChartKind::LossVsStep);
  if (m_log[e]) {  // both ε charts show the same ε values
    const auto [low, high] = span(ChartKind::EpsilonVsEpoch);
    const auto [from, to] = decadeRange(low, high, 12);
    m_logAxes[e]->setRange(from, to);
    if (m_log[f]) m_logAxes[f]->setRange(from, to);  // a chart a turn: its axis may come later
  }
  if (m_log[l]) {
    const auto [low, high] = span(ChartKind::LossVsStep);
    const auto [from, to] = decadeRange(low, high, 6);
    m_logAxes[l]->setRange(from, to);
  }
}

}  // namespace epsilon::ui

// RunCharts: the ε axes. One run with ε ≈ 28 beside runs at ε ≈ 1 flattens them on a linear
// axis; a logarithmic axis (chosen automatically past a factor kLogEpsilonSpan) keeps every
// curve readable. The linear and logarithmic axes are swapped on the two ε charts.
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

bool hasEpsilonAxis(ChartKind kind, Qt::Orientation orientation) {
  return (kind == ChartKind::EpsilonVsEpoch && orientation == Qt::Vertical) ||
         (kind == ChartKind::AccuracyVsEpsilon && orientation == Qt::Horizontal);
}

// The largest finite ε of a run (its last evaluation's, as ε only grows).
double finalEpsilon(const RunRecord& run) {
  double largest = 0;
  for (const EvalPoint& e : run.evals)
    if (std::isfinite(e.epsilon)) largest = std::max(largest, e.epsilon);
  return largest;
}

}  // namespace

bool RunCharts::wantLogEpsilon(const std::vector<RunRecord>& runs) const {
  if (m_epsilonScale != EpsilonScale::Automatic) return m_epsilonScale == EpsilonScale::Logarithmic;
  double low = std::numeric_limits<double>::infinity(), high = 0;
  for (const RunRecord& run : runs) {
    const double eps = run.visible ? finalEpsilon(run) : 0.0;
    if (eps <= 0) continue;
    low = std::min(low, eps);
    high = std::max(high, eps);
  }
  return high > 0 && high / low > kLogEpsilonSpan;
}

QAbstractAxis* RunCharts::axisInUse(ChartKind kind, Qt::Orientation orientation) const {
  const int k = static_cast<int>(kind);
  if (m_epsilonLog && hasEpsilonAxis(kind, orientation))
    return kind == ChartKind::EpsilonVsEpoch ? static_cast<QAbstractAxis*>(m_logEpsilonY)
                                             : m_logEpsilonX;
  return orientation == Qt::Horizontal ? static_cast<QAbstractAxis*>(m_xAxes[k]) : m_yAxes[k];
}

QList<QPointF> RunCharts::onScale(QList<QPointF> points, ChartKind kind) const {
  if (!m_epsilonLog) return points;
  const bool yIsEpsilon = kind == ChartKind::EpsilonVsEpoch,
             xIsEpsilon = kind == ChartKind::AccuracyVsEpsilon;
  points.removeIf(
      [&](const QPointF& p) { return (yIsEpsilon && p.y() <= 0) || (xIsEpsilon && p.x() <= 0); });
  return points;
}

void RunCharts::useLogEpsilon(bool on) {
  if (on == m_epsilonLog) return;
  if (!m_logEpsilonY) {
    for (auto* axis : {&m_logEpsilonY, &m_logEpsilonX}) {
      *axis = new QLogValueAxis(this);
      (*axis)->setBase(10);
      (*axis)->setLabelFormat(QStringLiteral("%g"));
      (*axis)->setMinorTickCount(-1);  // minor ticks at 2..9 × 10^k
    }
    m_logEpsilonY->setTitleText(m_yAxes[static_cast<int>(ChartKind::EpsilonVsEpoch)]->titleText() +
                                tr(" (log scale)"));
    m_logEpsilonX->setTitleText(
        m_xAxes[static_cast<int>(ChartKind::AccuracyVsEpsilon)]->titleText() + tr(" (log scale)"));
  }
  m_epsilonLog = on;  // onScale() below filters for the axis being attached
  const std::pair<ChartKind, Qt::Orientation> swaps[] = {
      {ChartKind::EpsilonVsEpoch, Qt::Vertical}, {ChartKind::AccuracyVsEpsilon, Qt::Horizontal}};
  for (const auto& [kind, orientation] : swaps) {
    const int k = static_cast<int>(kind);
    QAbstractAxis* linear =
        orientation == Qt::Horizontal ? static_cast<QAbstractAxis*>(m_xAxes[k]) : m_yAxes[k];
    QAbstractAxis* log = kind == ChartKind::EpsilonVsEpoch ? m_logEpsilonY : m_logEpsilonX;
    QAbstractAxis* old = on ? linear : log;
    QAbstractAxis* now = on ? log : linear;
    QChart* c = chart(kind);
    c->removeAxis(old);  // detaches the series; the axis is kept for switching back
    old->setParent(this);
    now->setLabelsFont(old->labelsFont());
    now->setTitleFont(old->titleFont());
    c->addAxis(now, orientation == Qt::Horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    for (QAbstractSeries* s : c->series()) {
      auto* xy = static_cast<QXYSeries*>(s);
      if (on) xy->replace(onScale(xy->points(), kind));  // no ε = 0 point may meet the log axis
      xy->attachAxis(now);
    }
  }
}

void RunCharts::fitLogEpsilonAxes() {
  double low = std::numeric_limits<double>::infinity(), high = 0;
  for (const auto& [id, rs] : m_series) {
    for (const QPointF& p : rs.line[static_cast<int>(ChartKind::EpsilonVsEpoch)]->points()) {
      low = std::min(low, p.y());
      high = std::max(high, p.y());
    }
  }
  if (!(high > 0)) low = 0.1, high = 10;
  // Whole decades, so the labels are 0.1, 1, 10, 100.
  const double from = std::pow(10.0, std::floor(std::log10(low))),
               to = std::pow(10.0, std::ceil(std::log10(high)));
  m_logEpsilonY->setRange(from, to > from ? to : 10 * from);
  m_logEpsilonX->setRange(from, to > from ? to : 10 * from);
}

}  // namespace epsilon::ui

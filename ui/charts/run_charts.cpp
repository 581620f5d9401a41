#include "ui/charts/run_charts.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

#include "ui/charts/drawn_text.h"
#include "ui/charts/run_legend.h"

namespace epsilon::ui {

QString chartTitle(ChartKind kind) {
  switch (kind) {
    case ChartKind::AccuracyVsEpoch:
      return QObject::tr("Test accuracy vs epoch");
    case ChartKind::EpsilonVsEpoch:
      return QObject::tr("Privacy spent (ε) vs epoch");
    case ChartKind::AccuracyVsEpsilon:
      return QObject::tr("Privacy–utility frontier");
    case ChartKind::LossVsStep:
      return QObject::tr("Training loss vs step");
  }
  return {};
}

QString chartFileStem(ChartKind kind) {
  switch (kind) {
    case ChartKind::AccuracyVsEpoch:
      return QStringLiteral("accuracy-vs-epoch");
    case ChartKind::EpsilonVsEpoch:
      return QStringLiteral("epsilon-vs-epoch");
    case ChartKind::AccuracyVsEpsilon:
      return QStringLiteral("accuracy-vs-epsilon");
    case ChartKind::LossVsStep:
      return QStringLiteral("loss-vs-step");
  }
  return {};
}

namespace {
// A chart is a few hundred pixels wide: a long history is drawn with at most about
// kDrawnPoints points, each bucket of neighbours by its lowest and highest value (in order),
// so spikes stay visible, and the first and last points exactly. Qt Charts lays out and
// paints every point it holds, on every update.
constexpr qsizetype kDrawnPoints = 500;
// A line marks its evaluations with dots while they are few enough to tell apart; beyond
// that the dots only merge into a thicker line, and painting them was most of a redraw
// (20 runs × 500 drawn points × 3 charts = 30,000 ellipses; bench/chart_update.cpp).
constexpr qsizetype kMarkedPoints = 100;

QList<QPointF> thinned(const QList<QPointF>& points) {
  if (points.size() <= kDrawnPoints) return points;
  const qsizetype buckets = kDrawnPoints / 2 - 1;
  QList<QPointF> out;
  out.reserve(kDrawnPoints);
  out.append(points.front());
  for (qsizetype b = 0; b < buckets; ++b) {
    const qsizetype begin = 1 + b * (points.size() - 2) / buckets;
    const qsizetype end = 1 + (b + 1) * (points.size() - 2) / buckets;
    if (begin >= end) continue;
    qsizetype low = begin, high = begin;
    for (qsizetype i = begin; i < end; ++i) {
      if (points[i].y() < points[low].y()) low = i;
      if (points[i].y() > points[high].y()) high = i;
    }
    out.append(points[std::min(low, high)]);
    if (low != high) out.append(points[std::max(low, high)]);
  }
  out.append(points.back());
  return out;
}

QList<QPointF> pointsFor(const RunRecord& run, ChartKind kind) {
  QList<QPointF> points;
  if (kind == ChartKind::LossVsStep) {
    // Long runs have tens of thousands of steps: keep at most ~2000 points, averaging
    // neighbours so the curve keeps its shape.
    const std::size_t n = run.losses.size();
    const std::size_t stride = std::max<std::size_t>(1, n / 2000);
    points.reserve(static_cast<qsizetype>(n / stride + 1));
    for (std::size_t i = 0; i < n; i += stride) {
      double sum = 0;
      int count = 0;
      for (std::size_t j = i; j < std::min(n, i + stride); ++j) {
        if (std::isfinite(run.losses[j].loss)) {
          sum += run.losses[j].loss;
          ++count;
        }
      }
      if (count > 0) points.append(QPointF(static_cast<double>(run.losses[i].step), sum / count));
    }
    return points;
  }
  points.reserve(static_cast<qsizetype>(run.evals.size()));
  for (const EvalPoint& e : run.evals) {
    double x = e.epoch, y = kNaN;
    switch (kind) {
      case ChartKind::AccuracyVsEpoch:
        y = 100.0 * e.testAccuracy;
        break;
      case ChartKind::EpsilonVsEpoch:
        y = e.epsilon;
        break;
      case ChartKind::AccuracyVsEpsilon:
        x = e.epsilon;
        y = 100.0 * e.testAccuracy;
        break;
      case ChartKind::LossVsStep:
        break;
    }
    if (std::isfinite(x) && std::isfinite(y)) points.append(QPointF(x, y));
  }
  return thinned(points);
}

// Shows `points` in `series`: one new point at the end is appended; anything else (several
// new points, a new scale, a thinned curve, a reloaded run) replaces the series. Qt Charts
// lays the whole line out again at each appended point: 16 appended one by one made the loss
// chart's update 2.1 ms (median) while four Fashion-MNIST runs trained; replaced, 0.6 ms.
void showPoints(QXYSeries* series, const QList<QPointF>& points) {
  const QList<QPointF> shown = series->points();  // a copy, cheap beside a relayout
  if (!shown.isEmpty() && shown.size() <= points.size() &&
      std::equal(shown.begin(), shown.end(), points.begin())) {
    if (points.size() - shown.size() == 1) {
      series->append(points.back());
      return;
    }
  }
  if (shown != points) series->replace(points);
}

// Rounds an axis maximum up to a readable value (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k).
double niceCeil(double value) {
  if (!(value > 0)) return 1.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
  for (double m : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (m * magnitude >= value * (1 - 1e-12)) return m * magnitude;
  return 10 * magnitude;
}
}  // namespace

RunCharts::RunCharts(QObject* parent) : QObject(parent) {
  for (ChartKind kind : kAllChartKinds) {
    const int k = static_cast<int>(kind);
    auto* chart = new QChart();
    chart->setTitle(chartTitle(kind));
    chart->setAnimationOptions(QChart::NoAnimation);
    // One legend for the grid (run_legend.h) instead of four that elide names to nothing.
    chart->legend()->setVisible(false);
    auto* x = new QValueAxis(chart);
    auto* y = new QValueAxis(chart);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    m_charts[k] = chart;
    m_xAxes[k] = x;
    m_yAxes[k] = y;
    // Whatever the chart's size (a window's quarter, an export), its texts fit it.
    connect(chart, &QChart::plotAreaChanged, this, [this, kind] {
      fitTexts(kind);
      fitTicks(kind);
    });
  }
  applyStyle();
  fitAxes();
}

RunCharts::~RunCharts() {
  for (QChart* chart : m_charts) {
    if (chart && !chart->scene()) delete chart;  // a chart in a view belongs to its scene
  }
}

void RunCharts::setCaption(const QString& caption) {
  m_caption = caption;
  for (ChartKind kind : kAllChartKinds) fitTexts(kind);
}

void RunCharts::setPresentationMode(bool on) {
  m_presentation = on;
  applyStyle();
}

void RunCharts::setFontStep(int points) {
  m_fontStep = points;
  applyStyle();
}

void RunCharts::applyStyle() {
  // Presentation fonts that still fit a quarter of a 1280×720 window (larger ones elide the
  // axis labels to "…"); the margins around each chart are trimmed for the same reason.
  const int base = labelPointSize();
  for (int k = 0; k < kChartKindCount; ++k) {
    m_charts[k]->setMargins(m_presentation ? QMargins(2, 2, 2, 2) : QMargins(8, 8, 8, 8));
    QFont title;
    title.setPointSize(base + (m_presentation ? 1 : 2));
    title.setBold(true);
    m_charts[k]->setTitleFont(title);
    QFont labels;
    labels.setPointSize(base);
    m_labelsFont = labels;
    m_charts[k]->legend()->setFont(labels);
    for (QValueAxis* axis : {m_xAxes[k], m_yAxes[k]}) {
      axis->setLabelsFont(labels);
      QFont axisTitle = labels;
      axisTitle.setBold(true);
      axis->setTitleFont(axisTitle);
    }
  }
  for (QLogValueAxis* log : m_logAxes) {  // the log axes take the fonts of the linear ones
    if (!log) continue;
    log->setLabelsFont(m_xAxes[0]->labelsFont());
    log->setTitleFont(m_xAxes[0]->titleFont());
  }
  for (ChartKind kind : kAllChartKinds) {
    fitTexts(kind);
    fitTicks(kind);
  }
  const qreal width = m_presentation ? 4.0 : 2.0;
  for (auto& [id, rs] : m_series) {
    for (QXYSeries* s : rs.line) {
      QPen pen = s->pen();
      pen.setWidthF(width);
      s->setPen(pen);
    }
    for (QXYSeries* s : rs.end) {
      if (auto* marker = qobject_cast<QScatterSeries*>(s)) {
        marker->setMarkerSize(m_presentation ? 18 : 12);
        marker->setBorderColor(Qt::white);  // dots that touch stay apart
      }
    }
  }
}

RunCharts::RunSeries& RunCharts::seriesFor(const RunRecord& run) {
  auto it = m_series.find(run.id);
  if (it != m_series.end()) return it->second;
  RunSeries rs;
  for (ChartKind kind : kAllChartKinds) {
    const int k = static_cast<int>(kind);
    auto* s = new QLineSeries();
    s->setPointsVisible(kind != ChartKind::LossVsStep);
    m_charts[k]->addSeries(s);
    s->attachAxis(axisInUse(kind, Qt::Horizontal));
    s->attachAxis(axisInUse(kind, Qt::Vertical));
    rs.line[k] = s;
    Q_EMIT seriesCreated(s, run.id, kind);
  }
  return m_series.emplace(run.id, rs).first->second;
}

void RunCharts::addDots(int runId, RunSeries& rs) {
  for (ChartKind kind : kAllChartKinds) {
    const int k = static_cast<int>(kind);
    auto* marker = new QScatterSeries();
    m_charts[k]->addSeries(marker);
    marker->attachAxis(axisInUse(kind, Qt::Horizontal));
    marker->attachAxis(axisInUse(kind, Qt::Vertical));
    for (QLegendMarker* m : m_charts[k]->legend()->markers(marker)) m->setVisible(false);
    rs.end[k] = marker;
    Q_EMIT seriesCreated(marker, runId, kind);
  }
}

// A chart draws its series in the order they were added: a new run's line would cover the
// older runs' end dots (lesson 4's 5-epoch dot vanished under the 40-epoch line), so the
// older dots are added again after the new lines, and the new dots after them. All new runs'
// lines come first, so opening 10,000 runs moves no dot (one by one, it was quadratic).
void RunCharts::addNewSeries(const std::vector<const RunRecord*>& fresh) {
  if (fresh.empty()) return;
  const bool older = m_series.size() > 0;
  for (const RunRecord* run : fresh) seriesFor(*run);
  if (older) {
    for (auto& [id, rs] : m_series) {
      if (!rs.end[0]) continue;
      for (ChartKind kind : kAllChartKinds) {
        const int k = static_cast<int>(kind);
        m_charts[k]->removeSeries(rs.end[k]);
        m_charts[k]->addSeries(rs.end[k]);
        rs.end[k]->attachAxis(axisInUse(kind, Qt::Horizontal));
        rs.end[k]->attachAxis(axisInUse(kind, Qt::Vertical));
      }
    }
  }
  for (const RunRecord* run : fresh) addDots(run->id, m_series.at(run->id));
  applyStyle();  // once for all of them: it restyles every series
}

void RunCharts::removeRun(int id) {
  auto it = m_series.find(id);
  if (it == m_series.end()) return;
  for (int k = 0; k < kChartKindCount; ++k) {
    for (QXYSeries* s : {it->second.line[k], it->second.end[k]}) {
      m_charts[k]->removeSeries(s);
      delete s;
    }
  }
  m_series.erase(it);
}

void RunCharts::update(const std::vector<RunRecord>& runs, std::optional<ChartKind> only) {
  shareWork(runs, !only || *only == kAllChartKinds.front());
  const auto drawn = [only](ChartKind kind) { return !only || *only == kind; };
  for (ChartKind kind : {ChartKind::EpsilonVsEpoch, ChartKind::AccuracyVsEpsilon})
    if (drawn(kind)) useLogAxis(kind, m_shared.logEpsilon);
  if (drawn(ChartKind::LossVsStep)) useLogAxis(ChartKind::LossVsStep, m_shared.logLoss);
  std::vector<const RunRecord*> shown;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (m_shared.drawn[i]) shown.push_back(&runs[i]);
  std::vector<const RunRecord*> fresh;
  for (const RunRecord* run : shown)
    if (!m_series.count(run->id)) fresh.push_back(run);
  addNewSeries(fresh);
  for (const RunRecord* run : shown) {
    RunSeries& rs = m_series.at(run->id);
    for (ChartKind kind : kAllChartKinds)
      if (drawn(kind)) showRun(*run, rs, kind);
  }
  std::vector<int> drop;
  for (const auto& [id, rs] : m_series)
    if (std::none_of(shown.begin(), shown.end(),
                     [id = id](const RunRecord* r) { return r->id == id; }))
      drop.push_back(id);
  for (int id : drop) removeRun(id);
  fitAxes(only);
}

void RunCharts::showRun(const RunRecord& run, RunSeries& rs, ChartKind kind) {
  QXYSeries* s = rs.line[static_cast<int>(kind)];
  const QString name = drawnText(run.name);
  if (s->name() != name) s->setName(name);
  QPen pen = s->pen();
  pen.setColor(QColor(run.color));
  pen.setStyle(run.status == RunStatus::Diverged || run.status == RunStatus::Failed
                   ? Qt::DashLine
                   : Qt::SolidLine);
  if (s->pen() != pen) {
    s->setPen(pen);
    s->setColor(QColor(run.color));
  }
  const QList<QPointF> points = onScale(pointsFor(run, kind), kind);
  showPoints(s, points);
  const bool marked = kind != ChartKind::LossVsStep && points.size() <= kMarkedPoints;
  if (s->pointsVisible() != marked) s->setPointsVisible(marked);
  QXYSeries* end = rs.end[static_cast<int>(kind)];
  const QList<QPointF> last = points.isEmpty() ? QList<QPointF>{} : QList<QPointF>{points.back()};
  if (end->name() != name) end->setName(name);
  end->setColor(QColor(run.color));
  if (end->points() != last) end->replace(last);
}

int RunCharts::pointCount(ChartKind kind, int runId) const {
  const auto it = m_series.find(runId);
  return it == m_series.end() ? 0
                              : static_cast<int>(it->second.line[static_cast<int>(kind)]->count());
}

void RunCharts::fitAxes(std::optional<ChartKind> only) {
  std::array<bool, kChartKindCount> refit{};
  for (ChartKind kind : kAllChartKinds) {
    if (only && *only != kind) continue;
    const int k = static_cast<int>(kind);
    double xMax = 0, yMax = 0, yMin = 0;
    bool any = false;
    for (const auto& [id, rs] : m_series) {
      for (const QPointF& p : rs.line[k]->points()) {
        xMax = any ? std::max(xMax, p.x()) : p.x();
        yMax = any ? std::max(yMax, p.y()) : p.y();
        yMin = any ? std::min(yMin, p.y()) : p.y();
        any = true;
      }
    }
    double yLow = 0, yHigh = niceCeil(yMax);
    if (kind == ChartKind::AccuracyVsEpoch || kind == ChartKind::AccuracyVsEpsilon) {
      // Accuracy axes show where the runs are, not always 0..100, but never beyond 100.
      yLow = any ? std::max(0.0, std::floor((yMin - 2.0) / 10.0) * 10.0) : 0.0;
      yHigh = 100.0;
    }
    const double xHigh = niceCeil(any ? xMax : 1.0);
    if (!any && kind == ChartKind::EpsilonVsEpoch) yHigh = 1.0;
    // An axis whose range stays is left alone: a change of its tick type or range lays the
    // whole chart out again, which at every redraw of a training run kept the GUI thread busy.
    if (m_xAxes[k]->min() == 0.0 && m_xAxes[k]->max() == xHigh && m_yAxes[k]->min() == yLow &&
        m_yAxes[k]->max() == yHigh)
      continue;
    // Fixed ticks while the range changes: the old interval over a new, wider range would
    // lay out thousands of ticks (fitTicks below picks the interval for the new range).
    m_xAxes[k]->setTickType(QValueAxis::TicksFixed);
    m_yAxes[k]->setTickType(QValueAxis::TicksFixed);
    m_xAxes[k]->setRange(0.0, xHigh);
    m_yAxes[k]->setRange(yLow, yHigh);
    refit[k] = true;
  }
  fitLogAxes();
  for (ChartKind kind : kAllChartKinds)  // round ticks, as many as fit
    if ((refit[static_cast<int>(kind)] || m_log[static_cast<int>(kind)]) &&
        (!only || *only == kind))
      fitTicks(kind);
}

namespace {
// Lays the chart out now: its texts are refitted to a new size (run_charts_fit.cpp) while it
// is laid out, which asks for one more layout before the drawing may start.
void settleLayout(QChart* chart) {
  for (int i = 0; i < 3 && chart->layout(); ++i) {
    chart->layout()->invalidate();
    chart->layout()->activate();
  }
}
}  // namespace

void renderChart(QChart* chart, QPainter& painter, const QRectF& target) {
  if (QGraphicsScene* scene = chart->scene()) {
    // A chart shown in a view: lay it out at the target size for the drawing (so fonts and
    // margins keep their size whatever the window's), draw it, and put it back.
    const QRectF old = chart->geometry();
    chart->setGeometry(QRectF(old.topLeft(), target.size()));
    settleLayout(chart);
    scene->render(&painter, target, chart->mapRectToScene(chart->boundingRect()));
    chart->setGeometry(old);
    settleLayout(chart);
    return;
  }
  // A chart not shown anywhere is laid out at the target size in a scene of its own.
  QGraphicsScene scene;
  scene.addItem(chart);
  chart->setGeometry(QRectF(QPointF(0, 0), target.size()));
  settleLayout(chart);
  scene.render(&painter, target, QRectF(QPointF(0, 0), target.size()));
  scene.removeItem(chart);
}

void RunCharts::renderOne(ChartKind kind, QPainter& painter, const QRectF& target) {
  const qreal legend = runLegendHeight(m_legendHtml, target.width(), legendPointSize());
  renderChart(chart(kind), painter, target.adjusted(0, 0, 0, -legend));
  drawRunLegend(painter, m_legendHtml,
                QRectF(target.left(), target.bottom() - legend, target.width(), legend),
                legendPointSize());
}

void RunCharts::renderGrid(QPainter& painter, const QRectF& target) {
  const qreal legend = runLegendHeight(m_legendHtml, target.width(), legendPointSize());
  drawRunLegend(painter, m_legendHtml,
                QRectF(target.left(), target.bottom() - legend, target.width(), legend),
                legendPointSize());
  const qreal w = target.width() / 2.0, h = (target.height() - legend) / 2.0;
  for (int k = 0; k < kChartKindCount; ++k) {
    renderChart(m_charts[k], painter,
                QRectF(target.left() + (k % 2) * w, target.top() + (k / 2) * h, w, h));
  }
}

}  // namespace epsilon::ui

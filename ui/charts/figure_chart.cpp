#include "ui/charts/figure_chart.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "ui/charts/chart_export.h"
#include "ui/charts/drawn_text.h"
#include "ui/charts/run_charts.h"

namespace epsilon::ui {

namespace {

QPen penFor(FigureLine line, const QColor& colour) {
  QPen pen(colour);
  pen.setWidthF(line == FigureLine::Bold ? 3.0 : 2.0);
  if (line == FigureLine::Dashed) pen.setStyle(Qt::DashLine);
  return pen;
}

// The axis' own range, or the data's; a log axis never starts at or below 0.
std::pair<double, double> rangeOf(const FigureAxis& axis, const Figure& figure, bool isX) {
  if (axis.max > axis.min) return {axis.min, axis.max};
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (const FigureSeries& s : figure.series)
    for (const QPointF& p : s.points) {
      const double v = isX ? p.x() : p.y();
      if (axis.log && v <= 0) continue;
      low = std::min(low, v);
      high = std::max(high, v);
    }
  if (!(low < high)) return {axis.log ? 0.1 : 0.0, axis.log ? 10.0 : 1.0};
  return {low, high};
}

// "10⁻³", "10⁻²", "10⁻¹", "1", "10", "10²": powers of ten that stay short and apart (printf's
// "0.001", "0.01" ran together on a narrow chart).
QString powerOfTenLabel(int exponent) {
  if (exponent == 0) return QStringLiteral("1");
  if (exponent == 1) return QStringLiteral("10");
  static const QString kSuperscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
  QString power;
  for (const QChar digit : QString::number(std::abs(exponent)))
    power += kSuperscripts.at(digit.digitValue());
  return QStringLiteral("10") + (exponent < 0 ? QStringLiteral("⁻") : QString()) + power;
}

// A log axis: the grid and the series' scale come from a QLogValueAxis without labels, the
// labels from a category axis over log₁₀ of the range, one label at each power of ten.
void addLogAxis(QChart& chart, const FigureAxis& spec, std::pair<double, double> range,
                Qt::Alignment alignment, std::vector<QAbstractAxis*>& attach) {
  auto* axis = new QLogValueAxis;
  axis->setMinorTickCount(-1);
  axis->setRange(range.first, range.second);
  axis->setLabelsVisible(false);
  chart.addAxis(axis, alignment);
  attach.push_back(axis);
  auto* labels = new QCategoryAxis;
  const double low = std::log10(range.first), high = std::log10(range.second);
  labels->setRange(low, high);
  labels->setStartValue(low);
  labels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  for (int k = static_cast<int>(std::ceil(low - 1e-9)); k <= std::floor(high + 1e-9); ++k)
    labels->append(powerOfTenLabel(k), k);
  labels->setGridLineVisible(false);
  labels->setLineVisible(false);
  labels->setTitleText(drawnText(spec.title));
  chart.addAxis(labels, alignment);
}

void addAxis(QChart& chart, const FigureAxis& spec, std::pair<double, double> range,
             Qt::Alignment alignment, std::vector<QAbstractAxis*>& attach) {
  if (spec.log) return addLogAxis(chart, spec, range, alignment, attach);
  auto* axis = new QValueAxis;
  axis->setRange(range.first, range.second);
  axis->setTitleText(drawnText(spec.title));
  chart.addAxis(axis, alignment);
  attach.push_back(axis);
}

}  // namespace

std::unique_ptr<QChart> buildFigureChart(const Figure& figure) {
  auto chart = std::make_unique<QChart>();
  chart->setTitle(drawnText(figure.title));
  std::vector<QAbstractAxis*> axes;  // the x axis, then the y axis the series attach to
  addAxis(*chart, figure.x, rangeOf(figure.x, figure, true), Qt::AlignBottom, axes);
  addAxis(*chart, figure.y, rangeOf(figure.y, figure, false), Qt::AlignLeft, axes);
  const QColor palette[] = {Qt::black,
                            Qt::gray,
                            QColor(0x1f, 0x77, 0xb4),
                            QColor(0xd6, 0x27, 0x28),
                            QColor(0x2c, 0xa0, 0x2c),
                            QColor(0xff, 0x7f, 0x0e),
                            QColor(0x94, 0x67, 0xbd)};
  std::size_t index = 0;
  for (const FigureSeries& s : figure.series) {
    auto* series = new QLineSeries;
    series->setName(drawnText(s.name));
    for (const QPointF& p : s.points)
      if ((!figure.x.log || p.x() > 0) && (!figure.y.log || p.y() > 0)) series->append(p);
    const QColor fallback = palette[index++ % std::size(palette)];
    series->setPen(penFor(s.line, s.color.isEmpty() ? fallback : QColor(s.color)));
    chart->addSeries(series);
    for (QAbstractAxis* axis : axes) series->attachAxis(axis);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  return chart;
}

QString plotFigureToFile(const Figure& figure, const QString& path, QSize size, int dpi) {
  const std::unique_ptr<QChart> chart = buildFigureChart(figure);
  QChart* drawn = chart.get();
  return exportDrawing(
      [drawn](QPainter& painter, const QRectF& target) { renderChart(drawn, painter, target); },
      path, size, dpi, drawnText(figure.title));
}

}  // namespace epsilon::ui

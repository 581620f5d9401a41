#include "ui/charts/figure_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
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

QAbstractAxis* makeAxis(const FigureAxis& spec, std::pair<double, double> range) {
  if (spec.log) {
    auto* axis = new QLogValueAxis;
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);
    axis->setRange(range.first, range.second);
    axis->setTitleText(drawnText(spec.title));
    return axis;
  }
  auto* axis = new QValueAxis;
  axis->setRange(range.first, range.second);
  axis->setTitleText(drawnText(spec.title));
  return axis;
}

}  // namespace

std::unique_ptr<QChart> buildFigureChart(const Figure& figure) {
  auto chart = std::make_unique<QChart>();
  chart->setTitle(drawnText(figure.title));
  QAbstractAxis* x = makeAxis(figure.x, rangeOf(figure.x, figure, true));
  QAbstractAxis* y = makeAxis(figure.y, rangeOf(figure.y, figure, false));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
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
    series->attachAxis(x);
    series->attachAxis(y);
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

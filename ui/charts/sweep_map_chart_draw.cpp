// The sweep map's iso-ε lines, best-run marks, axes, one-parameter chart and notes
// (sweep_map_chart.h).
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "base/io/number_format.h"
#include "ui/charts/drawn_text.h"
#include "ui/charts/sweep_map_chart.h"
#include "ui/charts/sweep_map_paint.h"

namespace epsilon::ui {

namespace {

const QColor kInk(0x20, 0x20, 0x20);
const QColor kBestMark(0xe4, 0x00, 0x7c);  // magenta: apart from every colour of viridis
const QColor kAccuracyLine(0x1f, 0x77, 0xb4);
const QColor kEpsilonLine(0xd6, 0x27, 0x28);

// A short label on a white box, centred on `at`.
void boxedText(QPainter& painter, const QPointF& at, const QString& text) {
  const QRectF box = painter.fontMetrics().boundingRect(text).adjusted(-4, -1, 4, 1);
  const QRectF placed(at - QPointF(box.width() / 2, box.height() / 2), box.size());
  painter.setPen(QPen(kInk, 1));
  painter.setBrush(QColor(255, 255, 255, 230));
  painter.drawRoundedRect(placed, 3, 3);
  painter.drawText(placed, Qt::AlignCenter, text);
}

// Every `step`-th label, so that neighbours do not overlap.
int labelStep(const QPainter& painter, const QStringList& labels, double room) {
  double widest = 1;
  for (const QString& text : labels)
    widest = std::max<double>(widest, painter.fontMetrics().horizontalAdvance(text) + 8);
  return std::max(1, static_cast<int>(std::ceil(widest / std::max(1.0, room))));
}

QString axisTitle(const SweepMapAxis& axis) {
  return axis.log ? QObject::tr("%1 (log scale)").arg(axis.word) : axis.word;
}

}  // namespace

void SweepMapChart::drawContours(QPainter& painter, const Layout& l) const {
  painter.save();
  painter.setClipRect(l.plot);
  painter.setFont(mapFont(l.scale, 9, true));
  for (double level : m_levels) {
    const auto segments = isoEpsilonSegments(m_map, level);
    if (segments.empty()) continue;
    QPainterPath path;
    const ContourSegment* longest = &segments.front();
    double longestLength = -1;
    for (const ContourSegment& s : segments) {
      const QPointF a = toPoint(l, s.from.x(), s.from.y()), b = toPoint(l, s.to.x(), s.to.y());
      path.moveTo(a);
      path.lineTo(b);
      if (const double length = std::hypot(b.x() - a.x(), b.y() - a.y()); length > longestLength)
        longestLength = length, longest = &s;
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kInk, 4.2 * l.scale, Qt::SolidLine, Qt::RoundCap));
    painter.drawPath(path);
    painter.setPen(QPen(Qt::white, 2.2 * l.scale, Qt::SolidLine, Qt::RoundCap));
    painter.drawPath(path);
    const QPointF middle = (toPoint(l, longest->from.x(), longest->from.y()) +
                            toPoint(l, longest->to.x(), longest->to.y())) /
                           2;
    boxedText(painter, middle, QStringLiteral("ε = ") + formatEpsilon(level));
  }
  painter.restore();
}

void SweepMapChart::drawBest(QPainter& painter, const Layout& l) const {
  painter.save();
  painter.setFont(mapFont(l.scale, 8.5, true));
  for (std::size_t k = 0; k < m_levels.size(); ++k) {
    const int cell = bestCellUnder(m_map, m_levels[k]);
    if (cell < 0) continue;
    // A run best under several levels is marked once, with its lowest level.
    if (k > 0 && bestCellUnder(m_map, m_levels[k - 1]) == cell) continue;
    const QRectF rect =
        cellIn(l, cell).adjusted(3 * l.scale, 3 * l.scale, -3 * l.scale, -3 * l.scale);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kBestMark, 3.5 * l.scale));
    painter.drawRect(rect);
    if (rect.height() > 70 * l.scale && rect.width() > 70 * l.scale)
      boxedText(painter, QPointF(rect.center().x(), rect.top() + 12 * l.scale),
                QObject::tr("best, ε ≤ %1").arg(formatEpsilon(m_levels[k])));
  }
  painter.restore();
}

void SweepMapChart::drawAxes(QPainter& painter, const Layout& l) const {
  painter.setPen(kInk);
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(l.plot);
  painter.setFont(mapFont(l.scale, 9, false));
  drawXAxis(painter, l);
  const SweepMapAxis& x = m_map.axes[0];
  const SweepMapAxis& y = m_map.axes[1];
  const double rowRoom = l.plot.height() / y.labels.size();
  const int stepY = std::max(1, static_cast<int>(std::ceil(18 * l.scale / rowRoom)));
  for (int j = 0; j < y.labels.size(); j += stepY) {
    const double py = toPoint(l, x.centres.front(), y.centres[static_cast<std::size_t>(j)]).y();
    painter.drawLine(QPointF(l.plot.left() - 5 * l.scale, py), QPointF(l.plot.left(), py));
    painter.drawText(
        QRectF(l.plot.left() - 66 * l.scale, py - 9 * l.scale, 58 * l.scale, 18 * l.scale),
        Qt::AlignRight | Qt::AlignVCenter, drawnText(y.labels[j]));
  }
  painter.setFont(mapFont(l.scale, 10, true));
  painter.save();
  painter.translate(l.plot.left() - 80 * l.scale, l.plot.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-l.plot.height() / 2, -11 * l.scale, l.plot.height(), 22 * l.scale),
                   Qt::AlignCenter, drawnText(axisTitle(y)));
  painter.restore();
}

void SweepMapChart::drawXAxis(QPainter& painter, const Layout& l) const {
  painter.setFont(mapFont(l.scale, 9, false));
  const SweepMapAxis& x = m_map.axes[0];
  const int step = labelStep(painter, x.labels, l.plot.width() / x.labels.size());
  for (int i = 0; i < x.labels.size(); i += step) {
    const double px = toPoint(l, x.centres[static_cast<std::size_t>(i)], 0).x();
    painter.drawLine(QPointF(px, l.plot.bottom()), QPointF(px, l.plot.bottom() + 5 * l.scale));
    painter.drawText(
        QRectF(px - 60 * l.scale, l.plot.bottom() + 6 * l.scale, 120 * l.scale, 18 * l.scale),
        Qt::AlignHCenter | Qt::AlignTop, drawnText(x.labels[i]));
  }
  painter.setFont(mapFont(l.scale, 10, true));
  painter.drawText(
      QRectF(l.plot.left(), l.plot.bottom() + 26 * l.scale, l.plot.width(), 22 * l.scale),
      Qt::AlignCenter, drawnText(axisTitle(x)));
}

double SweepMapChart::yOf1D(const Layout& l, double value, double low, double high) const {
  return l.plot.bottom() - (value - low) / (high - low) * l.plot.height();
}

void SweepMapChart::drawNotes(QPainter& painter, const Layout& l) const {
  painter.save();
  painter.setFont(mapFont(l.scale, 9.5, false));
  painter.setPen(kInk);
  QStringList lines;
  for (double level : m_levels) {
    const int cell = bestCellUnder(m_map, level);
    const auto c = static_cast<std::size_t>(cell);
    lines << (cell < 0 ? QObject::tr("ε ≤ %1: no finished run").arg(formatEpsilon(level))
                       : QObject::tr("Best test accuracy at ε ≤ %1: %2 — %3 (ε = %4)")
                             .arg(formatEpsilon(level), formatPercent(m_map.accuracy[c]),
                                  drawnText(m_names.value(m_map.runIds[c])),
                                  formatEpsilon(m_map.epsilon[c])));
  }
  if (lines.isEmpty())
    lines << QObject::tr("No ε levels yet: they need finished runs with different ε.");
  const double row = l.notes.height() / std::max<qsizetype>(1, lines.size());
  for (qsizetype k = 0; k < lines.size(); ++k) {
    const QRectF line(l.notes.left(), l.notes.top() + k * row, l.notes.width(), row);
    if (m_map.axes.size() > 1 && !lines[k].startsWith(QStringLiteral("No ")))
      painter.fillRect(
          QRectF(line.left(), line.center().y() - 5 * l.scale, 10 * l.scale, 10 * l.scale),
          kBestMark);
    painter.drawText(line.adjusted(16 * l.scale, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     lines[k]);
  }
  painter.restore();
}

// One parameter: accuracy (left axis) and ε (right axis) against it, a line each.
void SweepMapChart::drawOneAxisSweep(QPainter& painter, const Layout& l) const {
  const double pad = 0.05 * (m_accuracyHigh - m_accuracyLow);
  const double aLow = std::max(0.0, m_accuracyLow - pad),
               aHigh = std::min(1.0, m_accuracyHigh + pad);
  double eHigh = 0;
  for (double e : m_map.epsilon)
    if (std::isfinite(e)) eHigh = std::max(eHigh, 1.1 * e);
  if (!(eHigh > 0)) eHigh = 1;
  painter.setPen(kInk);
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(l.plot);
  drawXAxis(painter, l);
  painter.setFont(mapFont(l.scale, 9, false));
  for (int k = 0; k <= 4; ++k) {
    const double y = l.plot.bottom() - k * l.plot.height() / 4;
    painter.setPen(kAccuracyLine);
    painter.drawText(
        QRectF(l.plot.left() - 70 * l.scale, y - 9 * l.scale, 62 * l.scale, 18 * l.scale),
        Qt::AlignRight | Qt::AlignVCenter, formatPercent(aLow + k * (aHigh - aLow) / 4));
    painter.setPen(kEpsilonLine);
    painter.drawText(
        QRectF(l.plot.right() + 8 * l.scale, y - 9 * l.scale, 70 * l.scale, 18 * l.scale),
        Qt::AlignLeft | Qt::AlignVCenter, formatEpsilon(k * eHigh / 4));
  }
  const auto line = [&](const std::vector<double>& values, double low, double high, QColor colour,
                        Qt::PenStyle style) {
    QPolygonF points;
    for (int i = 0; i < m_map.nx(); ++i) {
      const double v = values[static_cast<std::size_t>(i)];
      if (!std::isfinite(v)) continue;
      points << QPointF(toPoint(l, m_map.axes[0].centres[static_cast<std::size_t>(i)], 0).x(),
                        yOf1D(l, v, low, high));
    }
    painter.setPen(QPen(colour, 2.5 * l.scale, style));
    painter.drawPolyline(points);
    painter.setBrush(colour);
    for (const QPointF& p : points) painter.drawEllipse(p, 4 * l.scale, 4 * l.scale);
  };
  line(m_map.accuracy, aLow, aHigh, kAccuracyLine, Qt::SolidLine);
  line(m_map.epsilon, 0, eHigh, kEpsilonLine, Qt::DashLine);
  painter.setFont(mapFont(l.scale, 9.5, true));
  painter.setPen(kAccuracyLine);
  painter.drawText(l.plot.adjusted(10 * l.scale, 6 * l.scale, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                   QObject::tr("— test accuracy (left axis)"));
  painter.setPen(kEpsilonLine);
  painter.drawText(l.plot.adjusted(10 * l.scale, 24 * l.scale, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                   QObject::tr("- - final ε (right axis)"));
}

}  // namespace epsilon::ui

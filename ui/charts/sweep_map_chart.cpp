// The sweep map's layout, cells, colour bar and hit testing; the lines, marks, axes and notes
// are in sweep_map_chart_draw.cpp.
#include "ui/charts/sweep_map_chart.h"

#include <QObject>
#include <QPainter>
#include <algorithm>
#include <array>
#include <cmath>

#include "base/io/number_format.h"
#include "ui/charts/drawn_text.h"
#include "ui/charts/sweep_map_paint.h"

namespace epsilon::ui {

QString sweepMapTitle() {
  return QObject::tr("Sweep map");
}
QString sweepMapFileStem() {
  return QStringLiteral("sweep-map");
}

QColor accuracyColour(double t) {
  // Viridis (van der Walt & Smith, matplotlib 2015): ordered in lightness, readable in grey and
  // by most colour-blind readers; five of its stops, interpolated linearly.
  static const std::array<QColor, 5> stops{QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                           QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                           QColor(0xfd, 0xe7, 0x25)};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4.0;
  const int k = std::min(3, static_cast<int>(t));
  const double f = t - k;
  const QColor& a = stops[static_cast<std::size_t>(k)];
  const QColor& b = stops[static_cast<std::size_t>(k + 1)];
  return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                          static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                          static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

QFont mapFont(double scale, double points, bool bold) {
  QFont font;
  font.setPointSizeF(points * scale);
  font.setBold(bold);
  return font;
}

void SweepMapChart::setRuns(const std::vector<RunRecord>& runs) {
  // The shown runs are copied only when some are hidden (10,000 records at every redraw).
  std::vector<RunRecord> someShown;
  const bool allShown =
      std::all_of(runs.begin(), runs.end(), [](const RunRecord& run) { return run.visible; });
  m_names.clear();
  m_labels.clear();
  for (const RunRecord& run : runs) {
    if (!run.visible) continue;
    if (!allShown) someShown.push_back(run);
    m_names.insert(run.id, run.name);
    m_labels.insert(run.id, run.privacyLabel);
  }
  m_map = buildSweepMap(allShown ? runs : someShown);
  m_levels = epsilonLevels(m_map, 4);
  m_accuracyLow = INFINITY;
  m_accuracyHigh = -INFINITY;
  for (double a : m_map.accuracy) {
    if (!std::isfinite(a)) continue;
    m_accuracyLow = std::min(m_accuracyLow, a);
    m_accuracyHigh = std::max(m_accuracyHigh, a);
  }
  if (!(m_accuracyHigh >= m_accuracyLow)) m_accuracyLow = 0, m_accuracyHigh = 1;
  if (m_accuracyHigh - m_accuracyLow < 0.01) {
    m_accuracyLow = std::max(0.0, m_accuracyLow - 0.005);
    m_accuracyHigh = std::min(1.0, m_accuracyHigh + 0.005);
  }
}

SweepMapChart::Layout SweepMapChart::layout(const QRectF& target) const {
  Layout l;
  l.scale = std::clamp(std::min(target.width() / 1000.0, target.height() / 650.0), 0.9, 2.5);
  // Drawn for 9-point tick labels at scale 1 (the run charts' size in normal mode). Only the
  // texts of a drawing without a map grow with the charts' text: a map's margins, cells and
  // colour bar are fitted to its size (at 1024×768 a larger scale left no plot).
  if (m_textPoints > 0 && !m_map.valid()) l.scale = std::max(l.scale, m_textPoints / 9.0);
  const double s = l.scale;
  const double lines = std::max<double>(1, m_levels.size());
  l.title = QRectF(target.left(), target.top() + 6 * s, target.width(), 26 * s);
  l.caption = QRectF(target.left(), l.title.bottom(), target.width(), 22 * s);
  l.notes = QRectF(target.left() + 16 * s, target.bottom() - (lines * 19 + 8) * s,
                   target.width() - 32 * s, lines * 19 * s);
  const double left = 92 * s, right = 118 * s, bottom = 58 * s;
  l.plot = QRectF(QPointF(target.left() + left, l.caption.bottom() + 12 * s),
                  QPointF(target.right() - right, l.notes.top() - bottom));
  l.colourBar = QRectF(l.plot.right() + 22 * s, l.plot.top(), 20 * s, l.plot.height());
  return l;
}

QPointF SweepMapChart::toPoint(const Layout& l, double x, double y) const {
  const auto& ex = m_map.axes[0].edges;
  const double fx = (x - ex.front()) / (ex.back() - ex.front());
  double fy = 0.5;
  if (m_map.axes.size() > 1) {
    const auto& ey = m_map.axes[1].edges;
    fy = (y - ey.front()) / (ey.back() - ey.front());
  }
  return {l.plot.left() + fx * l.plot.width(), l.plot.bottom() - fy * l.plot.height()};
}

QRectF SweepMapChart::cellRect(const QRectF& target, int cell) const {
  if (!m_map.valid() || cell < 0 || cell >= m_map.nx() * m_map.ny()) return {};
  return cellIn(layout(target), cell);
}

QRectF SweepMapChart::cellIn(const Layout& l, int cell) const {
  const auto i = static_cast<std::size_t>(cell % m_map.nx());
  const auto j = static_cast<std::size_t>(cell / m_map.nx());
  const auto& ex = m_map.axes[0].edges;
  if (m_map.axes.size() < 2)
    return QRectF(QPointF(toPoint(l, ex[i], 0).x(), l.plot.top()),
                  QPointF(toPoint(l, ex[i + 1], 0).x(), l.plot.bottom()));
  const auto& ey = m_map.axes[1].edges;
  return QRectF(toPoint(l, ex[i], ey[j + 1]), toPoint(l, ex[i + 1], ey[j])).normalized();
}

int SweepMapChart::runAt(const QRectF& target, const QPointF& point) const {
  for (int c = 0; c < m_map.nx() * m_map.ny(); ++c)
    if (cellRect(target, c).contains(point)) return m_map.runIds[static_cast<std::size_t>(c)];
  return 0;
}

QString SweepMapChart::describeRun(int runId) const {
  for (std::size_t c = 0; c < m_map.runIds.size(); ++c) {
    if (m_map.runIds[c] != runId || runId == 0) continue;
    const QString name = drawnText(m_names.value(runId));
    if (!std::isfinite(m_map.accuracy[c])) return QObject::tr("%1: not finished").arg(name);
    return QObject::tr("%1: test accuracy %2, ε = %3 (%4)")
        .arg(name, formatPercent(m_map.accuracy[c]), formatEpsilon(m_map.epsilon[c]),
             m_labels.value(runId));
  }
  return {};
}

void SweepMapChart::render(QPainter& painter, const QRectF& target) const {
  painter.save();
  painter.fillRect(target, Qt::white);
  const Layout l = layout(target);
  painter.setPen(QColor(0x20, 0x20, 0x20));
  painter.setFont(mapFont(l.scale, 13, true));
  // The longest title that fits the width; the last, shortest one elided if need be.
  QStringList titles{sweepMapTitle()};
  if (m_map.valid()) {
    QStringList words;
    for (const auto& axis : m_map.axes) words << axis.word;
    const QString over = words.join(QStringLiteral(" × "));
    titles =
        m_map.axes.size() > 1
            ? QStringList{QObject::tr("Final test accuracy over %1, with iso-ε lines").arg(over),
                          QObject::tr("Final test accuracy over %1").arg(over),
                          QObject::tr("Accuracy over %1").arg(over)}
            : QStringList{QObject::tr("Final test accuracy and ε against %1").arg(over),
                          QObject::tr("Accuracy and ε against %1").arg(over)};
  }
  QString title = drawnText(titles.back());
  for (const QString& candidate : titles) {
    if (painter.fontMetrics().horizontalAdvance(drawnText(candidate)) <= l.title.width() - 8) {
      title = drawnText(candidate);
      break;
    }
  }
  title = painter.fontMetrics().elidedText(title, Qt::ElideRight, int(l.title.width()) - 8);
  painter.drawText(l.title, Qt::AlignCenter, title);
  painter.setFont(mapFont(l.scale, 9.5, false));
  const QString caption = sweepMapCaption(m_map);
  painter.drawText(l.caption, Qt::AlignCenter,
                   drawnText(caption.isEmpty() ? QObject::tr("ε: no finished run yet")
                                               : QObject::tr("ε of each run: %1").arg(caption)));
  if (!m_map.valid()) {
    // No axes to leave room for: the message takes the drawing's width.
    painter.setFont(messageFont(target));
    painter.drawText(QRectF(target.left() + 16 * l.scale, l.plot.top(),
                            target.width() - 32 * l.scale, l.plot.height()),
                     Qt::AlignCenter | Qt::TextWordWrap, drawnText(m_map.problem));
  } else if (m_map.axes.size() > 1) {
    drawCells(painter, l, false);
    drawContours(painter, l);
    drawCells(painter, l, true);
    drawBest(painter, l);
    drawAxes(painter, l);
    drawColourBar(painter, l);
    drawNotes(painter, l);
  } else {
    drawOneAxisSweep(painter, l);
    drawNotes(painter, l);
  }
  painter.restore();
}

QFont SweepMapChart::messageFont(const QRectF& target) const {
  return mapFont(layout(target).scale, 9.5, false);
}

// Fills the cells, or (texts) writes each cell's accuracy and ε on a patch of its colour, so
// that an iso-ε line drawn between the two passes never runs through the numbers.
void SweepMapChart::drawCells(QPainter& painter, const Layout& l, bool texts) const {
  painter.setFont(mapFont(l.scale, 9.5, false));
  for (int cell = 0; cell < m_map.nx() * m_map.ny(); ++cell) {
    const auto c = static_cast<std::size_t>(cell);
    const QRectF rect = cellIn(l, cell);
    const double a = m_map.accuracy[c];
    const double t = (a - m_accuracyLow) / (m_accuracyHigh - m_accuracyLow);
    const QColor fill = std::isfinite(a) ? accuracyColour(t) : QColor(0xee, 0xee, 0xee);
    if (!texts) {
      painter.fillRect(rect, fill);
      painter.setPen(QPen(Qt::white, 1));
      painter.drawRect(rect);
      continue;
    }
    if (rect.width() < 56 * l.scale || rect.height() < 34 * l.scale) continue;
    const QString text = m_map.runIds[c] == 0 ? QObject::tr("no run")
                         : std::isfinite(a)   ? formatPercent(a) + QStringLiteral("\nε ") +
                                                  formatEpsilon(m_map.epsilon[c])
                                            : QObject::tr("not finished");
    const QRectF inked = painter.boundingRect(rect, Qt::AlignCenter, text);
    painter.fillRect(inked.adjusted(-3 * l.scale, -1, 3 * l.scale, 1), fill);
    // Dark text on the light end of the scale, white on the dark end, grey on an empty cell.
    painter.setPen(!std::isfinite(a) ? QColor(0x50, 0x50, 0x50)
                   : t > 0.55        ? QColor(0x10, 0x10, 0x10)
                                     : QColor(Qt::white));
    painter.drawText(rect, Qt::AlignCenter, text);
  }
}

void SweepMapChart::drawColourBar(QPainter& painter, const Layout& l) const {
  const QRectF bar = l.colourBar;
  const int steps = 64;
  for (int k = 0; k < steps; ++k) {
    const double top = bar.bottom() - (k + 1) * bar.height() / steps;
    painter.fillRect(QRectF(bar.left(), top, bar.width(), bar.height() / steps + 0.5),
                     accuracyColour((k + 0.5) / steps));
  }
  painter.setPen(QColor(0x20, 0x20, 0x20));
  painter.setFont(mapFont(l.scale, 9, false));
  const QRectF labels(bar.right() + 4 * l.scale, bar.top() - 10 * l.scale, 80 * l.scale,
                      bar.height() + 20 * l.scale);
  painter.drawText(labels, Qt::AlignTop | Qt::AlignLeft, formatPercent(m_accuracyHigh));
  painter.drawText(labels, Qt::AlignBottom | Qt::AlignLeft, formatPercent(m_accuracyLow));
  painter.save();
  painter.translate(bar.right() + 24 * l.scale, bar.center().y());
  painter.rotate(90);
  painter.drawText(QRectF(-bar.height() / 2, -10 * l.scale, bar.height(), 20 * l.scale),
                   Qt::AlignCenter, QObject::tr("test accuracy"));
  painter.restore();
}

}  // namespace epsilon::ui

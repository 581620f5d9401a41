// RunCharts: texts that fit. Qt Charts elides a chart title, an axis title or a tick label
// that is wider than its room ("Test accuracy v…", "5001e+…"), and on a projector a chart is a
// quarter of what the docks leave of a 1280-pixel window, at large fonts. So each chart shows
// the longest of its titles that fits its width, each axis the longest of its titles that fits
// its length, and each value axis as many round ticks as its labels have room for, in a
// number format without exponents.
#include <QChart>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/charts/drawn_text.h"
#include "ui/charts/run_charts.h"

namespace epsilon::ui {

namespace {

QStringList axisTitles(ChartKind kind, Qt::Orientation orientation, bool logarithmic) {
  QStringList titles;
  if (orientation == Qt::Horizontal) {
    switch (kind) {
      case ChartKind::AccuracyVsEpoch:
      case ChartKind::EpsilonVsEpoch:
        titles = {QObject::tr("epoch")};
        break;
      case ChartKind::AccuracyVsEpsilon:
        titles = {QObject::tr("ε spent"), QObject::tr("ε")};
        break;
      case ChartKind::LossVsStep:
        titles = {QObject::tr("step (lot)"), QObject::tr("step")};
        break;
    }
  } else {
    switch (kind) {
      case ChartKind::AccuracyVsEpoch:
      case ChartKind::AccuracyVsEpsilon:
        titles = {QObject::tr("accuracy (%)"), QObject::tr("acc. (%)"), QObject::tr("%")};
        break;
      case ChartKind::EpsilonVsEpoch:
        titles = {QObject::tr("ε")};
        break;
      case ChartKind::LossVsStep:
        titles = {QObject::tr("loss (nats)"), QObject::tr("loss")};
        break;
    }
  }
  if (!logarithmic) return titles;
  // The scale is said when there is room: first in full, then short, then not at all.
  QStringList withScale;
  for (const QString& t : titles) withScale << t + QObject::tr(" (log scale)");
  for (const QString& t : titles) withScale << t + QObject::tr(" (log)");
  return withScale + titles;
}

// The first of `texts` (longest first) no wider than `room` in `font`; else the last.
QString longestFitting(const QStringList& texts, const QFont& font, qreal room) {
  const QFontMetricsF metrics(font);
  for (const QString& text : texts)
    if (metrics.horizontalAdvance(text) <= room) return text;
  return texts.isEmpty() ? QString() : texts.back();
}

// The smallest round step (1, 2, 2.5 or 5 × 10^k) at least `raw`.
double niceStep(double raw) {
  if (!(raw > 0)) return 1.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  return 10 * magnitude;
}

// The next smaller round step: 10 → 5 → 2.5 → 2 → 1.
double niceBelow(double step) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double m = step / magnitude;
  for (double candidate : {5.0, 2.5, 2.0, 1.0})
    if (candidate < m * (1 - 1e-9)) return candidate * magnitude;
  return 0.5 * magnitude;
}

// Decimals that show every multiple of `step` exactly (0 for whole steps).
int decimalsFor(double step) {
  int d = 0;
  while (d < 6 && std::abs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) >
                      1e-6 * std::max(1.0, step * std::pow(10.0, d)))
    ++d;
  return d;
}

// The room along an axis: the plot area's width or height once laid out, else a guess.
qreal axisRoom(const QChart* chart, Qt::Orientation orientation) {
  const QRectF plot = chart->plotArea();
  const QSizeF size = chart->size();
  if (orientation == Qt::Horizontal) return plot.width() > 1 ? plot.width() : 0.7 * size.width();
  return plot.height() > 1 ? plot.height() : 0.6 * size.height();
}

// How many tick labels fit along the axis. Qt Charts gives each label an equal share of the
// axis and elides a label wider than its share: horizontal labels need their width and two
// characters, vertical ones one and a half lines of text.
qreal labelsThatFit(const QFont& font, const QString& widest, qreal room,
                    Qt::Orientation orientation) {
  const QFontMetricsF metrics(font);
  const qreal each = orientation == Qt::Horizontal
                         ? metrics.horizontalAdvance(widest) + 2 * metrics.averageCharWidth()
                         : 1.5 * metrics.height();
  return room / std::max<qreal>(each, 1.0);
}

// Two labels (the ends) must fit: on a very small chart the labels' font shrinks until they
// do (never below 6 points) rather than be elided.
QFont fittingFont(QFont font, const QString& widest, qreal room, Qt::Orientation orientation) {
  while (font.pointSizeF() > 6 && labelsThatFit(font, widest, room, orientation) < 2)
    font.setPointSizeF(font.pointSizeF() - 1);
  return font;
}

void fitValueTicks(QValueAxis* axis, const QFont& base, qreal room, Qt::Orientation orientation) {
  const double low = axis->min(), high = axis->max();
  const double largest = std::max(std::abs(low), std::abs(high));
  // Numbers from 1e6 up take an exponent; below they are written out (1000, not 1e+03).
  const bool exponent = largest >= 1e6;
  const auto widestLabel = [&](const QString& format) {
    return exponent
               ? QStringLiteral("8.8e+08")
               : QString::asprintf(format.toLatin1().constData(), low < 0 ? -largest : largest);
  };
  // Twice: the interval chosen for the widest whole-number label may need decimals.
  double step = 1.0;
  QString format = QStringLiteral("%.0f");
  QFont font = base;
  for (int pass = 0; pass < 2; ++pass) {
    font = fittingFont(base, widestLabel(format), room, orientation);
    const qreal labels = labelsThatFit(font, widestLabel(format), room, orientation);
    step = niceStep((high - low) / std::clamp(static_cast<int>(labels) - 1, 1, 10));
    // At least two ticks in the range: 0 and 25 on a 0..30 axis rather than 0 alone.
    for (int i = 0; i < 8 && high > low && step > (high - low) * (1 + 1e-9); ++i)
      step = niceBelow(step);
    format = exponent ? QStringLiteral("%.2g") : QStringLiteral("%.%1f").arg(decimalsFor(step));
  }
  if (axis->labelsFont() != font) axis->setLabelsFont(font);
  // The interval before the type: a dynamic axis lays out every tick of the range at once.
  axis->setTickInterval(step);
  axis->setTickAnchor(0.0);  // ticks on multiples of the step: 40, 60, 80, 100
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setLabelFormat(format);
}

void fitLogTicks(QLogValueAxis* axis, const QFont& base, qreal room, Qt::Orientation orientation) {
  if (!(axis->min() > 0) || !(axis->max() > axis->min())) return;
  const double decades = std::log10(axis->max() / axis->min());
  const QString low = QString::asprintf("%g", axis->min()),
                high = QString::asprintf("%g", axis->max());
  const QString widest = low.size() > high.size() ? low : high;
  const QFont font = fittingFont(base, widest, room, orientation);
  if (axis->labelsFont() != font) axis->setLabelsFont(font);
  const int intervals =
      std::max(1, static_cast<int>(labelsThatFit(font, widest, room, orientation)) - 1);
  // A label per decade when they fit, else every second or third decade (base 100, 1000).
  const int stride = std::max(1, static_cast<int>(std::ceil(decades / intervals - 1e-9)));
  axis->setBase(std::pow(10.0, stride));
  axis->setMinorTickCount(stride == 1 ? -1 : 0);
  if (stride > 1)  // whole strides from the top, so every label is a power of the base
    axis->setMin(axis->max() / std::pow(10.0, stride * std::ceil(decades / stride - 1e-9)));
}

// An axis's range, whether linear or logarithmic.
std::pair<double, double> axisRange(const QAbstractAxis* axis) {
  if (const auto* value = qobject_cast<const QValueAxis*>(axis))
    return {value->min(), value->max()};
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return {log->min(), log->max()};
  return {0.0, 0.0};
}

}  // namespace

QStringList chartTitles(ChartKind kind) {
  switch (kind) {
    case ChartKind::AccuracyVsEpoch:
      return {chartTitle(kind), QObject::tr("Test accuracy"), QObject::tr("Accuracy")};
    case ChartKind::EpsilonVsEpoch:
      return {chartTitle(kind), QObject::tr("ε vs epoch"), QObject::tr("ε")};
    case ChartKind::AccuracyVsEpsilon:
      return {chartTitle(kind), QObject::tr("Accuracy vs ε"), QObject::tr("Frontier")};
    case ChartKind::LossVsStep:
      return {chartTitle(kind), QObject::tr("Training loss"), QObject::tr("Loss")};
  }
  return {};
}

// The room along each axis that titles and ticks are fitted to. Qt Charts sizes the margins
// around the plot to the labels, so the plot area depends on the fit, and fitting to the plot
// area alone can alternate between two layouts for ever, each event-loop round relaying out
// the chart (an empty chart of 204×169 pixels in presentation mode did: ticks of 1 made the
// plot 126 px wide, where ticks of 0.5 fit, which made it 121 px wide, where only ticks of 1
// fit, …). So while nothing else about the chart changes, the fit keeps to the smallest plot
// area seen, where its labels also fit every larger one, and the layout settles.
QSizeF RunCharts::fitRoom(ChartKind kind) {
  const QChart* c = chart(kind);
  FitMemo& memo = m_fitMemo[static_cast<std::size_t>(kind)];
  const QAbstractAxis* horizontal = axisInUse(kind, Qt::Horizontal);
  const QAbstractAxis* vertical = axisInUse(kind, Qt::Vertical);
  const auto [xLow, xHigh] = axisRange(horizontal);
  const auto [yLow, yHigh] = axisRange(vertical);
  const std::array<double, 4> ranges{xLow, xHigh, yLow, yHigh};
  const QSizeF room(axisRoom(c, Qt::Horizontal), axisRoom(c, Qt::Vertical));
  if (memo.chartSize != c->size() || memo.horizontal != horizontal || memo.vertical != vertical ||
      memo.ranges != ranges || memo.caption != m_caption || memo.presentation != m_presentation ||
      memo.fontStep != m_fontStep)
    memo = {c->size(), horizontal, vertical, ranges, m_caption, m_presentation, m_fontStep, room};
  else
    memo.room = memo.room.boundedTo(room);
  return memo.room;
}

void RunCharts::fitTexts(ChartKind kind) {
  QChart* c = chart(kind);
  const QMarginsF margins = c->margins();
  // The title's room: the chart less its margins and the background's rounded frame.
  const qreal titleRoom = c->size().width() - margins.left() - margins.right() - 16;
  const QString title = longestFitting(chartTitles(kind), c->titleFont(),
                                       titleRoom > 0 ? titleRoom : 1e9);  // 0 before layout
  c->setTitle(m_caption.isEmpty()
                  ? title
                  : title + QStringLiteral("<br><small>") + drawnText(m_caption).toHtmlEscaped() +
                        QStringLiteral("</small>"));
  const bool sized = c->size().width() > 1;
  const QSizeF fit = fitRoom(kind);
  for (Qt::Orientation orientation : {Qt::Horizontal, Qt::Vertical}) {
    QAbstractAxis* axis = axisInUse(kind, orientation);
    const bool log = qobject_cast<QLogValueAxis*>(axis) != nullptr;
    const qreal along = orientation == Qt::Horizontal ? fit.width() : fit.height();
    const qreal room = sized ? along - 4 : 1e9;
    axis->setTitleText(longestFitting(axisTitles(kind, orientation, log), axis->titleFont(), room));
  }
}

void RunCharts::fitTicks(ChartKind kind) {
  QChart* c = chart(kind);
  const QSizeF fit = fitRoom(kind);
  for (Qt::Orientation orientation : {Qt::Horizontal, Qt::Vertical}) {
    const qreal along = orientation == Qt::Horizontal ? fit.width() : fit.height();
    const qreal room = c->size().width() > 1 ? along : 400.0;
    QAbstractAxis* axis = axisInUse(kind, orientation);
    if (auto* value = qobject_cast<QValueAxis*>(axis))
      fitValueTicks(value, m_labelsFont, room, orientation);
    else if (auto* log = qobject_cast<QLogValueAxis*>(axis))
      fitLogTicks(log, m_labelsFont, room, orientation);
  }
  // The vertical axis's labels stand beside the plot: Qt Charts elides them past about a
  // fifth of the chart's width ("10…" for 10000), so their font shrinks instead.
  const qreal besideRoom = c->size().width() > 1 ? 0.2 * c->size().width() : 1e9;
  QAbstractAxis* vertical = axisInUse(kind, Qt::Vertical);
  QString widest;
  if (auto* value = qobject_cast<QValueAxis*>(vertical))
    for (double v : {value->min(), value->max()})
      widest = std::max(widest, QString::asprintf(value->labelFormat().toLatin1().constData(), v),
                        [](const QString& a, const QString& b) { return a.size() < b.size(); });
  if (auto* log = qobject_cast<QLogValueAxis*>(vertical))
    for (double v : {log->min(), log->max()})
      widest = std::max(widest, QString::asprintf("%g", v),
                        [](const QString& a, const QString& b) { return a.size() < b.size(); });
  QFont font = vertical->labelsFont();
  while (font.pointSizeF() > 6 && QFontMetricsF(font).horizontalAdvance(widest) > besideRoom)
    font.setPointSizeF(font.pointSizeF() - 1);
  if (font != vertical->labelsFont()) vertical->setLabelsFont(font);
}

}  // namespace epsilon::ui

#include "ui/widgets/gradient_norm_view.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "base/io/number_format.h"

namespace epsilon::ui {

namespace {
const QColor kBarColour(70, 130, 180);
const QColor kClipColour(200, 30, 30);
const QColor kCurveColour(40, 150, 60);
}  // namespace

GradientNormView::GradientNormView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("gradientNormView"));
  setToolTip(explanation());
}

QString GradientNormView::explanation() {
  return tr(
      "Per-example gradient norms of the last lot, before clipping. Red line: the clip "
      "norm C; every bar right of it is clipped to C. A C far right of the bars adds noise "
      "for nothing; far left, it clips almost every gradient.");
}

void GradientNormView::setSample(std::shared_ptr<const train::GradientNormSample> sample,
                                 const privacy::PrivatizerOptions& options,
                                 const QString& runName) {
  m_sample = std::move(sample);
  m_options = options;
  m_runName = runName;
  m_histogram = m_sample ? train::normViewHistogram(*m_sample) : train::NormHistogram{};
  // A caption cut to one line is whole in the tooltip.
  setToolTip(m_sample ? caption() + QStringLiteral("\n\n") + explanation() : explanation());
  update();
}

void GradientNormView::clear() {
  setSample(nullptr, {}, {});
}

QString GradientNormView::caption() const {
  if (!m_sample) return tr("No gradient norms yet: start a run.");
  QString text =
      tr("%1 · step %2 · %3 units").arg(m_runName).arg(m_sample->step).arg(m_sample->norms.size());
  if (std::isfinite(m_sample->clipNorm))
    text += tr(" · C = %1").arg(formatNumber(m_sample->clipNorm, 3));
  if (m_sample->privatizer != privacy::PrivatizerKind::None)
    text += tr(" · %1% clipped").arg(formatNumber(100.0 * m_sample->fractionClipped, 3));
  return text;
}

// Caption (one line), a third of a line, the plot, the axis' labels (one line): 2.3 lines and
// 4 pixels besides the plot.
QSize GradientNormView::minimumSizeHint() const {
  const int line = fontMetrics().height();
  return {120, static_cast<int>(std::ceil((2.3 + kMinPlotLines) * line)) + 4};
}

int GradientNormView::captionLines() const {
  const int line = fontMetrics().height();
  const QRect wrapped = fontMetrics().boundingRect(QRect(0, 0, width() - 8, 4 * line),
                                                   Qt::AlignLeft | Qt::TextWordWrap, caption());
  return wrapped.height() > line && height() >= minimumSizeHint().height() + line ? 2 : 1;
}

QRectF GradientNormView::plotArea() const {
  const int line = fontMetrics().height();
  const double top = 2 + (captionLines() + 0.3) * line;
  return {8, top, width() - 16.0, height() - top - line - 2};
}

void GradientNormView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().base());
  const int line = fontMetrics().height();
  painter.setPen(palette().text().color());
  // One line keeps the run's name and the fraction clipped, the middle elided.
  const int lines = captionLines();
  const QString text =
      lines == 2 ? caption() : fontMetrics().elidedText(caption(), Qt::ElideMiddle, width() - 8);
  painter.drawText(QRect(4, 2, width() - 8, lines * line), Qt::AlignLeft | Qt::TextWordWrap, text);
  if (!m_sample || m_histogram.counts.empty()) return;
  const QRectF plot = plotArea();
  if (plot.width() < 20 || plot.height() < 20) return;
  drawBars(painter, plot);
  drawClipLine(painter, plot);
  if (m_sample->privatizer == privacy::PrivatizerKind::Tanh) drawCurve(painter, plot);
  painter.setPen(palette().text().color());
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  painter.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), line), Qt::AlignLeft,
                   QStringLiteral("0"));
  painter.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), line), Qt::AlignRight,
                   tr("‖g‖ = %1").arg(formatNumber(m_histogram.max, 3)));
}

void GradientNormView::drawBars(QPainter& painter, const QRectF& plot) const {
  const long long tallest = *std::max_element(m_histogram.counts.begin(), m_histogram.counts.end());
  if (tallest == 0) return;
  const double w = plot.width() / static_cast<double>(m_histogram.counts.size());
  for (std::size_t i = 0; i < m_histogram.counts.size(); ++i) {
    const double h =
        plot.height() * static_cast<double>(m_histogram.counts[i]) / static_cast<double>(tallest);
    painter.fillRect(QRectF(plot.left() + i * w + 1, plot.bottom() - h, w - 2, h), kBarColour);
  }
}

void GradientNormView::drawClipLine(QPainter& painter, const QRectF& plot) const {
  const double c = m_sample->clipNorm;
  if (!std::isfinite(c) || m_histogram.max <= 0) return;
  const double x = plot.left() + plot.width() * std::min(1.0, c / m_histogram.max);
  painter.setPen(QPen(kClipColour, 2));
  painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  painter.drawText(QPointF(x + 3, plot.top() + fontMetrics().ascent()), QStringLiteral("C"));
}

// The tanh filter acts entry by entry, g ↦ c·tanh(g/k) (privatizerCurve): drawn over the same
// horizontal range with its own vertical scale (0 to c), labelled so it is not read as norms.
void GradientNormView::drawCurve(QPainter& painter, const QRectF& plot) const {
  const auto curve = train::privatizerCurve(m_options, m_sample->clipNorm, m_histogram.max, 101);
  double top = 0;
  for (const auto& p : curve) top = std::max(top, std::abs(p.output));
  if (curve.size() < 2 || top <= 0) return;
  QPainterPath path;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const QPointF point(plot.left() + plot.width() * curve[i].input / m_histogram.max,
                        plot.bottom() - plot.height() * curve[i].output / top);
    i == 0 ? path.moveTo(point) : path.lineTo(point);
  }
  painter.setPen(QPen(kCurveColour, 2));
  painter.drawPath(path);
  painter.drawText(
      QRectF(plot.left(), plot.top(), plot.width() - 4, fontMetrics().height()), Qt::AlignRight,
      tr("tanh filter: entry g ↦ %1·tanh(g/%2)")
          .arg(formatNumber(m_options.tanhScale, 3), formatNumber(m_options.tanhActiveRange, 3)));
}

}  // namespace epsilon::ui

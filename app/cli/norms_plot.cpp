#include "norms_plot.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>

#include "base/io/number_format.h"

namespace epsilon::cli {

namespace {

// The histogram's outline: up the left edge of each bin, across its top, down its right edge.
ui::FigureSeries histogramSeries(const train::NormHistogram& histogram) {
  ui::FigureSeries bars;
  bars.name = QStringLiteral("examples per bin (norm before clipping)");
  bars.line = ui::FigureLine::Bold;
  bars.color = QStringLiteral("#0072b2");
  const double w = histogram.binWidth();
  for (std::size_t i = 0; i < histogram.counts.size(); ++i) {
    const double left = static_cast<double>(i) * w, height = double(histogram.counts[i]);
    bars.points.insert(bars.points.end(), {QPointF(left, 0.0), QPointF(left, height),
                                           QPointF(left + w, height), QPointF(left + w, 0.0)});
  }
  return bars;
}

// The tanh filter acts entry by entry, g ↦ c·tanh(g/k) (Amian, seed 001, Alg. 1): drawn over
// the same horizontal range, scaled so its top c meets the tallest bar, and named so.
ui::FigureSeries tanhSeries(const train::GradientNormSample& sample,
                            const privacy::PrivatizerOptions& options, double maxInput,
                            double tallest) {
  ui::FigureSeries curve;
  curve.name = QStringLiteral("tanh filter: entry g ↦ %1·tanh(g/%2), scaled to the bars")
                   .arg(ui::formatNumber(options.tanhScale, 3),
                        ui::formatNumber(options.tanhActiveRange, 3));
  curve.color = QStringLiteral("#009e73");
  const auto points = train::privatizerCurve(options, sample.clipNorm, maxInput, 101);
  double top = 0.0;
  for (const auto& p : points) top = std::max(top, std::abs(p.output));
  if (top <= 0.0) return curve;
  for (const auto& p : points) curve.points.emplace_back(p.input, tallest * p.output / top);
  return curve;
}

}  // namespace

ui::Figure gradientNormFigure(const train::GradientNormSample& sample,
                              const privacy::PrivatizerOptions& options, const QString& runName) {
  const train::NormHistogram histogram = train::normViewHistogram(sample);  // as the GUI's
  const double c = sample.clipNorm;
  long long tallest = 1;
  for (const long long count : histogram.counts) tallest = std::max(tallest, count);

  ui::Figure figure;
  figure.title = QStringLiteral("Gradient norms of the last lot · %1 · step %2 · %3 units")
                     .arg(runName)
                     .arg(sample.step)
                     .arg(sample.norms.size());
  if (sample.privatizer != privacy::PrivatizerKind::None)
    figure.title +=
        QStringLiteral(" · %1% clipped").arg(ui::formatNumber(100.0 * sample.fractionClipped, 3));
  figure.x = {QStringLiteral("L2 norm of an example's gradient before clipping"), false, 0.0,
              histogram.max};
  figure.y = {QStringLiteral("examples"), false, 0.0, 1.05 * static_cast<double>(tallest)};
  figure.series.push_back(histogramSeries(histogram));
  if (std::isfinite(c)) {
    ui::FigureSeries line;
    line.name = QStringLiteral("clip norm C = %1").arg(ui::formatNumber(c, 3));
    line.line = ui::FigureLine::Dashed;
    line.color = QStringLiteral("#d55e00");
    line.points = {QPointF(c, 0.0), QPointF(c, 1.05 * static_cast<double>(tallest))};
    figure.series.push_back(line);
  }
  if (sample.privatizer == privacy::PrivatizerKind::Tanh) {
    ui::FigureSeries curve =
        tanhSeries(sample, options, histogram.max, static_cast<double>(tallest));
    if (!curve.points.empty()) figure.series.push_back(curve);
  }
  return figure;
}

QString gradientNormPlotPath(const QString& plotPath) {
  const QFileInfo info(plotPath);
  const QString suffix = info.suffix();
  const QString base = suffix.isEmpty() ? plotPath : plotPath.chopped(suffix.size() + 1);
  return base + QStringLiteral("-gradient-norms") +
         (suffix.isEmpty() ? QString() : QStringLiteral(".") + suffix);
}

}  // namespace epsilon::cli

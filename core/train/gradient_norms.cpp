#include "core/train/gradient_norms.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::train {

NormHistogram normViewHistogram(const GradientNormSample& sample) {
  constexpr double kHeadroom = 1.25;
  double largest = 0.0;
  for (const double n : sample.norms)
    if (std::isfinite(n)) largest = std::max(largest, n);
  const double c = sample.clipNorm;
  const double span = std::max(largest, std::isfinite(c) ? kHeadroom * c : 0.0);
  return normHistogram(sample.norms, kNormViewBins, span > 0.0 ? span : 0.0);
}

NormHistogram normHistogram(std::span<const double> values, int bins, double max) {
  if (bins < 1)
    throw ConfigError("histogram bins: expected an integer >= 1, got " + std::to_string(bins));
  NormHistogram h;
  if (!(max > 0.0) || !std::isfinite(max)) {
    max = 0.0;
    for (double v : values) {
      if (std::isfinite(v)) max = std::max(max, v);
    }
    if (max <= 0.0) max = 1.0;
  }
  h.max = max;
  h.counts.assign(static_cast<std::size_t>(bins), 0);
  const double width = max / static_cast<double>(bins);
  for (double v : values) {
    if (!(v >= 0.0 && v <= max)) {
      ++h.overflow;
      continue;
    }
    const auto bin = std::min<std::size_t>(static_cast<std::size_t>(bins - 1),
                                           static_cast<std::size_t>(v / width));
    ++h.counts[bin];
  }
  return h;
}

std::vector<CurvePoint> privatizerCurve(const privacy::PrivatizerOptions& options, double clipNorm,
                                        double maxInput, int points) {
  if (points < 2)
    throw ConfigError("curve points: expected an integer >= 2, got " + std::to_string(points));
  if (!(maxInput > 0.0 && std::isfinite(maxInput))) {
    throw ConfigError("curve range: expected a finite maximum > 0, got " + shortNumber(maxInput));
  }
  std::vector<CurvePoint> curve(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i) {
    const double x = maxInput * static_cast<double>(i) / static_cast<double>(points - 1);
    double y = x;
    switch (options.kind) {
      case privacy::PrivatizerKind::Clip:
      case privacy::PrivatizerKind::Adaptive:
        y = std::min(x, clipNorm);
        break;
      case privacy::PrivatizerKind::Tanh:
        y = options.tanhScale * std::tanh(x / options.tanhActiveRange);
        break;
      case privacy::PrivatizerKind::None:
        break;
    }
    curve[static_cast<std::size_t>(i)] = {x, y};
  }
  return curve;
}

}  // namespace epsilon::train

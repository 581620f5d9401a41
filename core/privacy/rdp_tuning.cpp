#include "core/privacy/rdp_tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/errors.h"

namespace epsilon::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// E[K] of D_{η,γ} at t = log γ < 0, written with expm1 so that γ near 1 keeps its digits:
// 1 − γ = −expm1(t), 1 − γ^η = −expm1(ηt), log(1/γ) = −t.
double meanAtLogGamma(double shape, double t) {
  if (shape == 0.0) return std::expm1(t) / (std::exp(t) * t);
  return shape * std::expm1(t) / (std::exp(t) * std::expm1(shape * t));
}

void requireTruncatedNegativeBinomial(const TuningDistribution& distribution) {
  validateTuning(distribution, "tuning");
  if (distribution.isPoisson())
    throw PrivacyError("tuning.shape: the truncated negative binomial needs a finite shape");
}

// Theorem 2: the truncated negative binomial D_{η,γ}, η finite.
std::vector<double> truncatedNegativeBinomialCurve(std::span<const double> orders,
                                                   std::span<const double> inner,
                                                   const TuningDistribution& distribution) {
  if (distribution.mean == 1.0) return {inner.begin(), inner.end()};  // K = 1
  const double eta = distribution.shape;
  const double logInverseGamma = -std::log(truncatedNegativeBinomialGamma(eta, distribution.mean));
  // min over λ̂ of (1 + η)(1 − 1/λ̂) ε(λ̂) + (1 + η) log(1/γ)/λ̂: the same for every λ.
  double selectionCost = kInf;
  for (std::size_t j = 0; j < orders.size(); ++j) {
    if (!std::isfinite(inner[j])) continue;
    const double hat = orders[j];
    selectionCost = std::min(selectionCost, (1.0 + eta) * (1.0 - 1.0 / hat) * inner[j] +
                                                (1.0 + eta) * logInverseGamma / hat);
  }
  const double logMean = std::log(distribution.mean);
  std::vector<double> curve(orders.size(), kInf);
  for (std::size_t i = 0; i < orders.size(); ++i)
    if (std::isfinite(inner[i])) curve[i] = inner[i] + selectionCost + logMean / (orders[i] - 1.0);
  return curve;
}

// Theorem 6: K ~ Poisson(μ).
std::vector<double> poissonCurve(std::span<const double> orders, std::span<const double> inner,
                                 double mean, RdpConversion conversion) {
  const double logMean = std::log(mean);
  std::vector<double> curve(orders.size(), kInf);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!std::isfinite(inner[i])) continue;
    const double lambda = orders[i];
    const double epsilonHat = std::log1p(1.0 / (lambda - 1.0));
    const double deltaHat = deltaFromRdp(orders, inner, epsilonHat, conversion).delta;
    curve[i] = inner[i] + mean * deltaHat + logMean / (lambda - 1.0);
  }
  return curve;
}

}  // namespace

double truncatedNegativeBinomialMean(double shape, double gamma) {
  if (!(gamma > 0.0 && gamma < 1.0) || !(shape >= 0.0) || !std::isfinite(shape))
    throw PrivacyError(
        "truncated negative binomial: expected gamma in (0, 1) and a finite "
        "shape >= 0, got gamma " +
        std::to_string(gamma) + ", shape " + std::to_string(shape));
  return meanAtLogGamma(shape, std::log(gamma));
}

double truncatedNegativeBinomialGamma(double shape, double mean) {
  requireTruncatedNegativeBinomial({mean, shape});
  if (mean == 1.0) return 1.0;
  if (shape == 1.0) return 1.0 / mean;  // the geometric law: E[K] = 1/γ
  // E[K] grows without bound as t = log γ → −∞ and tends to 1 as t → 0: bracket, then bisect.
  double low = -1.0;
  while (meanAtLogGamma(shape, low) < mean) low *= 2.0;
  double high = low / 2.0;
  if (meanAtLogGamma(shape, high) >= mean) high = 0.0;
  for (int iteration = 0; iteration < 200 && high - low > 1e-15 * std::fabs(low); ++iteration) {
    const double middle = 0.5 * (low + high);
    if (meanAtLogGamma(shape, middle) >= mean) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return std::exp(0.5 * (low + high));
}

std::vector<double> rdpRepeatAndSelect(std::span<const double> orders,
                                       std::span<const double> innerRdp,
                                       const TuningDistribution& distribution,
                                       RdpConversion conversion) {
  validateTuning(distribution, "tuning");
  if (orders.size() != innerRdp.size() || orders.empty())
    throw PrivacyError("repeat-and-select RDP: " + std::to_string(orders.size()) + " orders but " +
                       std::to_string(innerRdp.size()) + " RDP values");
  if (distribution.isPoisson())
    return poissonCurve(orders, innerRdp, distribution.mean, conversion);
  return truncatedNegativeBinomialCurve(orders, innerRdp, distribution);
}

}  // namespace epsilon::privacy

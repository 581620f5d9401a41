#include "core/privacy/rdp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/privacy_math.h"

namespace epsilon::privacy {

namespace {

using math::kInf;

void requireValid(double q, double sigma, double order) {
  if (!(q >= 0.0 && q <= 1.0)) {
    throw PrivacyError("RDP: sample rate q must be in [0, 1], got " + shortNumber(q));
  }
  if (!(sigma > 0.0) || !std::isfinite(sigma)) {
    throw PrivacyError("RDP: noise multiplier sigma must be finite and > 0, got " +
                       shortNumber(sigma));
  }
  if (!(order > 1.0) || !std::isfinite(order)) {
    throw PrivacyError("RDP: order alpha must be finite and > 1, got " + std::to_string(order));
  }
}

// log A_α for integer α, A_α = E_{z∼μ0}[(μ(z)/μ0(z))^α] with μ0 = N(0, σ²) and
// μ = (1−q)μ0 + q·N(1, σ²): Mironov, Talwar & Zhang 2019, Sec. 3.2,
//   A_α = Σ_{k=0}^{α} C(α,k) (1−q)^{α−k} q^k exp((k² − k)/(2σ²)),
// every term positive, summed in log space.
// log n for n = 0 … kLogTableSize − 1, the same doubles std::log gives (the default orders go
// up to 1024: a curve's integer orders asked for some 4,000 of them, for every (q, σ)).
constexpr long long kLogTableSize = 1026;
const std::vector<double>& logTable() {
  static const std::vector<double> table = [] {
    std::vector<double> logs(kLogTableSize);
    for (long long n = 0; n < kLogTableSize; ++n) logs[n] = std::log(static_cast<double>(n));
    return logs;
  }();
  return table;
}

double logOf(long long n, const std::vector<double>& table) {
  return n < kLogTableSize ? table[static_cast<std::size_t>(n)] : std::log(static_cast<double>(n));
}

double logAInteger(double q, double sigma, long long alpha) {
  const double logQ = std::log(q);
  const double log1mQ = std::log1p(-q);
  const double inverseTwoSigmaSquared = 1.0 / (2.0 * sigma * sigma);
  const std::vector<double>& logs = logTable();
  double logBinomial = 0.0;  // log C(α, k), updated as C(α, k+1) = C(α, k)·(α − k)/(k + 1)
  math::SignedLogSum sum;
  for (long long k = 0; k <= alpha; ++k) {
    const double kd = static_cast<double>(k);
    sum.add(false, logBinomial + kd * logQ + static_cast<double>(alpha - k) * log1mQ +
                       (kd * kd - kd) * inverseTwoSigmaSquared);
    logBinomial += logOf(alpha - k, logs) - logOf(k + 1, logs);
  }
  return sum.log();
}

// Σ_{k≥0} (−1)^k a_k for a Hausdorff moment sequence a_k = ∫₀¹ t^k dμ(t) by Algorithm 1 of
// Cohen, Rodriguez Villegas & Zagier 2000 ("Convergence acceleration of alternating
// series"): with n terms the error is at most 2·S/(3 + √8)^n, i.e. < 1e-18·S for n = 24.
double alternatingSum(const double* a, int n) {
  double d = std::pow(3.0 + std::sqrt(8.0), n);
  d = 0.5 * (d + 1.0 / d);
  double b = -1.0;
  double c = -d;
  double s = 0.0;
  for (int k = 0; k < n; ++k) {
    c = b - c;
    s += c * a[k];
    b = (k + n) * (k - n) * b / ((k + 0.5) * (k + 1.0));
  }
  return s / d;
}

constexpr int kAlternatingTerms = 24;

// Fractional orders below it get bounds from the integer ones (rdpPoissonGaussianBounds).
constexpr double kBoundedOrders = 64.0;

// log A_α for fractional α: Mironov, Talwar & Zhang 2019, Sec. 3.3, split at
// z0 = σ² log(1/q − 1) + 1/2 into A_α = A₀ + A₁ with
//   A₀ = Σ_i C(α,i) (1−q)^{α−i} q^i e^{(i²−i)/(2σ²)} · ½ erfc((i − z0)/(√2σ)),
//   A₁ = Σ_i C(α,i) (1−q)^i q^{α−i} e^{(j²−j)/(2σ²)} · ½ erfc((z0 − j)/(√2σ)), j = α − i.
// Writing erfc(x) = e^{−x²} erfcx(x), the powers of q and the Gaussian exponents cancel
// exactly (since (2z0 − 1)/(2σ²) = log((1−q)/q)), leaving
//   A_α = ½ (1−q)^α Σ_i C(α,i) e^{−z0²/(2σ²)} [erfcx((i − z0)/(√2σ)) + erfcx((i + z0 − α)/(√2σ))],
// which has no overflowing factors. C(α,i) changes sign for i > α and the signs are kept:
// summing magnitudes overstates RDP by more than 2× at q = 0.1. The terms only decay like
// i^{−α−2}, so a plain truncation either needs ~10⁵ terms at α near 1 or, with an absolute
// stopping rule, never stops when A_α is huge (q = 0.1, σ ≤ 1.1, large α). Instead the
// alternating tail i ≥ ⌈α⌉ is summed exactly in closed form up to 1e-18: its magnitudes
// |C(α,i)|·erfcx(·) are a Hausdorff moment sequence in i (|C(α,i)| ∝ B(i−α, α+1) =
// ∫ t^{i−α−1}(1−t)^α dt and erfcx(y) = (2/√π)∫₀^∞ e^{−u²−2uy} du, and products and sums
// of moment sequences are moment sequences), which is what alternatingSum needs.
double logAFractional(double q, double sigma, double alpha) {
  const double z0 = sigma * sigma * (std::log1p(-q) - std::log(q)) + 0.5;
  const double scale = std::sqrt(2.0) * sigma;
  const double twoSigmaSquared = 2.0 * sigma * sigma;
  // log(e^{−z0²/(2σ²)}·erfcx(x/(√2σ))) for x = i − z0 or x = i + z0 − α. While erfc(x/(√2σ))
  // is a normal double this is (x² − z0²)/(2σ²) + log erfc(·) with x² − z0² formed as a
  // product, so the large exponents (z0²/(2σ²) ≈ 600 at q = 0.001, σ = 5) cancel exactly
  // instead of leaving 1e-13 of rounding in log A_α.
  const auto logScaledErfc = [&](double x, double xMinusZ0, double xPlusZ0) {
    const double argument = x / scale;
    if (argument < 25.0)
      return xMinusZ0 * xPlusZ0 / twoSigmaSquared + std::log(std::erfc(argument));
    return -z0 * z0 / twoSigmaSquared + math::logErfcx(argument);
  };
  const double logPrefactor = alpha * std::log1p(-q) - std::log(2.0);
  const long long tailStart = static_cast<long long>(std::ceil(alpha));
  math::SignedLogSum sum;
  double logBinomial = 0.0;  // log|C(α, i)|
  bool negative = false;     // sign of C(α, i)
  double tailLog[kAlternatingTerms];
  bool tailNegative = false;
  for (long long i = 0; i < tailStart + kAlternatingTerms; ++i) {
    const double id = static_cast<double>(i);
    const double logTerm = logBinomial + math::logAdd(logScaledErfc(id - z0, id - 2.0 * z0, id),
                                                      logScaledErfc(id + z0 - alpha, id - alpha,
                                                                    id - alpha + 2.0 * z0));
    if (i < tailStart) {
      sum.add(negative, logTerm);
    } else {
      if (i == tailStart) tailNegative = negative;
      tailLog[i - tailStart] = logTerm;
    }
    const double factor = (alpha - id) / (id + 1.0);
    logBinomial += std::log(std::fabs(factor));
    if (factor < 0.0) negative = !negative;
  }
  double magnitudes[kAlternatingTerms];
  for (int k = 0; k < kAlternatingTerms; ++k) magnitudes[k] = std::exp(tailLog[k] - tailLog[0]);
  const double tail = alternatingSum(magnitudes, kAlternatingTerms);
  if (tail > 0.0) sum.add(tailNegative, tailLog[0] + std::log(tail));
  const double logSum = sum.log();
  if (!std::isfinite(logSum)) {
    throw PrivacyError("RDP: the fractional-order series for alpha = " + std::to_string(alpha) +
                       ", q = " + shortNumber(q) + ", sigma = " + shortNumber(sigma) +
                       " gave a non-positive or non-finite sum");
  }
  return logPrefactor + logSum;
}

}  // namespace

std::vector<double> defaultRdpOrders() {
  std::vector<double> orders;
  for (int x = 1; x <= 99; ++x) orders.push_back(1.0 + x / 10.0);
  for (int a = 11; a <= 63; ++a) orders.push_back(a);
  for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
  return orders;
}

std::vector<double> opacusRdpOrders() {
  std::vector<double> orders;
  for (int x = 1; x <= 99; ++x) orders.push_back(1.0 + x / 10.0);
  for (int a = 12; a <= 63; ++a) orders.push_back(a);
  return orders;
}

double rdpPoissonGaussian(double q, double sigma, double order) {
  requireValid(q, sigma, order);
  if (q == 0.0) return 0.0;
  // Plain Gaussian mechanism: D_α(N(1,σ²) ‖ N(0,σ²)) = α/(2σ²) (Mironov 2017, Prop. 7).
  if (q == 1.0) return order / (2.0 * sigma * sigma);
  const double rounded = std::round(order);
  const double logA = rounded == order && rounded < 1e9
                          ? logAInteger(q, sigma, static_cast<long long>(rounded))
                          : logAFractional(q, sigma, order);
  // RDP(α) = log(A_α)/(α − 1) (Mironov et al. 2019, Thm. 4/5: the remove direction
  // dominates the add direction for the sampled Gaussian). A_α ≥ 1; rounding may give
  // a value a hair below, which is clamped.
  return std::max(0.0, logA / (order - 1.0));
}

std::vector<double> rdpPoissonGaussian(double q, double sigma, std::span<const double> orders) {
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double order : orders) rdp.push_back(rdpPoissonGaussian(q, sigma, order));
  return rdp;
}

RdpCurveBounds rdpPoissonGaussianBounds(double q, double sigma, std::span<const double> orders) {
  RdpCurveBounds bounds{std::vector<double>(orders.size(), 0.0),
                        std::vector<double>(orders.size(), kInf),
                        std::vector<bool>(orders.size(), false)};
  std::map<long long, double> logA{{1, 0.0}};  // f at the integers used, f(1) = 0
  const auto f = [&](long long n) {
    auto found = logA.find(n);
    if (found == logA.end()) found = logA.emplace(n, logAInteger(q, sigma, n)).first;
    return found->second;
  };
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const double alpha = orders[k];
    const double whole = std::floor(alpha);
    if (q == 0.0 || q == 1.0 || whole == alpha) {
      bounds.lower[k] = bounds.upper[k] = rdpPoissonGaussian(q, sigma, alpha);
      bounds.exact[k] = true;
      continue;
    }
    requireValid(q, sigma, alpha);
    if (!(whole + 2.0 <= kBoundedOrders)) continue;
    const auto n = static_cast<long long>(whole);
    const double fn = f(n), next = f(n + 1), after = f(n + 2);
    double low = next - (whole + 1.0 - alpha) * (after - next);
    if (n >= 2) low = std::max(low, fn + (alpha - whole) * (fn - f(n - 1)));
    const double high = fn + (alpha - whole) * (next - fn);
    if (!std::isfinite(low) || !std::isfinite(high)) continue;
    const double slack = 1e-12 + 1e-9 * std::max(std::fabs(low), std::fabs(high));
    bounds.lower[k] = std::max(0.0, (low - slack) / (alpha - 1.0));
    bounds.upper[k] = std::max(0.0, (high + slack) / (alpha - 1.0));
  }
  return bounds;
}

namespace {
// Both conversions need one RDP value per order.
void requireMatchingCurve(std::span<const double> orders, std::span<const double> rdp) {
  if (orders.size() != rdp.size() || orders.empty()) {
    throw PrivacyError("RDP conversion: " + std::to_string(orders.size()) + " orders but " +
                       std::to_string(rdp.size()) + " RDP values");
  }
}

void requireConversionDelta(double delta) {
  if (!(delta > 0.0 && delta < 1.0)) {
    throw PrivacyError("RDP conversion: delta must be in (0, 1), got " + shortNumber(delta));
  }
}

// ε at one order with RDP value r ≥ 0 (finite), ∞ where the conversion gives no bound.
double epsilonAtOrder(double alpha, double r, double delta, double logDelta,
                      RdpConversion conversion) {
  if (delta * delta + std::expm1(-r) > 0.0) {
    // δ ≥ √(1 − e^{−KL}) ≥ total variation, and KL = RDP(1) ≤ RDP(α): ε = 0 suffices.
    return 0.0;
  }
  if (conversion == RdpConversion::Classic) return r - logDelta / (alpha - 1.0);  // Mironov 2017
  // Balle et al. 2020, Thm. 21; unstable as α → 1, where it is never the best bound.
  if (alpha > 1.01)
    return r + std::log1p(-1.0 / alpha) - (logDelta + std::log(alpha)) / (alpha - 1.0);
  return kInf;
}
}  // namespace

RdpEpsilon epsilonFromRdp(std::span<const double> orders, std::span<const double> rdp, double delta,
                          RdpConversion conversion) {
  requireMatchingCurve(orders, rdp);
  requireConversionDelta(delta);
  RdpEpsilon best{kInf, std::numeric_limits<double>::quiet_NaN()};
  const double logDelta = std::log(delta);
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const double alpha = orders[k];
    const double r = rdp[k];
    if (!(alpha > 1.0) || std::isnan(r) || r < 0.0) {
      throw PrivacyError("RDP conversion: invalid order " + std::to_string(alpha) +
                         " or RDP value " + std::to_string(r));
    }
    if (std::isinf(r)) continue;
    const double epsilon = epsilonAtOrder(alpha, r, delta, logDelta, conversion);
    if (epsilon < best.epsilon) best = {epsilon, alpha};
  }
  best.epsilon = std::max(0.0, best.epsilon);
  return best;
}

RdpEpsilon epsilonFromRdpBounded(std::span<const double> orders, std::span<const double> lower,
                                 const std::function<double(std::size_t)>& rdpAt, double delta,
                                 RdpConversion conversion) {
  requireMatchingCurve(orders, lower);
  requireConversionDelta(delta);
  const double logDelta = std::log(delta);
  // The ε of each lower bound, at most the order's own (ε grows with the RDP value past the
  // KL test; an order whose bound does not pass it may have ε = 0 and is always asked).
  std::vector<std::pair<double, std::size_t>> byBound;
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const double r = lower[k];
    const bool passes = orders[k] > 1.0 && r >= 0.0 && !(delta * delta + std::expm1(-r) > 0.0);
    byBound.emplace_back(passes ? epsilonAtOrder(orders[k], r, delta, logDelta, conversion) : -kInf,
                         k);
  }
  std::stable_sort(byBound.begin(), byBound.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> values(orders.size(), 0.0);
  std::vector<bool> asked(orders.size(), false);
  double best = kInf;
  for (const auto& [bound, k] : byBound) {
    if (bound - best > 1e-12 * (std::fabs(bound) + std::fabs(best) + 2.0 * lower[k])) break;
    values[k] = rdpAt(k);
    asked[k] = true;
    const double r = values[k];
    if (orders[k] > 1.0 && r >= 0.0 && !std::isinf(r))
      best = std::min(best, epsilonAtOrder(orders[k], r, delta, logDelta, conversion));
  }
  std::vector<double> askedOrders;
  std::vector<double> askedValues;
  for (std::size_t k = 0; k < orders.size(); ++k) {
    if (!asked[k]) continue;
    askedOrders.push_back(orders[k]);
    askedValues.push_back(values[k]);
  }
  return epsilonFromRdp(askedOrders, askedValues, delta, conversion);
}

RdpDelta deltaFromRdp(std::span<const double> orders, std::span<const double> rdp, double epsilon,
                      RdpConversion conversion) {
  requireMatchingCurve(orders, rdp);
  if (!(epsilon >= 0.0) || std::isnan(epsilon)) {
    throw PrivacyError("RDP conversion: epsilon must be >= 0, got " + shortNumber(epsilon));
  }
  double bestLog = kInf;
  double bestOrder = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const double alpha = orders[k];
    const double r = rdp[k];
    if (!(alpha > 1.0) || std::isnan(r) || r < 0.0) {
      throw PrivacyError("RDP conversion: invalid order " + std::to_string(alpha) +
                         " or RDP value " + std::to_string(r));
    }
    if (std::isinf(r)) continue;
    // The total-variation bound δ ≤ √(1 − e^{−KL}), KL ≤ RDP(α), holds at every ε ≥ 0.
    double logDelta = r == 0.0 ? -kInf : 0.5 * std::log(-std::expm1(-r));
    if (conversion == RdpConversion::Classic) {
      logDelta = std::min(logDelta, (alpha - 1.0) * (r - epsilon));  // Mironov 2017, Prop. 3
    } else if (alpha > 1.01) {
      // Balle et al. 2020, Thm. 21 solved for δ.
      logDelta = std::min(
          logDelta, (alpha - 1.0) * (r - epsilon + std::log1p(-1.0 / alpha)) - std::log(alpha));
    }
    if (logDelta < bestLog) {
      bestLog = logDelta;
      bestOrder = alpha;
    }
  }
  return {std::min(1.0, std::exp(bestLog)), bestOrder};
}

}  // namespace epsilon::privacy

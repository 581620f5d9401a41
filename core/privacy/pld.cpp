#include "core/privacy/pld.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/common/thread_priority.h"
#include "core/privacy/privacy_math.h"

namespace epsilon::privacy {

namespace {

using math::kInf;

// Quantile (in standard deviations) beyond which a step's loss is folded to the grid ends:
// Φ̄(9) ≈ 1.1e-19, so even 10⁶ steps leave < 1e-12 of δ to the truncation.
constexpr double kTailSigmas = 9.0;

// log(μ/μ0)(x) = log(1 − q + q·e^t) with t = (2x − 1)/(2σ²), without overflow for large t.
double logLikelihoodRatio(double q, double t) {
  if (t > 0.0) return t + std::log(q + (1.0 - q) * std::exp(-t));
  const double change = q * std::expm1(t);
  if (change > -0.5) return std::log1p(change);
  return math::logAdd(std::log1p(-q), std::log(q) + t);  // q near 1, t very negative
}

double lossRemove(double q, double sigma, double x) {
  return logLikelihoodRatio(q, (2.0 * x - 1.0) / (2.0 * sigma * sigma));
}

// Losses above this are handled in logs (e^709 is near the largest double).
constexpr double kLogSpaceEpsilon = 600.0;

// log P(Z > z) for a standard normal Z, for every real z (no underflow).
double logNormalUpperTail(double z) {
  return std::log(0.5) + math::logErfcx(z / std::sqrt(2.0)) - 0.5 * z * z;
}

void requireParameters(double q, double sigma) {
  if (!(q > 0.0 && q <= 1.0)) {
    throw PrivacyError("PLD: sample rate q must be in (0, 1], got " + shortNumber(q));
  }
  if (!(sigma > 0.0) || !std::isfinite(sigma)) {
    throw PrivacyError("PLD: noise multiplier sigma must be finite and > 0, got " +
                       shortNumber(sigma));
  }
}

}  // namespace

double sampledGaussianDelta(double q, double sigma, double epsilon, PldDirection direction) {
  requireParameters(q, sigma);
  if (std::isnan(epsilon)) throw PrivacyError("PLD: epsilon is NaN");
  const double logQ = std::log(q);
  double delta = 0.0;
  if (direction == PldDirection::Remove) {
    const double c = std::expm1(epsilon) + q;   // e^ε − 1 + q
    if (c <= 0.0) return -std::expm1(epsilon);  // ε ≤ log(1 − q): every output counts
    if (epsilon > kLogSpaceEpsilon) {
      // e^ε overflows near 709 (σ ≪ 1, e.g. the tanh filter's σ/√P): the same δ in logs.
      const double logC = epsilon + std::log1p(-(1.0 - q) * std::exp(-epsilon));
      const double xStar = sigma * sigma * (logC - logQ) + 0.5;
      delta = q * math::normalUpperTail((xStar - 1.0) / sigma) -
              std::exp(logC + logNormalUpperTail(xStar / sigma));
      return std::clamp(delta, 0.0, 1.0);
    }
    const double xStar = sigma * sigma * (std::log(c) - logQ) + 0.5;
    delta =
        q * math::normalUpperTail((xStar - 1.0) / sigma) - c * math::normalUpperTail(xStar / sigma);
  } else {
    const double c = std::expm1(-epsilon) + q;  // e^{−ε} − 1 + q
    if (c <= 0.0) return 0.0;                   // ε ≥ −log(1 − q), the largest loss
    const double xStar = sigma * sigma * (std::log(c) - logQ) + 0.5;
    const double expEpsilon = std::exp(epsilon);
    delta = (1.0 - expEpsilon * (1.0 - q)) * math::normalLowerTail(xStar / sigma) -
            expEpsilon * q * math::normalLowerTail((xStar - 1.0) / sigma);
  }
  return std::clamp(delta, 0.0, 1.0);
}

DiscretePld connectTheDots(const std::function<double(double)>& profile, long long lowIndex,
                           long long highIndex, double interval) {
  if (!(interval > 0.0) || highIndex <= lowIndex) {
    throw PrivacyError("PLD: invalid discretisation grid [" + std::to_string(lowIndex) + ", " +
                       std::to_string(highIndex) + "] x " + shortNumber(interval));
  }
  const std::size_t n = static_cast<std::size_t>(highIndex - lowIndex + 1);
  std::vector<double> delta(n);
  for (std::size_t i = 0; i < n; ++i) {
    // A calibration while a slider is dragged spends milliseconds here: a background
    // thread offers its core to the GUI thread between points (core/common/thread_priority.h).
    if (i % 1024 == 0) yieldIfLoweredAndDue();
    delta[i] = std::clamp(
        profile(static_cast<double>(lowIndex + static_cast<long long>(i)) * interval), 0.0, 1.0);
  }
  // x_{i+1} − x_i = x_i·(e^h − 1) turns p_i = x_i (s_i − s_{i−1}) into differences of δ
  // with no large exponentials: p_i = [(δ_{i+1} − δ_i) − e^h (δ_i − δ_{i−1})]/(e^h − 1).
  const double expm1h = std::expm1(interval);
  const double exph = std::exp(interval);
  DiscretePld pld;
  pld.interval = interval;
  pld.offset = lowIndex;
  pld.probabilities.resize(n);
  pld.probabilities[0] = (delta[1] - delta[0]) / expm1h + 1.0 - delta[0];
  for (std::size_t i = 1; i + 1 < n; ++i) {
    pld.probabilities[i] = ((delta[i + 1] - delta[i]) - exph * (delta[i] - delta[i - 1])) / expm1h;
  }
  pld.probabilities[n - 1] = exph * (delta[n - 2] - delta[n - 1]) / expm1h;
  // Rounding can leave masses of order 1e-17 below zero in the flat parts; they are dropped.
  for (double& p : pld.probabilities) p = std::max(0.0, p);
  pld.infinityMass = delta[n - 1];
  return pld;
}

std::pair<long long, long long> sampledGaussianLossIndexRange(double q, double sigma,
                                                              PldDirection direction,
                                                              double interval) {
  requireParameters(q, sigma);
  double low = 0.0;
  double high = 0.0;
  if (direction == PldDirection::Remove) {
    // Loss increasing in the output x, drawn from μ: quantiles of N(0,σ²) below, N(1,σ²) above.
    low = lossRemove(q, sigma, -kTailSigmas * sigma);
    high = lossRemove(q, sigma, 1.0 + kTailSigmas * sigma);
  } else {
    // Loss −log(μ/μ0) decreasing in x, drawn from μ0 = N(0,σ²).
    low = -lossRemove(q, sigma, kTailSigmas * sigma);
    high = -lossRemove(q, sigma, -kTailSigmas * sigma);
  }
  if (!std::isfinite(low) || !std::isfinite(high) || (high - low) / interval > 1e15) {
    throw PrivacyError("PLD: the privacy loss range [" + shortNumber(low) + ", " +
                       shortNumber(high) + "] cannot be discretised at interval " +
                       shortNumber(interval));
  }
  const long long lowIndex = static_cast<long long>(std::floor(low / interval));
  const long long highIndex =
      std::max(lowIndex + 2, static_cast<long long>(std::ceil(high / interval)));
  return {lowIndex, highIndex};
}

DiscretePld sampledGaussianPld(double q, double sigma, PldDirection direction, double interval) {
  const auto [low, high] = sampledGaussianLossIndexRange(q, sigma, direction, interval);
  DiscretePld pld = connectTheDots(
      [&](double epsilon) { return sampledGaussianDelta(q, sigma, epsilon, direction); }, low, high,
      interval);
  // Trim exact zeros at both ends so the FFT and the Chernoff bound see only the support.
  auto& p = pld.probabilities;
  std::size_t first = 0;
  while (first + 1 < p.size() && p[first] == 0.0) ++first;
  std::size_t last = p.size();
  while (last > first + 1 && p[last - 1] == 0.0) --last;
  p = std::vector<double>(p.begin() + static_cast<std::ptrdiff_t>(first),
                          p.begin() + static_cast<std::ptrdiff_t>(last));
  pld.offset += static_cast<long long>(first);
  return pld;
}

DiscretePld onFinerGrid(const DiscretePld& pld, double interval) {
  const double ratio = std::round(pld.interval / interval);
  if (!(ratio >= 1.0 && ratio < 1e9) || ratio * interval != pld.interval)
    throw PrivacyError("PLD: interval " + shortNumber(interval) + " does not divide " +
                       shortNumber(pld.interval));
  if (ratio == 1.0) return pld;
  const auto factor = static_cast<long long>(ratio);
  DiscretePld fine;
  fine.interval = interval;
  fine.offset = pld.offset * factor;
  fine.infinityMass = pld.infinityMass;
  const auto stride = static_cast<std::size_t>(factor);
  fine.probabilities.assign((pld.probabilities.size() - 1) * stride + 1, 0.0);
  for (std::size_t i = 0; i < pld.probabilities.size(); ++i)
    fine.probabilities[i * stride] = pld.probabilities[i];
  return fine;
}

PldProfile::PldProfile() : m_suffixMass(1, 0.0), m_suffixScaled(1, 0.0) {}

PldProfile::PldProfile(const DiscretePld& pld) : m_infinityMass(pld.infinityMass) {
  for (std::size_t i = 0; i < pld.probabilities.size(); ++i) {
    const double loss = pld.lossAt(i);
    if (loss > 0.0 && pld.probabilities[i] > 0.0) m_losses.push_back(loss);
  }
  m_suffixMass.assign(m_losses.size() + 1, 0.0);
  m_suffixScaled.assign(m_losses.size() + 1, 0.0);
  std::size_t k = m_losses.size();
  for (std::size_t i = pld.probabilities.size(); i-- > 0;) {
    const double loss = pld.lossAt(i);
    if (!(loss > 0.0 && pld.probabilities[i] > 0.0)) continue;
    --k;
    m_suffixMass[k] = m_suffixMass[k + 1] + pld.probabilities[i];
    const double next = k + 1 < m_losses.size() ? m_losses[k + 1] : loss;
    m_suffixScaled[k] = pld.probabilities[i] + std::exp(loss - next) * m_suffixScaled[k + 1];
  }
}

double PldProfile::deltaFrom(std::size_t first, double epsilon) const {
  if (first >= m_losses.size()) return std::min(1.0, m_infinityMass);
  // e^ε·Σ_{j ≥ first} p_j e^{−l_j} = e^{ε − l_first}·m_suffixScaled[first], with ε ≤ l_first:
  // no overflow however large the losses.
  const double finite =
      m_suffixMass[first] - std::exp(epsilon - m_losses[first]) * m_suffixScaled[first];
  return std::min(1.0, m_infinityMass + std::max(0.0, finite));
}

double PldProfile::delta(double epsilon) const {
  if (!(epsilon >= 0.0)) {
    throw PrivacyError("PLD: epsilon must be >= 0, got " + shortNumber(epsilon));
  }
  if (std::isinf(epsilon)) return m_infinityMass;
  const auto first = static_cast<std::size_t>(
      std::upper_bound(m_losses.begin(), m_losses.end(), epsilon) - m_losses.begin());
  return deltaFrom(first, epsilon);
}

double PldProfile::epsilon(double delta) const {
  if (!(delta > 0.0 && delta <= 1.0)) {
    throw PrivacyError("PLD: delta must be in (0, 1], got " + shortNumber(delta));
  }
  if (delta <= m_infinityMass) return kInf;
  if (deltaFrom(0, 0.0) <= delta) return 0.0;
  // Smallest grid loss l_J with δ(l_J) ≤ delta (δ(l_last) = infinity mass < delta).
  std::size_t lo = 0;
  std::size_t hi = m_losses.size() - 1;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (deltaFrom(mid + 1, m_losses[mid]) <= delta) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  // On (l_{J−1}, l_J] the losses above ε are those from J on: solve
  // p∞ + A_J − e^{ε − l_J} S_J = delta.
  const double numerator = m_infinityMass + m_suffixMass[lo] - delta;
  const double lower = lo == 0 ? 0.0 : m_losses[lo - 1];
  if (!(numerator > 0.0) || m_suffixScaled[lo] <= 0.0) return m_losses[lo];
  return std::clamp(m_losses[lo] + std::log(numerator / m_suffixScaled[lo]), lower, m_losses[lo]);
}

}  // namespace epsilon::privacy

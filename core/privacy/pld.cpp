#include "core/privacy/pld.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <unsupported/Eigen/FFT>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/privacy_math.h"

namespace epsilon::privacy {

namespace {

using math::kInf;

// Quantile (in standard deviations) beyond which a step's loss is folded to the grid ends:
// Φ̄(9) ≈ 1.1e-19, so even 10⁶ steps leave < 1e-12 of δ to the truncation.
constexpr double kTailSigmas = 9.0;

// Composed supports up to this many grid points are convolved whole (no truncation).
constexpr long long kExactCompositionPoints = 1LL << 18;

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

void requireParameters(double q, double sigma) {
  if (!(q > 0.0 && q <= 1.0)) {
    throw PrivacyError("PLD: sample rate q must be in (0, 1], got " + shortNumber(q));
  }
  if (!(sigma > 0.0) || !std::isfinite(sigma)) {
    throw PrivacyError("PLD: noise multiplier sigma must be finite and > 0, got " +
                       shortNumber(sigma));
  }
}

// Smallest even N >= n whose prime factors are 2, 3 and 5 (fast for kissfft's radices and
// for its real-input path, which needs an even length).
std::size_t fastFftLength(std::size_t n) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (std::size_t p2 = 2; p2 < 2 * n + 2; p2 *= 2) {
    for (std::size_t p3 = p2; p3 < 2 * n + 2; p3 *= 3) {
      for (std::size_t p5 = p3; p5 < 2 * n + 2; p5 *= 5) {
        if (p5 >= n && p5 < best) best = p5;
      }
    }
  }
  return best;
}

// Counts up to this are raised by repeated squaring (at most 2·log2 of it complex products,
// cheaper than a complex log and exp); larger ones as exp(n·log z).
constexpr long long kSquaringMaxCount = 1 << 12;

// a·b without the C99 Annex G checks for infinite and NaN parts (a library call per product
// in GCC's std::complex): every value here is finite, |a|, |b| ≤ 1.
std::complex<double> times(std::complex<double> a, std::complex<double> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// product[f] *= spectrum[f]^count: the count-fold self-composition of one factor in the
// Fourier domain. |z| ≤ 1 (a probability vector's transform), and a zero stays zero.
void multiplyByPower(std::vector<std::complex<double>>& product,
                     const std::vector<std::complex<double>>& spectrum, long long count) {
  if (count == 1) {
    for (std::size_t f = 0; f < spectrum.size(); ++f) product[f] = times(product[f], spectrum[f]);
    return;
  }
  if (count <= kSquaringMaxCount) {
    for (std::size_t f = 0; f < spectrum.size(); ++f) {
      std::complex<double> base = spectrum[f];
      std::complex<double> power(1.0, 0.0);
      for (long long k = count;;) {
        if (k & 1) power = times(power, base);
        k >>= 1;
        if (k == 0) break;
        base = times(base, base);
      }
      product[f] = times(product[f], power);
    }
    return;
  }
  const double exponent = static_cast<double>(count);
  for (std::size_t f = 0; f < spectrum.size(); ++f) {
    const std::complex<double> z = spectrum[f];
    product[f] *= (z == std::complex<double>(0.0, 0.0)) ? z : std::exp(exponent * std::log(z));
  }
}

// A factor's bounding masses (mgfBlocks) in a form for fast (vectorised) log-MGF evaluation.
struct MgfTerms {
  Eigen::ArrayXd logMass;
  Eigen::ArrayXd loss;
  double count = 0.0;
};

std::vector<MgfTerms> mgfTerms(std::span<const PldFactor> factors) {
  std::vector<MgfTerms> terms;
  for (const PldFactor& factor : factors) {
    if (factor.count <= 0) continue;
    const PldMgfBlocks own = factor.mgf ? PldMgfBlocks{} : mgfBlocks(*factor.pld);
    const PldMgfBlocks& blocks = factor.mgf ? *factor.mgf : own;
    const auto size = static_cast<Eigen::Index>(blocks.loss.size());
    MgfTerms t;
    t.logMass = Eigen::Map<const Eigen::ArrayXd>(blocks.logMass.data(), size);
    t.loss = Eigen::Map<const Eigen::ArrayXd>(blocks.loss.data(), size);
    t.count = static_cast<double>(factor.count);
    terms.push_back(std::move(t));
  }
  return terms;
}

// GCC 12 reports a false "may be used uninitialized" inside its own AVX-512 intrinsics when
// Eigen's vectorised exp is inlined here (-march=native); the code is Eigen's, not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// log E[e^{λ·L}] of the composed loss L (finite part), Σ_k n_k log Σ_i p_ki e^{λ l_ki}.
double composedLogMgf(const std::vector<MgfTerms>& terms, double lambda) {
  double total = 0.0;
  for (const MgfTerms& t : terms) {
    if (t.logMass.size() == 0) return -kInf;
    const Eigen::ArrayXd exponent = t.logMass + lambda * t.loss;
    const double top = exponent.maxCoeff();
    total += t.count * (top + std::log((exponent - top).exp().sum()));
  }
  return total;
}
#pragma GCC diagnostic pop

// min over λ > 0 of f(λ) by golden-section search on log λ; f is unimodal (see below).
template <typename F>
double minimiseOverLogLambda(F f) {
  double a = std::log(1e-4);
  double b = std::log(1e5);
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double c = b - ratio * (b - a);
  double d = a + ratio * (b - a);
  double fc = f(std::exp(c));
  double fd = f(std::exp(d));
  for (int iteration = 0; iteration < 18; ++iteration) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = f(std::exp(c));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = f(std::exp(d));
    }
  }
  return std::min(fc, fd);
}

// The Chernoff bound P(L ≥ u) ≤ E[e^{λL}]·e^{−λu} gives u(λ) = (K(λ) − log(τ/2))/λ with K
// the composed log-MGF, and likewise below; minimising over λ gives the tightest window
// holding all but τ of the mass. u(λ) is unimodal: λ²u'(λ) = λK'(λ) − K(λ) − log(2/τ) is
// increasing since K is convex.
}  // namespace

PldMgfBlocks mgfBlocks(const DiscretePld& pld) {
  PldMgfBlocks blocks;
  const auto& p = pld.probabilities;
  const auto add = [&](double mass, double loss) {
    if (mass <= 0.0) return;
    blocks.logMass.push_back(std::log(mass));
    blocks.loss.push_back(loss);
  };
  for (std::size_t first = 0; first < p.size(); first += kPldMgfBlock) {
    const std::size_t last = std::min(p.size(), first + kPldMgfBlock) - 1;
    double mass = 0.0;
    double moment = 0.0;  // Σ p_i (i − first): the mean's offset in grid steps
    for (std::size_t i = first; i <= last; ++i) {
      mass += p[i];
      moment += p[i] * static_cast<double>(i - first);
    }
    if (!(mass > 0.0)) continue;
    const double steps = static_cast<double>(last - first);
    const double share = steps > 0.0 ? std::clamp(moment / (steps * mass), 0.0, 1.0) : 0.0;
    add(mass * (1.0 - share), pld.lossAt(first));
    add(mass * share, pld.lossAt(last));
  }
  return blocks;
}

PldWindow composedWindow(std::span<const PldFactor> factors, double tailMass) {
  long long fullHigh = 0;
  double offsetLoss = 0.0;
  double interval = 0.0;
  for (const PldFactor& factor : factors) {
    if (factor.count <= 0) continue;
    fullHigh += factor.count * static_cast<long long>(factor.pld->probabilities.size() - 1);
    offsetLoss += static_cast<double>(factor.count) * static_cast<double>(factor.pld->offset);
    interval = factor.pld->interval;
  }
  PldWindow window{0, fullHigh, false};
  // A small full support is kept whole: the convolution is then exact, with no tail.
  if (interval == 0.0 || tailMass <= 0.0 || fullHigh < kExactCompositionPoints) return window;
  const std::vector<MgfTerms> terms = mgfTerms(factors);
  const double logHalfTail = std::log(0.5 * tailMass);
  const double upper = minimiseOverLogLambda(
      [&](double lambda) { return (composedLogMgf(terms, lambda) - logHalfTail) / lambda; });
  const double lower = -minimiseOverLogLambda(
      [&](double lambda) { return (composedLogMgf(terms, -lambda) - logHalfTail) / lambda; });
  const double highIndex = std::ceil(upper / interval - offsetLoss);
  const double lowIndex = std::floor(lower / interval - offsetLoss);
  if (lowIndex > 0.0) {
    window.low = static_cast<long long>(lowIndex);
    window.truncated = true;
  }
  if (highIndex < static_cast<double>(fullHigh)) {
    window.high = std::max(window.low, static_cast<long long>(highIndex));
    window.truncated = true;
  }
  return window;
}

double sampledGaussianDelta(double q, double sigma, double epsilon, PldDirection direction) {
  requireParameters(q, sigma);
  if (std::isnan(epsilon)) throw PrivacyError("PLD: epsilon is NaN");
  const double logQ = std::log(q);
  double delta = 0.0;
  if (direction == PldDirection::Remove) {
    const double c = std::expm1(epsilon) + q;   // e^ε − 1 + q
    if (c <= 0.0) return -std::expm1(epsilon);  // ε ≤ log(1 − q): every output counts
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

DiscretePld composePlds(std::span<const PldFactor> factors, double tailMass) {
  return composePlds(factors, composedWindow(factors, tailMass), tailMass);
}

DiscretePld composePlds(std::span<const PldFactor> factors, const PldWindow& window,
                        double tailMass) {
  DiscretePld result;
  double logNoInfinity = 0.0;  // log Π (1 − p∞_k)^{n_k}
  std::size_t longest = 1;
  long long offset = 0;
  bool haveInterval = false;
  for (const PldFactor& factor : factors) {
    if (factor.count < 0 || !factor.pld || factor.pld->probabilities.empty()) {
      throw PrivacyError("PLD composition: a factor has no distribution or a negative count");
    }
    if (factor.count == 0) continue;
    if (!haveInterval) {
      result.interval = factor.pld->interval;
      haveInterval = true;
    }
    if (factor.pld->interval != result.interval) {
      throw PrivacyError("PLD composition: factors use different discretisation intervals");
    }
    logNoInfinity += static_cast<double>(factor.count) * std::log1p(-factor.pld->infinityMass);
    longest = std::max(longest, factor.pld->probabilities.size());
    offset += factor.count * factor.pld->offset;
  }
  const std::size_t windowLength = window.size();
  const std::size_t n = fastFftLength(std::max(windowLength, longest));
  Eigen::FFT<double> fft;
  fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
  std::vector<double> buffer(n);
  std::vector<std::complex<double>> spectrum(n / 2 + 1);
  std::vector<std::complex<double>> product(n / 2 + 1, std::complex<double>(1.0, 0.0));
  for (const PldFactor& factor : factors) {
    if (factor.count == 0) continue;
    std::fill(buffer.begin(), buffer.end(), 0.0);
    std::copy(factor.pld->probabilities.begin(), factor.pld->probabilities.end(), buffer.begin());
    fft.fwd(spectrum.data(), buffer.data(), static_cast<Eigen::Index>(n));
    multiplyByPower(product, spectrum, factor.count);
  }
  fft.inv(buffer.data(), product.data(), static_cast<Eigen::Index>(n));
  result.offset = offset + window.low;
  result.probabilities.resize(windowLength);
  for (std::size_t j = 0; j < windowLength; ++j) {
    const std::size_t source = static_cast<std::size_t>(window.low + static_cast<long long>(j)) % n;
    // FFT rounding leaves ±1e-17 noise in empty bins; negative values are dropped.
    result.probabilities[j] = std::max(0.0, buffer[source]);
  }
  result.infinityMass = -std::expm1(logNoInfinity) + (window.truncated ? tailMass : 0.0);
  result.infinityMass = std::min(1.0, result.infinityMass);
  return result;
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
    m_suffixScaled[k] = m_suffixScaled[k + 1] + pld.probabilities[i] * std::exp(-loss);
  }
}

double PldProfile::deltaFrom(std::size_t first, double epsilon) const {
  const double finite = m_suffixMass[first] - std::exp(epsilon) * m_suffixScaled[first];
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
  // p∞ + A_J − e^ε B_J = delta.
  const double numerator = m_infinityMass + m_suffixMass[lo] - delta;
  const double lower = lo == 0 ? 0.0 : m_losses[lo - 1];
  if (!(numerator > 0.0) || m_suffixScaled[lo] <= 0.0) return m_losses[lo];
  return std::clamp(std::log(numerator / m_suffixScaled[lo]), lower, m_losses[lo]);
}

}  // namespace epsilon::privacy

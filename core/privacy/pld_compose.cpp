// Composition of privacy loss distributions by FFT (pld.h): the Chernoff window, the product
// of the factors' spectra and the composed distribution read back from it.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <unsupported/Eigen/FFT>

#include "core/common/errors.h"
#include "core/privacy/pld.h"

namespace epsilon::privacy {

namespace {

// Composed supports up to this many grid points are convolved whole (no truncation).
constexpr long long kExactCompositionPoints = 1LL << 14;

// The fixed grid of λ on which each factor's log-MGF is kept: kMgfGridPoints values from
// 1e-4 to 1e5, evenly spaced in log λ (ratio ≈ 1.95; u(λ) is flat near its minimum).
constexpr int kMgfGridPoints = 32;
double gridLambda(int i) {
  return 1e-4 * std::pow(10.0, 9.0 * static_cast<double>(i) / (kMgfGridPoints - 1));
}

// Counts up to this are raised by repeated squaring (at most 2·log2 of it complex products,
// cheaper than a complex log and exp); larger ones as exp(n·log z).
constexpr long long kSquaringMaxCount = 1 << 12;

// a·b without the C99 Annex G checks for infinite and NaN parts (a library call per product
// in GCC's std::complex): every value here is finite, |a|, |b| ≤ 1.
std::complex<double> times(std::complex<double> a, std::complex<double> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// values[f] ·= z_f^count for every frequency, |z_f| ≤ 1 (a zero stays zero). Repeated squaring
// runs over all frequencies at once, one bit of the count after another, so each pass is a
// plain loop of complex products.
void multiplyByPower(std::vector<std::complex<double>>& values,
                     const std::vector<std::complex<double>>& z, long long count) {
  if (count > kSquaringMaxCount) {
    const double exponent = static_cast<double>(count);
    for (std::size_t f = 0; f < z.size(); ++f)
      if (z[f] != std::complex<double>(0.0, 0.0))
        values[f] = times(values[f], std::exp(exponent * std::log(z[f])));
      else
        values[f] = z[f];
    return;
  }
  if (count == 1) {  // the same products as below, without the copy
    for (std::size_t f = 0; f < z.size(); ++f) values[f] = times(values[f], z[f]);
    return;
  }
  std::vector<std::complex<double>> base = z;
  for (long long k = count;;) {
    if (k & 1)
      for (std::size_t f = 0; f < base.size(); ++f) values[f] = times(values[f], base[f]);
    k >>= 1;
    if (k == 0) return;
    for (std::complex<double>& b : base) b = times(b, b);
  }
}

// This thread's real-input FFT: kissfft keeps its plans (twiddle factors) per length.
Eigen::FFT<double>& halfSpectrumFft() {
  thread_local Eigen::FFT<double> fft = [] {
    Eigen::FFT<double> made;
    made.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    return made;
  }();
  return fft;
}

// GCC 12 reports a false "may be used uninitialized" inside its own AVX-512 intrinsics when
// Eigen's vectorised exp is inlined here (-march=native); the code is Eigen's, not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// log Σ_i e^{logMass_i + λ·loss_i}, for every λ of the grid and its negative.
std::vector<double> logMgfOnGrid(const PldMgfBlocks& blocks) {
  const auto size = static_cast<Eigen::Index>(blocks.loss.size());
  const Eigen::Map<const Eigen::ArrayXd> logMass(blocks.logMass.data(), size);
  const Eigen::Map<const Eigen::ArrayXd> loss(blocks.loss.data(), size);
  std::vector<double> values(2 * kMgfGridPoints, -std::numeric_limits<double>::infinity());
  if (size == 0) return values;
  for (int i = 0; i < 2 * kMgfGridPoints; ++i) {
    const double lambda = i < kMgfGridPoints ? gridLambda(i) : -gridLambda(i - kMgfGridPoints);
    const Eigen::ArrayXd exponent = logMass + lambda * loss;
    const double top = exponent.maxCoeff();
    values[static_cast<std::size_t>(i)] = top + std::log((exponent - top).exp().sum());
  }
  return values;
}
#pragma GCC diagnostic pop

// The Chernoff bound P(L ≥ u) ≤ E[e^{λL}]·e^{−λu} holds for every λ > 0, so with K the
// composed log-MGF, u(λ) = (K(λ) − log(τ/2))/λ bounds the upper end for each λ of the grid
// (likewise the lower end with −λ); the tightest grid point is taken. Returns {lower, upper}.
std::pair<double, double> chernoffLossRange(std::span<const PldFactor> factors, double tailMass) {
  std::vector<double> composed(2 * kMgfGridPoints, 0.0);
  for (const PldFactor& factor : factors) {
    if (factor.count <= 0) continue;
    const PldMgfBlocks own = factor.mgf ? PldMgfBlocks{} : mgfBlocks(*factor.pld);
    const std::vector<double>& logMgf = (factor.mgf ? *factor.mgf : own).logMgf;
    for (std::size_t i = 0; i < composed.size(); ++i)
      composed[i] += static_cast<double>(factor.count) * logMgf[i];
  }
  const double logHalfTail = std::log(0.5 * tailMass);
  double upper = std::numeric_limits<double>::infinity();
  double lower = -upper;
  for (int i = 0; i < kMgfGridPoints; ++i) {
    const double lambda = gridLambda(i);
    upper = std::min(upper, (composed[static_cast<std::size_t>(i)] - logHalfTail) / lambda);
    lower = std::max(
        lower, -(composed[static_cast<std::size_t>(i + kMgfGridPoints)] - logHalfTail) / lambda);
  }
  return {lower, upper};
}

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
  blocks.logMgf = logMgfOnGrid(blocks);
  return blocks;
}

namespace {

// The whole support of a composition, or the Chernoff window (composedWindow).
PldWindow foldWindow(const PldFold& fold, std::span<const PldFactor> factors, double tailMass) {
  if (!fold.wholeSupport) return composedWindow(factors, tailMass);
  long long fullHigh = 0;
  for (const PldFactor& factor : factors)
    if (factor.count > 0)
      fullHigh += factor.count * static_cast<long long>(factor.pld->probabilities.size() - 1);
  return PldWindow{0, fullHigh, false};
}

}  // namespace

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
  const auto [lower, upper] = chernoffLossRange(factors, tailMass);
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

std::size_t compositionFftLength(std::span<const PldFactor> factors, const PldWindow& window) {
  std::size_t needed = window.size();
  for (const PldFactor& factor : factors)
    if (factor.count > 0) needed = std::max(needed, factor.pld->probabilities.size());
  for (std::size_t length = 4;; length *= 2) {
    if (length >= needed) return length;
    if (length / 2 * 3 >= needed) return length / 2 * 3;
  }
}

PldSpectrum unitSpectrum(std::size_t length) {
  return PldSpectrum{length, std::vector<std::complex<double>>(length / 2 + 1, {1.0, 0.0})};
}

PldSpectrum spectrumOf(const DiscretePld& pld, std::size_t length) {
  if (pld.probabilities.size() > length)
    throw PrivacyError("PLD composition: a factor is longer than the FFT length");
  std::vector<double> buffer(length, 0.0);
  std::copy(pld.probabilities.begin(), pld.probabilities.end(), buffer.begin());
  Eigen::FFT<double>& fft = halfSpectrumFft();
  PldSpectrum spectrum{length, std::vector<std::complex<double>>(length / 2 + 1)};
  fft.fwd(spectrum.values.data(), buffer.data(), static_cast<Eigen::Index>(length));
  return spectrum;
}

void multiplySpectrum(PldSpectrum& product, const PldSpectrum& factor, long long count) {
  if (product.length != factor.length)
    throw PrivacyError("PLD composition: spectra of different FFT lengths");
  multiplyByPower(product.values, factor.values, count);
}

DiscretePld composedFromSpectrum(const PldSpectrum& product, std::span<const PldFactor> factors,
                                 const PldWindow& window, double tailMass) {
  DiscretePld result;
  double logNoInfinity = 0.0;  // log Π (1 − p∞_k)^{n_k}
  long long offset = 0;
  bool haveInterval = false;
  for (const PldFactor& factor : factors) {
    if (factor.count < 0 || !factor.pld || factor.pld->probabilities.empty())
      throw PrivacyError("PLD composition: a factor has no distribution or a negative count");
    if (factor.count == 0) continue;
    if (haveInterval && factor.pld->interval != result.interval)
      throw PrivacyError("PLD composition: factors use different discretisation intervals");
    result.interval = factor.pld->interval;
    haveInterval = true;
    logNoInfinity += static_cast<double>(factor.count) * std::log1p(-factor.pld->infinityMass);
    offset += factor.count * factor.pld->offset;
  }
  const std::size_t n = product.length;
  if (window.size() > n) throw PrivacyError("PLD composition: the window exceeds the FFT length");
  Eigen::FFT<double>& fft = halfSpectrumFft();
  std::vector<double> buffer(n);
  fft.inv(buffer.data(), product.values.data(), static_cast<Eigen::Index>(n));
  result.offset = offset + window.low;
  result.probabilities.resize(window.size());
  const auto length = static_cast<long long>(n);
  for (std::size_t j = 0; j < window.size(); ++j) {
    // The window may start below the factors' summed offsets (a fold's shifted window).
    const long long index = (window.low + static_cast<long long>(j)) % length;
    const auto source = static_cast<std::size_t>(index < 0 ? index + length : index);
    // FFT rounding leaves ±1e-17 noise in empty bins; negative values are dropped.
    result.probabilities[j] = std::max(0.0, buffer[source]);
  }
  result.infinityMass = -std::expm1(logNoInfinity) + (window.truncated ? tailMass : 0.0);
  result.infinityMass = std::min(1.0, result.infinityMass);
  return result;
}

DiscretePld composePlds(std::span<const PldFactor> factors, double tailMass) {
  return composePlds(factors, composedWindow(factors, tailMass), tailMass);
}

void extendFold(PldFold& fold, std::span<const PldFactor> factors, double tailMass,
                const PldWindow* window, const PldSpectrumSource& source) {
  const std::size_t k = fold.folded;
  const PldFactor& factor = factors[k];
  if (factor.count < 0 || !factor.pld || factor.pld->probabilities.empty())
    throw PrivacyError("PLD composition: a factor has no distribution or a negative count");
  const auto upTo = factors.first(k + 1);
  const std::size_t length =
      compositionFftLength(upTo, window ? *window : foldWindow(fold, upTo, tailMass));
  if (k == 0) {
    fold.product = unitSpectrum(length);
  } else if (length > fold.product.length) {
    const auto before = factors.first(k);
    const PldWindow held = foldWindow(fold, before, tailMass);
    fold.base = foldedPld(fold, before, held, tailMass);
    fold.baseCount = k;
    fold.baseShift = held.low;
    fold.product = spectrumOf(fold.base, length);
  }
  fold.folded = k + 1;
  if (factor.count == 0) return;
  const std::shared_ptr<const PldSpectrum> spectrum =
      source ? source(k, fold.product.length)
             : std::make_shared<const PldSpectrum>(spectrumOf(*factor.pld, fold.product.length));
  multiplySpectrum(fold.product, *spectrum, factor.count);
}

DiscretePld foldedPld(const PldFold& fold, std::span<const PldFactor> factors,
                      const PldWindow& window, double tailMass) {
  if (fold.folded != factors.size())
    throw PrivacyError("PLD composition: the fold does not hold these factors");
  if (fold.baseCount == 0) return composedFromSpectrum(fold.product, factors, window, tailMass);
  std::vector<PldFactor> rest{PldFactor{&fold.base, 1, nullptr}};
  rest.insert(rest.end(), factors.begin() + static_cast<std::ptrdiff_t>(fold.baseCount),
              factors.end());
  PldWindow shifted = window;
  shifted.low -= fold.baseShift;
  shifted.high -= fold.baseShift;
  return composedFromSpectrum(fold.product, rest, shifted, tailMass);
}

DiscretePld composePlds(std::span<const PldFactor> factors, const PldWindow& window,
                        double tailMass) {
  // Each factor's bounding masses once, for the windows of every prefix.
  std::vector<PldMgfBlocks> own(factors.size());
  std::vector<PldFactor> withMgf(factors.begin(), factors.end());
  for (std::size_t k = 0; k < withMgf.size(); ++k) {
    if (withMgf[k].mgf || withMgf[k].count <= 0 || !withMgf[k].pld) continue;
    own[k] = mgfBlocks(*withMgf[k].pld);
    withMgf[k].mgf = &own[k];
  }
  PldFold fold;
  fold.wholeSupport = !window.truncated;
  if (withMgf.empty()) fold.product = unitSpectrum(compositionFftLength(withMgf, window));
  while (fold.folded < withMgf.size())
    extendFold(fold, withMgf, tailMass, fold.folded + 1 == withMgf.size() ? &window : nullptr);
  return foldedPld(fold, withMgf, window, tailMass);
}

}  // namespace epsilon::privacy

// Pure functions of privacy loss distributions (PLDs; Koskela, Jälkö & Honkela 2020;
// Google dp_accounting's PLDAccountant): the hockey-stick profile of the Poisson-subsampled
// Gaussian, its pessimistic "connect-the-dots" discretisation (Doroshenko, Ghazi, Kamath,
// Kumar & Manurangsi 2022), composition by FFT and the exact (ε, δ) of a discrete PLD.
#pragma once

#include <complex>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace epsilon::privacy {

// A privacy loss distribution on a grid: probabilities[i] is the mass at privacy loss
// (offset + i)·interval; infinityMass is the mass at +∞ (a δ that no ε removes).
struct DiscretePld {
  double interval = 1e-4;
  long long offset = 0;
  std::vector<double> probabilities;
  double infinityMass = 0.0;

  double lossAt(std::size_t index) const {
    return (static_cast<double>(offset) + static_cast<double>(index)) * interval;
  }
};

// Which ordered pair of neighbouring outputs a PLD describes, for add/remove adjacency with
// μ = (1−q)·N(0,σ²) + q·N(1,σ²) (with the record) and μ0 = N(0,σ²) (without it):
// Remove is the loss log(μ/μ0) under μ, Add is log(μ0/μ) under μ0. Both are needed; the
// worse of the two composed directions is the guarantee.
enum class PldDirection { Remove, Add };

// Hockey-stick divergence δ(ε) = sup_S P(S) − e^ε Q(S) of one direction of the
// Poisson-subsampled Gaussian (sensitivity 1, noise multiplier σ, sample rate q ∈ (0, 1]).
// The likelihood ratio is monotone in the output, so S is a half-line with boundary x*:
//   Remove: δ = q·Φ̄((x* − 1)/σ) − (e^ε − 1 + q)·Φ̄(x*/σ),  x* = σ² log((e^ε − 1 + q)/q) + ½
//   Add:    δ = (1 − e^ε(1−q))·Φ(x*/σ) − e^ε q·Φ((x* − 1)/σ),  x* = σ² log((e^{−ε} − 1 + q)/q) + ½
// (for q = 1 both reduce to Balle & Wang 2018, Thm. 8).
double sampledGaussianDelta(double q, double sigma, double epsilon, PldDirection direction);

// Pessimistic discretisation of a privacy profile on the grid ε_i = i·interval,
// lowIndex <= i <= highIndex (Doroshenko et al. 2022, "connect the dots"): the returned PLD's
// profile is the linear interpolation of `profile` in e^ε between the grid points, which lies
// above the true profile because δ is convex in e^ε; the mass δ(ε_high) goes to infinity.
// With x_i = e^{ε_i} and chord slopes s_i = (δ_{i+1} − δ_i)/(x_{i+1} − x_i) (s_{−1} from the
// point (0, 1), s_high = 0) the masses are p_i = x_i (s_i − s_{i−1}).
DiscretePld connectTheDots(const std::function<double(double)>& profile, long long lowIndex,
                           long long highIndex, double interval);

// Grid indices [low, high] that hold all but ~1e-19 of the loss of one direction of the
// Poisson-subsampled Gaussian, at the given interval.
std::pair<long long, long long> sampledGaussianLossIndexRange(double q, double sigma,
                                                              PldDirection direction,
                                                              double interval);

// The pessimistic PLD of one step of the Poisson-subsampled Gaussian.
DiscretePld sampledGaussianPld(double q, double sigma, PldDirection direction, double interval);

// The same distribution on a finer grid whose interval divides pld.interval exactly (m times):
// the mass at point i of the coarse grid goes to point m·i of the fine one, zeros between. A
// step discretised on a coarse grid of its own is composed this way with steps on the fine
// grid: its connect-the-dots profile, and so its pessimism, are those of the coarse grid.
DiscretePld onFinerGrid(const DiscretePld& pld, double interval);

// A PLD's finite masses reduced, for a fast upper bound on its moment-generating function
// E[e^{λL}] (composedWindow's Chernoff bound), to two points per block of kPldMgfBlock
// consecutive grid points: on a block with losses in [a, a + w], e^{λ(l − a)} is convex in l,
// so it lies below its chord, and
//   Σ p_i e^{λ l_i} ≤ P(1 − r)·e^{λa} + P r·e^{λ(a + w)},  P = Σ p_i,  r = Σ p_i (l_i − a)/(wP),
// for either sign of λ: the block's mass moved to its ends, its mean kept. The excess is
// O((λw)²/8) relative, so the window widens by a small fraction, and a wider window only
// holds more of the mass (the result stays pessimistic).
inline constexpr std::size_t kPldMgfBlock = 32;
struct PldMgfBlocks {
  std::vector<double> logMass;  // log of each end point's mass (zero masses left out)
  std::vector<double> loss;     // its loss
  // log Σ of those masses times e^{λ·loss} on composedWindow's fixed grid of λ: 32 values
  // of λ from 1e-4 to 1e5 (even in log λ), then the same for −λ. A composition's log-MGF is
  // then Σ_k count_k·logMgf_k, whatever the factors, at the cost of one sum per grid point.
  std::vector<double> logMgf;
};
PldMgfBlocks mgfBlocks(const DiscretePld& pld);

// One factor of a composition: a PLD and how many times it is composed with itself, with
// its mgfBlocks when the caller keeps them (else composedWindow computes them).
struct PldFactor {
  const DiscretePld* pld = nullptr;
  long long count = 0;
  const PldMgfBlocks* mgf = nullptr;
};

// Composition Π_k pld_k^{⊗count_k} (all on the same interval): the loss distributions
// convolve, which the FFT turns into a product of spectra, so count_k-fold
// self-composition is a power of the spectrum. The output window is chosen by a Chernoff
// bound so that at most tailMass of the composed mass lies outside it; the circular
// convolution wraps that mass into the window, so tailMass is added to the infinity mass,
// which keeps the result pessimistic (every δ(ε) is then at least the true one).
DiscretePld composePlds(std::span<const PldFactor> factors, double tailMass);

// The composed grid indices kept by composePlds, relative to the summed offsets of the
// factors: all of them when the full support is small, else the Chernoff window.
struct PldWindow {
  long long low = 0;
  long long high = 0;
  bool truncated = false;  // some mass (at most tailMass) lies outside
  std::size_t size() const { return static_cast<std::size_t>(high - low + 1); }
};
PldWindow composedWindow(std::span<const PldFactor> factors, double tailMass);

// composePlds with a window computed beforehand by composedWindow (to check its size first):
// the factors folded one after another (PldFold below), then read on the window.
DiscretePld composePlds(std::span<const PldFactor> factors, const PldWindow& window,
                        double tailMass);

// Real-input FFT values (length/2 + 1 of them) of a distribution zero-padded to `length`, or
// a product of such spectra.
struct PldSpectrum {
  std::size_t length = 0;
  std::vector<std::complex<double>> values;
};
// The FFT length of a composition: the smallest 2^k or 3·2^k holding the window and the
// longest factor. A coarse ladder, so that a run's growing prefixes keep one length for a while.
std::size_t compositionFftLength(std::span<const PldFactor> factors, const PldWindow& window);
PldSpectrum unitSpectrum(std::size_t length);  // all ones: the empty composition
PldSpectrum spectrumOf(const DiscretePld& pld, std::size_t length);
// product ·= factor^count, frequency by frequency (the count-fold self-composition).
void multiplySpectrum(PldSpectrum& product, const PldSpectrum& factor, long long count);
// The composition of `factors` (offsets, infinity masses, interval) from the product of their
// spectra: its inverse FFT read on the window, the tail mass added to ∞ when truncated.
DiscretePld composedFromSpectrum(const PldSpectrum& product, std::span<const PldFactor> factors,
                                 const PldWindow& window, double tailMass);

// Composition one factor after another, as composePlds and the PLD accountant do it: the
// product of spectra at an FFT length that only grows. When factor k needs a longer FFT than
// the product has (compositionFftLength of the first k + 1 factors on their window), the first
// k factors' composition is read back on their window (composedFromSpectrum: what lies outside
// it, at most tailMass, goes to ∞) and becomes the base whose spectrum starts the product at
// the new length: two FFTs instead of every factor's spectrum again. The fold after k factors
// depends only on them, so a caller may keep it and extend it by later factors (a run
// evaluated again after more steps): the same double as from scratch. Each read-back adds
// tailMass to ∞; the result stays pessimistic.
struct PldFold {
  // Read back whole supports, never truncated (for a composition asked on its whole support,
  // not on composedWindow's): set before the first factor.
  bool wholeSupport = false;
  std::size_t folded = 0;  // factors folded in
  PldSpectrum product;     // of the base and the factors after it
  DiscretePld base;        // the first baseCount factors composed (unused while baseCount = 0)
  std::size_t baseCount = 0;
  long long baseShift = 0;  // base.offset − Σ count·offset of those factors
  std::size_t bytes() const {
    return product.values.size() * sizeof(product.values[0]) +
           base.probabilities.size() * sizeof(double);
  }
};
// A factor's spectrum at an FFT length (by default spectrumOf; the accountant keeps some).
using PldSpectrumSource =
    std::function<std::shared_ptr<const PldSpectrum>(std::size_t factor, std::size_t length)>;
// Folds in factors[fold.folded] (every factor has its mgf). `window`: the one the first
// fold.folded + 1 factors will be read on, when it is not composedWindow's (composePlds').
void extendFold(PldFold& fold, std::span<const PldFactor> factors, double tailMass,
                const PldWindow* window = nullptr, const PldSpectrumSource& source = {});
// The composition of the factors folded so far (all of `factors`) on their window.
DiscretePld foldedPld(const PldFold& fold, std::span<const PldFactor> factors,
                      const PldWindow& window, double tailMass);

// (ε, δ) of a discrete PLD, exact for it:
//   δ(ε) = infinityMass + Σ_{l > ε} p(l)·(1 − e^{ε − l}),
// precomputing suffix sums so a query costs O(log n). ε ≥ 0 only.
class PldProfile {
 public:
  PldProfile();  // no loss at all: δ(ε) = 0
  explicit PldProfile(const DiscretePld& pld);

  double delta(double epsilon) const;
  // Smallest ε >= 0 with δ(ε) <= delta (∞ if delta <= infinityMass).
  double epsilon(double delta) const;

 private:
  double deltaFrom(std::size_t first, double epsilon) const;

  std::vector<double> m_losses;      // positive losses only, increasing
  std::vector<double> m_suffixMass;  // Σ_{j >= i} p_j, one extra 0 at the end
  std::vector<double> m_suffixScaled;  // S_i = Σ_{j >= i} p_j e^{l_i − l_j}, one extra 0 at the end
  double m_infinityMass = 0.0;
};

}  // namespace epsilon::privacy

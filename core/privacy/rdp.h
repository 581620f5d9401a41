// Pure formulas of Rényi differential privacy (Mironov 2017): the RDP of the
// Poisson-subsampled Gaussian mechanism at an order (Mironov, Talwar & Zhang 2019), the
// standard lists of orders, and the conversions from an RDP curve to (ε, δ).
#pragma once

#include <functional>
#include <span>
#include <vector>

namespace epsilon::privacy {

// Google dp_accounting's orders: 1 + x/10 for x = 1..99, 11..63, 128, 256, 512, 1024.
std::vector<double> defaultRdpOrders();
// Opacus's orders (DEFAULT_ALPHAS): 1 + x/10 for x = 1..99, then 12..63.
std::vector<double> opacusRdpOrders();

// How an RDP curve becomes an (ε, δ) statement.
enum class RdpConversion {
  // Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm. 21 (as dp_accounting and Opacus use it):
  //   ε = RDP(α) − (log δ + log α)/(α − 1) + log((α − 1)/α).
  Improved,
  // Mironov 2017, Prop. 3: ε = RDP(α) + log(1/δ)/(α − 1).
  Classic,
};

// RDP at order α > 1 of one step of the Gaussian mechanism with L2 sensitivity 1 and noise
// multiplier σ, applied to a Poisson sample with rate q ∈ [0, 1] (add/remove adjacency).
// q = 0 gives 0, q = 1 the plain Gaussian α/(2σ²) (Mironov 2017, Prop. 7). Integer α use
// the binomial expansion (Mironov et al. 2019, Sec. 3.2), fractional α the two convergent
// series of Sec. 3.3 with their terms' signs kept. Throws PrivacyError for invalid input
// or a series that does not converge.
double rdpPoissonGaussian(double q, double sigma, double order);

// The same at every order of `orders`.
std::vector<double> rdpPoissonGaussian(double q, double sigma, std::span<const double> orders);

// The RDP curve of the sampled Gaussian where it is cheap, and bounds where it is not: exact
// at integer orders (at every order when q is 0 or 1) and, at a fractional order α < 63,
// bounds from the integer orders around it. Writing f(α) = log A_α = (α − 1)·RDP(α), f is
// convex (a log-moment generating function, by Hölder's inequality) with f(1) = 0, so for
// n < α < n + 1 it lies below the chord from n to n + 1 and above the secants through
// (n − 1, n) and (n + 1, n + 2) extended; the bounds are widened by far more than the
// rounding of either series. Other fractional orders get [0, ∞].
struct RdpCurveBounds {
  std::vector<double> lower;  // ≤ rdpPoissonGaussian(q, σ, orders[k])
  std::vector<double> upper;  // ≥ it
  std::vector<bool> exact;    // lower == upper == the value itself
};
RdpCurveBounds rdpPoissonGaussianBounds(double q, double sigma, std::span<const double> orders);

// ε and the order α that attains it.
struct RdpEpsilon {
  double epsilon = 0.0;
  double order = 0.0;
};

// δ and the order α that attains it.
struct RdpDelta {
  double delta = 0.0;
  double order = 0.0;
};

// Smallest ε over the orders for which the mechanism with RDP curve `rdp` is (ε, δ)-DP.
// Also uses, as dp_accounting does, the KL bound δ ≥ √(1 − e^{−RDP}) ⇒ ε = 0 (Pinsker-type
// bound of Bretagnolle & Huber on the total variation). Infinite RDP values are skipped;
// ε = ∞ when every order is infinite.
RdpEpsilon epsilonFromRdp(std::span<const double> orders, std::span<const double> rdp, double delta,
                          RdpConversion conversion = RdpConversion::Improved);

// epsilonFromRdp of a curve whose values are costly: `lower[k]` bounds the RDP at orders[k]
// from below and `rdpAt(k)` gives the value, asked only at the orders whose lower bound could
// still give the smallest ε (beyond rounding); the result is, bit for bit, epsilonFromRdp's on
// the whole curve (an order skipped has an ε above one attained, and the orders asked keep
// their order, so the first order attaining the minimum is the same).
RdpEpsilon epsilonFromRdpBounded(std::span<const double> orders, std::span<const double> lower,
                                 const std::function<double(std::size_t)>& rdpAt, double delta,
                                 RdpConversion conversion = RdpConversion::Improved);

// Smallest δ over the orders for which the mechanism is (ε, δ)-DP (the inverse of
// epsilonFromRdp, order by order).
RdpDelta deltaFromRdp(std::span<const double> orders, std::span<const double> rdp, double epsilon,
                      RdpConversion conversion = RdpConversion::Improved);

}  // namespace epsilon::privacy

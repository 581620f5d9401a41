// Numerically stable special functions shared by the accountants: log-space sums, the
// scaled complementary error function and Gaussian tails, so that no formula overflows or
// loses its small terms to cancellation.
#pragma once

#include <cmath>
#include <limits>
#include <numbers>

namespace epsilon::privacy::math {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// log(e^a + e^b) without overflow.
inline double logAdd(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  const double high = a > b ? a : b;
  return high + std::log1p(std::exp(-std::fabs(a - b)));
}

// log(erfcx(x)) with erfcx(x) = e^{x²}·erfc(x), accurate for every real x. For x < 25
// glibc's erfc keeps full relative precision (erfc(25) ≈ 8e-274 is still a normal double);
// beyond it, the asymptotic series erfcx(x) = 1/(x√π)·Σ (−1)^k (2k−1)!!/(2x²)^k
// (Abramowitz & Stegun 7.1.23) converges to double precision within six terms.
inline double logErfcx(double x) {
  if (x < 25.0) return x * x + std::log(std::erfc(x));
  const double inverseTwoXSquared = 1.0 / (2.0 * x * x);
  double term = 1.0;
  double series = 1.0;
  for (int k = 1; k <= 8; ++k) {
    term *= -(2.0 * k - 1.0) * inverseTwoXSquared;
    series += term;
  }
  return -std::log(x) - 0.5 * std::log(std::numbers::pi) + std::log(series);
}

// Standard normal upper tail P(Z > x) and lower tail P(Z < x), relatively accurate in both
// tails (erfc never subtracts from 1).
inline double normalUpperTail(double x) {
  return 0.5 * std::erfc(x / std::sqrt(2.0));
}
inline double normalLowerTail(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// Running signed sum of terms given as (sign, log|term|), rescaled so that neither the
// huge early terms of a series nor its tiny late ones overflow or underflow.
class SignedLogSum {
 public:
  void add(bool negative, double logMagnitude) {
    if (logMagnitude == -kInf) return;
    if (logMagnitude > m_scale) {
      m_sum *= std::exp(m_scale - logMagnitude);
      m_scale = logMagnitude;
    }
    m_sum += (negative ? -1.0 : 1.0) * std::exp(logMagnitude - m_scale);
  }
  // log of the sum; −∞ when the sum is not positive.
  double log() const { return m_sum > 0.0 ? m_scale + std::log(m_sum) : -kInf; }
  // log|sum| (for convergence tests).
  double logAbs() const { return m_sum != 0.0 ? m_scale + std::log(std::fabs(m_sum)) : -kInf; }

 private:
  double m_scale = -kInf;
  double m_sum = 0.0;
};

}  // namespace epsilon::privacy::math

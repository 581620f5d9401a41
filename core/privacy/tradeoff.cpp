#include "core/privacy/tradeoff.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/accountant.h"

namespace epsilon::privacy {

namespace {

void requireFpr(double fpr) {
  if (!(fpr >= 0.0 && fpr <= 1.0)) {
    throw PrivacyError("trade-off: false-positive rate must be in [0, 1], got " +
                       std::to_string(fpr));
  }
}

void requirePoint(double epsilon, double delta) {
  if (!(epsilon >= 0.0) || !(delta >= 0.0 && delta <= 1.0)) {
    throw PrivacyError("trade-off: need epsilon >= 0 and delta in [0, 1], got (" +
                       shortNumber(epsilon) + ", " + shortNumber(delta) + ")");
  }
}

}  // namespace

double tprBound(double epsilon, double delta, double fpr) {
  requireFpr(fpr);
  requirePoint(epsilon, delta);
  if (std::isinf(epsilon)) return 1.0;
  // Type II error β ≥ max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) for type I error α = FPR,
  // so TPR = 1 − β ≤ min(1, δ + e^ε α, 1 − e^{−ε}(1 − δ − α)).
  const double line = std::exp(epsilon) * fpr + delta;
  const double symmetric = 1.0 - std::exp(-epsilon) * (1.0 - delta - fpr);
  return std::clamp(std::min(line, symmetric), 0.0, 1.0);
}

double tprBound(const PrivacyProfile& profile, double fpr) {
  requireFpr(fpr);
  double best = 1.0;
  for (const auto& [epsilon, delta] : profile) best = std::min(best, tprBound(epsilon, delta, fpr));
  return best;
}

std::vector<double> tprBoundCurve(const PrivacyProfile& profile, std::span<const double> fprs) {
  std::vector<double> curve;
  curve.reserve(fprs.size());
  for (double fpr : fprs) curve.push_back(tprBound(profile, fpr));
  return curve;
}

double maxAdvantage(double epsilon, double delta) {
  requirePoint(epsilon, delta);
  if (std::isinf(epsilon)) return 1.0;
  // The lines e^ε α + δ and 1 − e^{−ε}(1 − δ − α) meet at α* = (1 − δ)/(e^ε + 1), where
  // TPR − FPR = (e^ε − 1)α* + δ = (e^ε − 1 + 2δ)/(e^ε + 1); below α* the first line has slope
  // e^ε ≥ 1, above it the second has slope e^{−ε} ≤ 1, so this is the maximum.
  const double expEpsilon = std::exp(epsilon);
  return std::clamp((expEpsilon - 1.0 + 2.0 * delta) / (expEpsilon + 1.0), 0.0, 1.0);
}

double maxAdvantage(const PrivacyProfile& profile) {
  double best = 1.0;
  for (const auto& [epsilon, delta] : profile) best = std::min(best, maxAdvantage(epsilon, delta));
  return best;
}

PrivacyProfile samplePrivacyProfile(const std::function<double(double)>& deltaOf,
                                    std::span<const double> epsilons) {
  PrivacyProfile profile;
  profile.reserve(epsilons.size());
  for (double epsilon : epsilons) {
    requirePoint(epsilon, 0.0);
    profile.emplace_back(epsilon, std::clamp(deltaOf(epsilon), 0.0, 1.0));
  }
  return profile;
}

PrivacyProfile samplePrivacyProfile(const Accountant& accountant,
                                    std::span<const double> epsilons) {
  return samplePrivacyProfile([&](double epsilon) { return accountant.delta(epsilon); }, epsilons);
}

std::vector<double> epsilonGrid(double maxEpsilon, int points) {
  if (!(maxEpsilon > 0.0) || points < 2) {
    throw PrivacyError("trade-off: epsilon grid needs maxEpsilon > 0 and at least 2 points");
  }
  std::vector<double> grid(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i)
    grid[static_cast<std::size_t>(i)] = maxEpsilon * i / (points - 1);
  return grid;
}

}  // namespace epsilon::privacy

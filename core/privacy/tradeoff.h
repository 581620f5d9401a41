// What ε means for a membership attacker: bounds on the true-positive rate any membership
// inference test can reach at a given false-positive rate (hypothesis-testing view of DP,
// f-DP: Dong, Roth & Su 2022; Kairouz, Oh & Viswanath 2015), from (ε, δ) or from a whole
// privacy profile δ(ε).
#pragma once

#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace epsilon::privacy {

class Accountant;

// A privacy profile sampled at increasing ε >= 0: the mechanism is (ε_i, δ_i)-DP for every i.
using PrivacyProfile = std::vector<std::pair<double, double>>;

// Largest TPR at false-positive rate fpr ∈ [0, 1] allowed by (ε, δ)-DP (Kairouz et al. 2015,
// Thm. 2.1; Dong et al. 2022, Eq. (5)): TPR ≤ min(e^ε·FPR + δ, 1 − e^{−ε}(1 − δ − FPR)),
// clamped to [0, 1].
double tprBound(double epsilon, double delta, double fpr);

// Largest TPR at fpr under every (ε_i, δ_i) of the profile at once (Dong et al. 2022,
// Prop. 2.12: a mechanism that is (ε, δ(ε))-DP for all ε is f-DP with f the upper envelope
// of the f_{ε,δ(ε)}), i.e. the minimum of tprBound over the profile. Both the e^ε·FPR + δ
// line and its symmetric counterpart are used, so the curve is a valid (symmetric)
// trade-off function.
double tprBound(const PrivacyProfile& profile, double fpr);

// The bound at each of `fprs`.
std::vector<double> tprBoundCurve(const PrivacyProfile& profile, std::span<const double> fprs);

// Largest advantage TPR − FPR of any attacker under (ε, δ)-DP: (e^ε − 1 + 2δ)/(e^ε + 1)
// (attained where the two lines of tprBound meet).
double maxAdvantage(double epsilon, double delta);
// The same under a whole profile (the minimum over its points; at ε = 0 it is δ(0), the
// total variation distance).
double maxAdvantage(const PrivacyProfile& profile);

// Samples δ(ε) at the given ε values (each >= 0).
PrivacyProfile samplePrivacyProfile(const std::function<double(double)>& deltaOf,
                                    std::span<const double> epsilons);
// Samples an accountant's profile at the given ε values.
PrivacyProfile samplePrivacyProfile(const Accountant& accountant, std::span<const double> epsilons);
// A default ε grid for profiles: 0 to maxEpsilon in `points` evenly spaced values.
std::vector<double> epsilonGrid(double maxEpsilon, int points);

}  // namespace epsilon::privacy

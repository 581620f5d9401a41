// RocCurve: the receiver operating characteristic of a membership test that calls "member"
// every example scoring above a threshold, swept over all thresholds; with its area, its
// TPR at a fixed FPR and the attacker's advantage.
#pragma once

#include <span>
#include <vector>

namespace epsilon::audit {

struct RocCurve {
  // Points from (0, 0) to (1, 1), FPR and TPR both non-decreasing; one point per distinct
  // score (tied scores move together, so the curve never claims an order it cannot see).
  std::vector<double> fpr;
  std::vector<double> tpr;
};

// The ROC of "score > t ⇒ member" over every t. Higher scores must mean "more likely a
// member" (for a loss, pass −loss). Throws PrivacyError if either side is empty or a score
// is NaN.
RocCurve rocCurve(std::span<const double> memberScores, std::span<const double> nonMemberScores);

// Area under the curve by the trapezoid rule: P[score(member) > score(non-member)] with
// ties counted ½ (the Mann–Whitney U statistic over n₁n₀; Hanley & McNeil 1982, Eq. 1).
double areaUnderCurve(const RocCurve& roc);

// Largest TPR among the curve's points with FPR ≤ fpr: what a threshold attacker achieves
// without exceeding that false-positive rate (no interpolation, so never optimistic).
double tprAtFpr(const RocCurve& roc, double fpr);

// Largest TPR − FPR over the thresholds: the membership advantage of the best threshold
// adversary (Yeom et al. 2018, Def. 4: Adv = Pr[A = 1 | b = 1] − Pr[A = 1 | b = 0]).
double attackerAdvantage(const RocCurve& roc);

}  // namespace epsilon::audit

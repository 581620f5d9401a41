#include "core/audit/roc.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/errors.h"

namespace epsilon::audit {

namespace {

void requireScores(std::span<const double> scores, const char* side) {
  if (scores.empty())
    throw PrivacyError(std::string("roc: expected at least one ") + side + " score, got none");
  for (const double s : scores) {
    if (std::isnan(s)) throw PrivacyError(std::string("roc: ") + side + " scores must not be NaN");
  }
}

}  // namespace

RocCurve rocCurve(std::span<const double> memberScores, std::span<const double> nonMemberScores) {
  requireScores(memberScores, "member");
  requireScores(nonMemberScores, "non-member");
  // All scores, highest first; lowering the threshold past each distinct score adds its
  // members to the true positives and its non-members to the false positives.
  struct Scored {
    double score;
    bool member;
  };
  std::vector<Scored> all;
  all.reserve(memberScores.size() + nonMemberScores.size());
  for (const double s : memberScores) all.push_back({s, true});
  for (const double s : nonMemberScores) all.push_back({s, false});
  std::sort(all.begin(), all.end(),
            [](const Scored& a, const Scored& b) { return a.score > b.score; });

  const double positives = static_cast<double>(memberScores.size());
  const double negatives = static_cast<double>(nonMemberScores.size());
  RocCurve roc;
  roc.fpr.push_back(0.0);
  roc.tpr.push_back(0.0);
  long long tp = 0;
  long long fp = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].score == all[i].score) {
      (all[j].member ? tp : fp) += 1;
      ++j;
    }
    roc.fpr.push_back(static_cast<double>(fp) / negatives);
    roc.tpr.push_back(static_cast<double>(tp) / positives);
    i = j;
  }
  return roc;
}

double areaUnderCurve(const RocCurve& roc) {
  double area = 0.0;
  for (std::size_t i = 1; i < roc.fpr.size(); ++i) {
    area += (roc.fpr[i] - roc.fpr[i - 1]) * 0.5 * (roc.tpr[i] + roc.tpr[i - 1]);
  }
  return area;
}

double tprAtFpr(const RocCurve& roc, double fpr) {
  if (!(fpr >= 0.0 && fpr <= 1.0)) {
    throw PrivacyError("roc: false-positive rate must be in [0, 1], got " + std::to_string(fpr));
  }
  double best = 0.0;
  for (std::size_t i = 0; i < roc.fpr.size(); ++i) {
    if (roc.fpr[i] <= fpr) best = std::max(best, roc.tpr[i]);
  }
  return best;
}

double attackerAdvantage(const RocCurve& roc) {
  double best = 0.0;
  for (std::size_t i = 0; i < roc.fpr.size(); ++i) best = std::max(best, roc.tpr[i] - roc.fpr[i]);
  return best;
}

}  // namespace epsilon::audit

// The loss-threshold membership-inference attack (Yeom et al., "Privacy Risk in Machine
// Learning: Analyzing the Connection to Overfitting", CSF 2018, §3.2): an example whose loss
// under the trained model is low is guessed to be a training member. Works on any finished
// run's model; needs no shadow models.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/audit/roc.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::audit {

// score(logits, label) of each row of `split` under `model` (batched, in parallel; each row's
// value is computed alone, so the result does not depend on the thread count).
using LogitScore = std::function<double(std::span<const float> logits, int label)>;
std::vector<double> perExampleScores(const nn::Model<float>& model, const data::Split& split,
                                     const LogitScore& score);

// Softmax cross-entropy of each row of `split` under `model` (batched, parallel).
std::vector<double> perExampleLosses(const nn::Model<float>& model, const data::Split& split);

struct MembershipAttack {
  RocCurve roc;  // over members (score −loss) vs non-members
  double auc = 0.5;
  double tprAtFpr1Percent = 0.0;   // TPR at FPR ≤ 1%
  double tprAtFpr01Percent = 0.0;  // TPR at FPR ≤ 0.1%
  double advantage = 0.0;          // best threshold's TPR − FPR
  // Yeom et al.'s own threshold: "member" when the loss is below the mean training loss
  // (their Adversary 2 with the expected training loss); its TPR − FPR.
  double yeomAdvantage = 0.0;
  long long members = 0;
  long long nonMembers = 0;
};

// ROC, AUC, TPR at 1% and 0.1% FPR and the best advantage of any attack's scores, higher
// meaning "more likely a member" (yeomAdvantage is left 0).
MembershipAttack scoredAttack(std::span<const double> memberScores,
                              std::span<const double> nonMemberScores);

// The attack on explicit loss samples: members' and non-members' losses.
MembershipAttack lossThresholdAttack(const std::vector<double>& memberLosses,
                                     const std::vector<double>& nonMemberLosses);

// The examples an attack on a finished run judges: n = min(memberRows, |heldOut|) members
// drawn without replacement from the first `memberRows` rows of `train` (all rows when
// negative; Philox, `seed`) and the first n held-out rows, so both sides are equally many (a
// balanced prior, as in Yeom et al.'s experiment). Every attack (loss threshold, LiRA) judges
// the same examples. Throws PrivacyError if either side is empty.
struct AttackCandidates {
  std::vector<long long> memberRows;  // the members' rows in `train`, in draw order
  data::Split members;
  data::Split nonMembers;
};
AttackCandidates attackCandidates(const data::Split& train, const data::Split& heldOut,
                                  std::uint64_t seed, long long memberRows = -1);

// The rows of `split` at `rows`, in that order.
data::Split selectRows(const data::Split& split, const std::vector<long long>& rows);

// The loss-threshold attack on a finished run's attackCandidates.
MembershipAttack attackModel(const nn::Model<float>& model, const data::Split& train,
                             const data::Split& heldOut, std::uint64_t seed,
                             long long memberRows = -1);

}  // namespace epsilon::audit

// The loss-threshold membership-inference attack (Yeom et al., "Privacy Risk in Machine
// Learning: Analyzing the Connection to Overfitting", CSF 2018, §3.2): an example whose loss
// under the trained model is low is guessed to be a training member. Works on any finished
// run's model; needs no shadow models.
#pragma once

#include <cstdint>
#include <vector>

#include "core/audit/roc.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::audit {

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

// The attack on explicit loss samples: members' and non-members' losses.
MembershipAttack lossThresholdAttack(const std::vector<double>& memberLosses,
                                     const std::vector<double>& nonMemberLosses);

// The attack on a finished run: n = min(memberRows, |heldOut|) members drawn without
// replacement from the first `memberRows` rows of `train` (all rows when negative; Philox,
// `seed`) against the first n held-out rows, so both sides are equally many (a balanced
// prior, as in Yeom et al.'s experiment). Throws PrivacyError if either side is empty.
MembershipAttack attackModel(const nn::Model<float>& model, const data::Split& train,
                             const data::Split& heldOut, std::uint64_t seed,
                             long long memberRows = -1);

}  // namespace epsilon::audit

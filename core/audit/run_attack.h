// The membership attack on a finished run, in the form the GUI keeps in the run's record: the
// loss-threshold attack (Yeom et al. 2018) on the final model, its ROC thinned for drawing, and
// the accountant's trade-off bound for the same run (the f-DP envelope no attacker can cross).
#pragma once

#include <memory>
#include <vector>

#include "core/audit/membership_inference.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::audit {

// The accountant's TPR bound at FPRs log-spaced from 1e-4 to 1.
struct TradeoffBound {
  std::vector<double> fpr;
  std::vector<double> tpr;
};

struct RunAttack {
  MembershipAttack attack;  // the exact statistics, from the full ROC
  RocCurve drawnRoc;        // attack.roc thinned by thinRoc
  TradeoffBound bound;      // empty when the run has no DP guarantee (no noise)
  double seconds = 0.0;     // loading, scoring, ROC and bound
};

// The FPRs at which the trade-off bound is drawn: 10^(−4 + 4i/80), i = 0..80.
std::vector<double> tradeoffFprGrid();

// The bound of a finished run (runPrivacyProfile up to a few times its ε, then tprBoundCurve).
// Empty for a run without noise, where no attacker is bounded.
TradeoffBound runTradeoffBound(const train::RunResult& run);

// At most about 2·bins + 2 points of `roc`, taken from the curve itself (so never optimistic):
// per bin of log10 FPR over [1e-6, 1] and per bin of linear FPR over [0, 1], the last point in
// the bin (the highest TPR there), plus both ends. The low-FPR end keeps its resolution.
RocCurve thinRoc(const RocCurve& roc, int bins = 150);

// Attacks the final `model` of a finished run of `config` that took `steps` steps and spent
// `epsilon` (the accountant's final ε; sizes the bound's grid): members from
// its training split against its test split (attackModel, seeded by training.seed), then the
// bound. `dataset` is the raw data the run trained on, or null to load it by the config's name
// and options; scattering presets are attacked on their features, as they were trained.
// Throws DataError/ConfigError when the data cannot be loaded, PrivacyError when a split is empty.
RunAttack attackFinishedRun(std::shared_ptr<const nn::Model<float>> model,
                            const train::ExperimentConfig& config, long long steps, double epsilon,
                            std::shared_ptr<const data::Dataset> dataset = nullptr);

}  // namespace epsilon::audit

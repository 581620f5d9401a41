// One audited training run: DP-SGD on the data plus m canaries (each in with probability ½),
// then the one-run audit's lower bound ε̂ (Steinke, Nasr & Jagielski 2023) from the canaries'
// losses and the loss-threshold membership attack (Yeom et al. 2018) on the real members —
// set beside the accountant's upper bound ε for the same run.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "core/audit/canaries.h"
#include "core/audit/membership_inference.h"
#include "core/audit/one_run_bound.h"
#include "core/data/dataset.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::audit {

struct AuditOptions {
  long long canaries = 1000;  // m
  CanaryKind kind = CanaryKind::Mislabel;
  double confidence = 0.95;
  // k₊ = k₋ values searched (Bonferroni-corrected); empty: defaultGuessGrid(m).
  std::vector<long long> guessGrid;

  // Throws ConfigError naming "audit.canaries" or "audit.confidence".
  void validate() const;
};

struct AuditResult {
  train::RunResult run;  // the run with the canaries (its history and final model)
  // The data the run trained on (the base rows, then the included canaries), for a later
  // attack on the same members (LiRA's shadows, core/audit/lira.h).
  std::shared_ptr<const data::Dataset> trainingData;
  long long canariesIncluded = 0;
  MembershipAttack attack;  // real training members vs the test split
  RocCurve canaryRoc;       // included vs left-out canaries, score −loss
  double canaryAuc = 0.5;
  OneRunBound bound;  // ε̂ with its m, r, v, k and confidence
  // The accountant's statement for the audited run. Its training set grew by the included
  // canaries (N + k rows, so q = L/(N + k)), so its ε differs from `runOwn`, the statement of
  // the same config trained on the N rows alone: both are kept so every view can say why.
  privacy::PrivacyStatement upper;
  privacy::PrivacyStatement runOwn;
  long long baseTrainSize = 0;     // N
  long long auditedTrainSize = 0;  // N + k
  double testAccuracy = 0.0;
  double attackSeconds = 0.0;  // scoring, ROC and bound after training
};

// Trains `config` on `dataset` plus the canaries (seeded by training.seed) on the calling
// thread, then attacks the final model. Throws ConfigError/DataError/ModelError when the run
// fails on its input, std::runtime_error when it diverges, fails or is cancelled.
AuditResult runAudit(const train::ExperimentConfig& config, const data::Dataset& dataset,
                     const AuditOptions& options, const train::ProgressCallback& onProgress = {},
                     const std::atomic<bool>* cancel = nullptr);

// The attack half alone, on a finished run trained on `canaryData.training`.
void attackAuditedRun(const CanaryData& canaryData, const AuditOptions& options,
                      AuditResult& result);

}  // namespace epsilon::audit

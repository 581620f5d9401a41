// PrivacyTracker: the privacy ledger of one training run. It starts from the run's planned
// description with no steps (run_planning.h: privacyDescription), appends the σ_t the trainer
// actually used at each step, and answers with privacyStatement — the one function the preview,
// `epsilon` and every other view ask — so a trained run's ε after s steps is the double its
// preview shows for step s, however often the run is evaluated.
#pragma once

#include "core/privacy/privacy_statement.h"

namespace epsilon::train {

class PrivacyTracker {
 public:
  // `planned`: the run's description; its steps and σ_t are ignored (the tracker records them).
  explicit PrivacyTracker(privacy::PrivacyRunDescription planned);

  // One step whose gradient noise had multiplier `gradientSigma` (σ_t; σ_Δ for adaptive
  // clipping; 0 means no noise, hence no guarantee).
  void recordStep(double gradientSigma);
  // The statement for every step recorded so far.
  privacy::PrivacyStatement statement() const;

 private:
  // σ_t of every step, or one value while every step so far had the same σ (a run of 10⁶
  // steps at one σ keeps one double; privacyStatement reads both forms alike).
  privacy::PrivacyRunDescription m_run;
};

}  // namespace epsilon::train

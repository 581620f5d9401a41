// PrivacyTracker: the running privacy ledger of one training run. The trainer records each
// step's noise multiplier; at an evaluation the pending steps are turned into events by the
// privacy report's rules (core/privacy/privacy_report.h: honest tanh sensitivity, adaptive
// clipping's count release, merged equal steps) and composed into one accountant kept for
// the whole run, so ε over a run costs one composition per evaluation. A one-time release
// before training (the DP-PCA projection) is composed at construction.
#pragma once

#include <memory>

#include "core/privacy/calibration.h"
#include "core/privacy/privacy_report.h"
#include "core/train/privacy_spent.h"

namespace epsilon::train {

// What the accounting needs to know about a run.
struct PrivacyTrackerSetup {
  privacy::PrivatizerKind privatizer = privacy::PrivatizerKind::Clip;
  privacy::SamplingKind sampling = privacy::SamplingKind::Poisson;
  double sampleRate = 0.0;  // q = L/N
  double delta = 1e-5;
  privacy::AccountantKind accountant = privacy::AccountantKind::Rdp;
  long long parameterCount = 0;  // tanh: the honest sensitivity is c·√P
  double countNoiseStd = 0.0;    // adaptive: σ_b
  // A DP-PCA projection released before the first step (Abadi et al. 2016, §5): composed
  // once, at construction, into every ε this tracker reports.
  bool pca = false;
  double pcaNoiseMultiplier = 0.0;  // σ_pca (0: released without noise, no guarantee)
  double pcaSampleFraction = 0.1;
};

class PrivacyTracker {
 public:
  explicit PrivacyTracker(const PrivacyTrackerSetup& setup);
  ~PrivacyTracker();
  PrivacyTracker(const PrivacyTracker&) = delete;
  PrivacyTracker& operator=(const PrivacyTracker&) = delete;

  // One step whose gradient noise had multiplier `gradientSigma` (σ_t; σ_Δ for adaptive
  // clipping; 0 means no noise, hence no guarantee).
  void recordStep(double gradientSigma);
  // ε(δ) for every step recorded so far.
  PrivacySpent spent();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace epsilon::train

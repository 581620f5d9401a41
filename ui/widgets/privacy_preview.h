// The privacy a configured run will spend, computed before any training: ε at the end with
// its δ, accountant and sampling assumption, its curve over epochs, the tanh filter's
// nominal figure, pca-mlp's DP-PCA release on its own line, and what it means for a
// membership attacker. Pure (no widgets), so the
// readout, the CLI and the tests share it.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::ui {

struct PrivacyPreviewInput {
  train::ExperimentConfig config;
  long long trainSize = 0;       // N
  long long parameterCount = 0;  // P, for the tanh filter's honest sensitivity c·√P
};

struct PrivacyPreview {
  bool valid = false;
  QString error;  // why nothing could be computed (names the field)
  double epsilon = 0;
  double delta = 0;
  QString accountant;  // "RDP" or "PLD (tight)"
  QString sampling;    // "Poisson sampling" / "assumes Poisson sampling (…)"
  QString status;      // "DP guarantee", "no privacy", ...
  bool isGuarantee = false;
  std::optional<double> order;
  std::optional<double> nominalEpsilon;  // tanh filter: not a guarantee
  // pca-mlp: the DP-PCA release's own line ("PCA: σ 7 on 10% of the data (…)") and its ε alone
  // at the same δ and accountant; `epsilon` above already includes it.
  QString pcaLine;
  std::optional<double> pcaEpsilon;
  double sampleRate = 0;
  long long steps = 0;
  double effectiveNoiseMultiplier = 0;
  std::vector<std::pair<double, double>> curve;         // (epoch, ε)
  std::vector<std::pair<double, double>> nominalCurve;  // tanh only
  double tprAtOnePercent = 1;                           // attacker bound at FPR = 1%
  double maxAdvantage = 1;

  // "δ = 1e-5 · RDP · Poisson sampling"
  QString label() const;
  // "An attacker who wrongly accuses 1 in 100 non-members can detect a member at most 4.2% of the
  // time."
  QString attackerSentence() const;
};

// True when the preview is cheap enough to compute on the GUI thread while a slider moves
// (RDP with a constant noise multiplier); otherwise compute it on a worker.
bool previewIsInstant(const train::ExperimentConfig& config);

PrivacyPreview computePrivacyPreview(const PrivacyPreviewInput& input);

// "the largest power of ten below 1/N" (the δ default the panel offers).
double defaultDelta(long long trainSize);

}  // namespace epsilon::ui

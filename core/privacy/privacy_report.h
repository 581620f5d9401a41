// The honest privacy statement of a training run: which events it released (per-step σ_t,
// adaptive clipping's count release, the tanh filter's real sensitivity), the ε an
// accountant gives for them with its δ, accountant and sampling assumption, and — for the
// tanh filter — the paper's "nominal" ε, always labelled as not being a guarantee.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/privacy/calibration.h"
#include "core/privacy/dp_event.h"
#include "core/privacy/privatizer_kind.h"
#include "core/privacy/rdp.h"

namespace epsilon::privacy {

enum class SamplingKind { Poisson, Shuffle };

// What the trainer did, in the trainer's convention: each step adds noise N(0, (σ_t·S)²) to
// the sum of privatized per-example gradients, with S the privatizer's scale (the clip norm
// C for L2 clipping, the current C_t for adaptive clipping, c for the tanh filter).
struct PrivacyRunDescription {
  SamplingKind sampling = SamplingKind::Poisson;
  PrivatizerKind privatizer = PrivatizerKind::Clip;
  double sampleRate = 0.0;  // q = expected lot size / data set size
  long long steps = 0;
  // σ_t: one value for every step, or exactly `steps` values (a noise schedule).
  std::vector<double> noiseMultipliers;
  // Tanh filter: number of parameters P. Each coordinate of a filtered gradient lies in
  // [−c, c], so its L2 norm can reach c·√P: the honest sensitivity is c·√P, not c.
  long long parameterCount = 0;
  // Adaptive clipping (Andrew et al. 2021): standard deviation σ_b of the noise on the
  // count of unclipped examples, released every step on the same sample.
  double countNoiseStd = 0.0;
  double delta = 1e-5;
  AccountantKind accountant = AccountantKind::Rdp;
  RdpConversion conversion = RdpConversion::Improved;
  // A DP-PCA projection released once before the first step (Abadi et al. 2016, §5), composed
  // with the steps: Gaussian(σ_pca) on the data, no amplification by its sample claimed.
  bool pca = false;
  double pcaNoiseMultiplier = 0.0;  // σ_pca; 0 releases the sample's PCA without noise
  double pcaSampleFraction = 0.1;   // f, for the label only
};

inline constexpr const char* kNominalLabel = "nominal — not a DP guarantee";

struct PrivacyReport {
  double epsilon = 0.0;  // the honest ε (∞ without privacy)
  double delta = 0.0;
  std::string accountant;                 // "rdp" or "pld"
  std::optional<double> order;            // RDP order attaining ε
  std::string samplingLabel;              // "Poisson sampling" / "assumes Poisson sampling (…)"
  bool isGuarantee = false;               // a proven (ε, δ)-DP bound for what was run
  std::string statusLabel;                // "DP guarantee", "no privacy", or why not proven
  double effectiveNoiseMultiplier = 0.0;  // σ of step 0 as the accountant sees it
  std::optional<double> nominalEpsilon;   // tanh only
  std::string nominalLabel;               // kNominalLabel when nominalEpsilon is set
  bool noiseMultipliersRounded = false;   // σ_t rounded down (pessimistic) to a 0.1% grid
  std::string pcaLabel;                   // "PCA: σ 7 on 10% of the data (…)" when run.pca
  std::optional<double> pcaEpsilon;       // ε of the PCA release alone, same δ and accountant
};

// The accounted events of the run with their counts, consecutive equal steps merged.
// `nominal` treats the tanh filter's sensitivity as c (not a guarantee). Throws
// PrivacyError naming the field ("privacy.sample_rate", "privacy.noise_multiplier",
// "training.steps", "privacy.parameter_count", "privacy.count_noise_std") on bad input.
std::vector<std::pair<DpEvent, long long>> privacyEvents(const PrivacyRunDescription& run,
                                                         bool nominal = false);

// Accounts the run and labels the result (see PrivacyReport).
PrivacyReport privacyReport(const PrivacyRunDescription& run);

// Adaptive clipping: the gradient noise multiplier σ_Δ that, together with the count noise σ_b,
// gives the privacy of one Gaussian with multiplier σ (Andrew et al. 2021, Thm. 1):
// σ_Δ = (σ⁻² − (2σ_b)⁻²)^(−1/2). Throws PrivacyError if 2σ_b <= σ (no σ_Δ is enough).
double adaptiveGradientNoiseMultiplier(double targetNoiseMultiplier, double countNoiseStd);

// ε after each of `steps` (sorted) DP-SGD steps at (q, σ, δ): the privacy preview curve.
// RDP computes the curve once and scales it; PLD composes afresh at each point. With
// `pcaNoiseMultiplier`, a DP-PCA release (Gaussian(σ_pca)) comes before step 1 and is in
// every point, step 0 included.
std::vector<double> epsilonOverSteps(AccountantKind kind, double sampleRate, double noiseMultiplier,
                                     double delta, std::span<const long long> steps,
                                     std::optional<double> pcaNoiseMultiplier = std::nullopt);

// ε of one DP-PCA release alone (Gaussian(σ_pca), no sampling) at δ: what it adds at most.
double dpPcaEpsilon(AccountantKind kind, double pcaNoiseMultiplier, double delta);

}  // namespace epsilon::privacy

// The privacy statement of a run — the one place that turns what a run releases into what a
// user is told (docs/ARCHITECTURE.md, "One of each"): the ε an accountant gives with its δ,
// accountant and sampling assumption, whether it is a guarantee, the RDP order, and for the
// tanh filter the paper's "nominal" ε, never shown as a guarantee. The preview, the trainer,
// `epsilon`, `calibrate`, presets, accountant-only runs and the audit all ask privacyStatement.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/privacy/calibration.h"
#include "core/privacy/dp_event.h"
#include "core/privacy/privatizer_kind.h"
#include "core/privacy/rdp.h"

namespace epsilon::privacy {

enum class SamplingKind { Poisson, Shuffle };

// What a run releases, in the trainer's convention: each step adds noise N(0, (σ_t·S)²) to
// the sum of privatized per-example gradients, with S the privatizer's scale (the clip norm
// C for L2 clipping, the current C_t for adaptive clipping, c for the tanh filter).
struct PrivacyRunDescription {
  SamplingKind sampling = SamplingKind::Poisson;
  PrivatizerKind privatizer = PrivatizerKind::Clip;
  double sampleRate = 0.0;  // q = expected lot size / data set size
  long long steps = 0;
  // σ_t of the gradient noise (σ_Δ for adaptive clipping): one value for every step, or
  // exactly `steps` values (a noise schedule). A σ_t of 0 releases that step without noise.
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
  // The whole run repeated on the same data: `runs` times with every output released (their
  // plain composition), and, with `tuning`, that a random number K of times with only the
  // best output released (private selection, Papernot & Steinke 2022; rdp_tuning.h). Tuning is
  // bounded in RDP only: with the PLD accountant the statement refuses it (privacy.tuning).
  long long runs = 1;
  std::optional<TuningDistribution> tuning;
};

enum class GuaranteeStatus {
  Guarantee,        // a proven (ε, δ)-DP bound: finite, Poisson sampling
  NothingReleased,  // no step and no PCA release yet: ε = 0
  NoPrivacy,        // something was released without noise: no ε bounds it
  NoFiniteBound,    // accounted, but no finite ε at this δ
  AssumesPoisson,   // shuffled batches accounted as if Poisson-sampled: not proven
};

struct PcaStatement {
  double noiseMultiplier = 0.0;  // σ_pca
  double sampleFraction = 0.0;   // f
  double epsilon = 0.0;          // ε of the release alone, same δ and accountant
};

// A tuned run (PrivacyRunDescription::tuning) beside what it is compared with, at the same δ
// and accountant: one run alone, and a fixed K = ⌈μ⌉ runs composed with every output released.
struct TuningStatement {
  TuningDistribution distribution;
  double singleRunEpsilon = 0.0;
  long long fixedRuns = 1;
  double fixedRunsEpsilon = 0.0;
};

struct PrivacyStatement {
  double epsilon = 0.0;  // the honest ε (∞ when there is no bound)
  double delta = 0.0;
  AccountantKind accountant = AccountantKind::Rdp;
  SamplingKind sampling = SamplingKind::Poisson;
  GuaranteeStatus status = GuaranteeStatus::NothingReleased;
  long long steps = 0;
  std::optional<double> order;            // the RDP order attaining ε (RDP only)
  std::optional<double> nominalEpsilon;   // tanh only: sensitivity taken as c, not a guarantee
  double effectiveNoiseMultiplier = 0.0;  // σ of step 0 as the accountant sees it
  bool noiseRounded = false;              // some σ_t was rounded down (accountedNoiseMultiplier)
  std::optional<PcaStatement> pca;
  std::optional<TuningStatement> tuning;  // ε above is then the tuned run's, best released

  bool isGuarantee() const { return status == GuaranteeStatus::Guarantee; }
};

// The statement of a run: validates the description (PrivacyError naming the field:
// "privacy.sample_rate", "privacy.noise_multiplier", "training.steps", "privacy.delta",
// "privacy.parameter_count", "privacy.clip_count_stddev", "model.pca_noise"), turns it into
// events and accounts them with a fresh accountant. A pure function of its argument: the same
// description gives the same double wherever and however often it is asked.
PrivacyStatement privacyStatement(const PrivacyRunDescription& run);

// The same run without private selection: once (singleRun), or `runs` times with every
// output released (composedRuns: the plain `runs`-fold composition).
PrivacyRunDescription singleRun(const PrivacyRunDescription& run);
PrivacyRunDescription composedRuns(const PrivacyRunDescription& run, long long runs);
// The fixed number of runs a tuning distribution is compared with: K = ⌈μ⌉.
long long comparisonRuns(const TuningDistribution& distribution);

// Private tuning over a grid draws each run's settings at random among `runs`. Such a run is
// bounded by any description whose RDP curve (RDP accountant, its order grid) is at least every
// other's at every order: Rényi divergence is jointly quasi-convex (van Erven & Harremoës
// 2014, Thm. 13), so a random choice among mechanisms costs at most the worst of them. Returns
// that description's index (the first, if several), or nullopt when none dominates all.
std::optional<std::size_t> dominatingRun(const std::vector<PrivacyRunDescription>& runs);

// The run's first `steps` steps (steps ≤ run.steps): what the run has released after them.
PrivacyRunDescription firstSteps(const PrivacyRunDescription& run, long long steps);

// The one calibration: the smallest σ₀ in [min, max] whose run `describe(σ₀)` has an honest ε
// at most `targetEpsilon` (bracketing then bisection on privacyStatement, calibration.h), so
// every mechanism the description holds is honoured; any accountant, from the same start (an
// RDP calibration first would cost more than it saves: RDP accounts every distinct σ_t of a
// schedule). A PCA release is held fixed; when it alone spends the target, PrivacyError says
// so, naming model.pca_noise.
Calibration calibrateNoise(const std::function<PrivacyRunDescription(double)>& describe,
                           double targetEpsilon, CalibrationOptions options = {});

// The accounted events of the run with their counts, consecutive equal steps merged.
// `nominal` treats the tanh filter's sensitivity as c (not a guarantee).
std::vector<std::pair<DpEvent, long long>> privacyEvents(const PrivacyRunDescription& run,
                                                         bool nominal = false);

// The σ_t the accountant is given for a step, relative to the run's first σ₀: σ_t itself for
// RDP and for every step equal to σ₀; for PLD, a different σ_t is rounded down onto the grid
// σ₀·0.99^k. A smaller σ only raises ε, so the bound stays valid (pessimistic by at most 1% in
// σ), and a decaying schedule has a few dozen distinct steps for the PLD accountant to compose
// instead of one per step. Each step is rounded on its own, so ε after s steps depends only on
// σ_0 … σ_{s−1}: a run's ε is the same whenever and however often it is evaluated.
double accountedNoiseMultiplier(AccountantKind accountant, double sigma, double firstSigma);

// Adaptive clipping: the gradient noise multiplier σ_Δ that, together with the count noise σ_b,
// gives the privacy of one Gaussian with multiplier σ (Andrew et al. 2021, Thm. 1):
// σ_Δ = (σ⁻² − (2σ_b)⁻²)^(−1/2); 0 for σ = 0. Throws ConfigError naming
// privacy.clip_count_stddev unless 2σ_b > σ (no σ_Δ is enough).
double adaptiveGradientNoiseMultiplier(double noiseMultiplier, double countNoiseStd);

// ε of one DP-PCA release alone (Gaussian(σ_pca), no sampling) at δ: what it adds at most.
double dpPcaEpsilon(AccountantKind kind, double pcaNoiseMultiplier, double delta);

// The words for a statement, made only where a statement is shown or written; each parse
// function reads back what the matching words function writes and throws PrivacyError
// naming `field` otherwise.
inline constexpr const char* kNominalLabel = "nominal — not a DP guarantee";
const char* statusWords(GuaranteeStatus status);
GuaranteeStatus parseStatusWords(const std::string& text, const std::string& field);
const char* samplingWords(SamplingKind sampling);
SamplingKind parseSamplingWords(const std::string& text, const std::string& field);
const char* accountantWords(AccountantKind accountant);  // "RDP", "PLD (tight)"
// "poisson", "geometric", "log" or "tnb": the law's name as `--tuning` spells it.
const char* tuningLawName(const TuningDistribution& distribution);
// "best of a random number of runs (Poisson, mean 10)".
std::string tuningWords(const TuningDistribution& distribution);

}  // namespace epsilon::privacy

// The likelihood-ratio membership attack, LiRA (Carlini, Chien, Nasr, Song, Terzis & Tramèr,
// "Membership Inference Attacks From First Principles", IEEE S&P 2022): shadow models trained
// like the target, each with a random half of the candidates, tell how each example's
// confidence behaves when it is IN and OUT of training; the target's confidence is then
// tested against those two Gaussians, example by example.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/audit/membership_inference.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::audit {

// Carlini et al. 2022, §IV ("logit scaling"): φ(p) = log(p / (1 − p)) of the model's
// softmax confidence p = f(x)_y in the true class. Computed from the logits z as
// φ = z_y − log Σ_{j≠y} exp(z_j), which is exactly log p_y − log(1 − p_y) and never forms
// 1 − p_y, so it stays finite and exact when p is within rounding of 0 or 1.
double logitScaledConfidence(std::span<const float> logits, int label);
// φ of every row of `split` under `model`.
std::vector<double> logitScaledConfidences(const nn::Model<float>& model, const data::Split& split);

enum class LiraTest { Online, Offline };
// PerExample: each example's own IN and OUT variances (needs ≥ 2 values on a side). Global:
// one variance per side shared by all examples, which Carlini et al. find better with few
// shadows. Auto: Global below 64 shadows, PerExample from 64.
enum class LiraVariance { Auto, PerExample, Global };

std::string liraTestName(LiraTest test);  // "online", "offline"
// Throws ConfigError "<field>: expected online or offline, got '<text>'".
LiraTest parseLiraTest(const std::string& text, const std::string& field = "audit.lira");
std::string liraVarianceName(LiraVariance variance);  // "auto", "per-example", "global"

inline constexpr int kMaxShadows = 256;

struct LiraOptions {
  int shadows = 16;
  LiraTest test = LiraTest::Online;
  LiraVariance variance = LiraVariance::Auto;
  // Throws ConfigError naming "audit.shadows": both tests need ≥ 2 shadows (so that every
  // candidate is OUT of at least one, and IN of at least one for the online test), at most
  // kMaxShadows; the per-example variance needs ≥ 4 (two values on each side).
  void validate() const;
};

// Which candidates each shadow trains on: in[s][c] = 1 when candidate c is IN for shadow s.
// Shadows come in complementary pairs (2k takes a uniformly random half of the candidates,
// drawn from Philox keyed by `seed`; 2k + 1 the other half), so every shadow holds exactly
// ⌊n/2⌋ or ⌈n/2⌉ of n candidates and every candidate is IN for exactly half of an even number
// of shadows (an odd last shadow takes a fresh random half).
std::vector<std::vector<char>> shadowMemberships(long long candidates, int shadows,
                                                 std::uint64_t seed);

// What the shadows leave behind, enough to attack any target of the same configuration and
// candidates again without training (it is what a reuse keeps).
struct ShadowSet {
  std::vector<std::vector<char>> in;     // [shadow][candidate]
  std::vector<std::vector<double>> phi;  // [shadow][candidate]: φ under that shadow
  // Each shadow's accuracy on the candidates it did not train on (the trainer's own test
  // accuracy would count the non-member candidates it trained on).
  std::vector<double> outAccuracy;
  double seconds = 0.0;
  int reused = 0;          // shadows taken from a kept set rather than trained
  bool cancelled = false;  // `phi` then holds only the shadows finished before the cancel
};

struct GaussianFit {
  double mean = 0.0;
  double variance = 1.0;
};

// Per-candidate fits of φ over the shadows where it was IN and where it was OUT. The Global
// variance pools each side's squared deviations from each candidate's own mean over all
// candidates (Σ_c Σ_s (φ_cs − μ_c)² / Σ_c (n_c − 1)); when no candidate has two values on a
// side it falls back to the spread of all that side's values about their overall mean.
// Variances are floored at 1e-12 so a test never divides by zero. `in` is left empty when
// `needIn` is false (the offline test).
struct LiraFits {
  std::vector<GaussianFit> in;
  std::vector<GaussianFit> out;
  bool globalVariance = false;
};
LiraFits fitShadows(const std::vector<std::vector<char>>& in,
                    const std::vector<std::vector<double>>& phi, LiraVariance variance,
                    bool needIn);

// The score of an observed φ, higher meaning "more likely a member" (Carlini et al. 2022):
//   online (§IV-B, Algorithm 1): log Λ = log N(φ; μ_in, σ²_in) − log N(φ; μ_out, σ²_out);
//   offline (§IV-C): the one-sided test Λ = 1 − Pr[Z > φ] = Φ((φ − μ_out)/σ_out),
//   Z ~ N(μ_out, σ²_out); returned as its argument (φ − μ_out)/σ_out, which orders the
//   examples exactly as Λ does (Φ is increasing) without Λ's rounding to 1 in the tail that
//   low false-positive rates are read from.
double onlineScore(double phi, const GaussianFit& in, const GaussianFit& out);
double offlineScore(double phi, const GaussianFit& out);

// The target's scores for each candidate under `fits`.
std::vector<double> liraScores(std::span<const double> targetPhi, const LiraFits& fits,
                               LiraTest test);

// Progress of one shadow: its index, the count, and the trainer's event.
using ShadowProgress =
    std::function<void(int shadow, int shadows, const train::ProgressEvent& event)>;

// Throws ConfigError naming "model.preset" when `config` cannot be shadowed yet (the
// scattering presets, whose features the trainer computes from the whole data set).
void requireShadowable(const train::ExperimentConfig& config);

// Trains options.shadows shadows of `config` on the calling thread, in parallel inside the
// current TBB arena (the caller sets the thread budget; the result is bit-identical whatever
// it is). The target trained on `training.train`; the candidates are its rows `memberRows`
// (the members) and `nonMembers`. Shadow s trains on the rows of `training.train` that are not
// candidates, then the candidates IN for it (shadowMemberships, keyed by config.training.seed),
// so with n members and n non-members its training set has exactly the target's size, and
// every setting (q, steps, σ, ε) is the target's; its own seed is drawn from (seed, s).
// `cancel` is polled before every step; a cancelled set is returned with cancelled = true.
// `kept`, when given, holds shadows trained before for the same configuration, data and
// candidates (the caller's key says so): its first shadows are reused, not trained again,
// when their memberships are this call's (a set of S shadows is a prefix of a larger one).
// Throws ConfigError when the configuration cannot be shadowed (requireShadowable),
// std::runtime_error when a shadow fails or diverges.
ShadowSet trainShadows(const train::ExperimentConfig& config, const data::Dataset& training,
                       const std::vector<long long>& memberRows, const data::Split& nonMembers,
                       const LiraOptions& options, const ShadowProgress& onProgress = {},
                       const std::atomic<bool>* cancel = nullptr, const ShadowSet* kept = nullptr);

struct LiraAttack {
  MembershipAttack attack;  // ROC, AUC and TPR at 1% and 0.1% FPR (yeomAdvantage unused)
  LiraTest test = LiraTest::Online;
  bool globalVariance = true;
  int shadows = 0;
  double meanShadowOutAccuracy = 0.0;  // mean of ShadowSet::outAccuracy
  double shadowSeconds = 0.0;
  double attackSeconds = 0.0;  // scoring the target and the ROC
  int reusedShadows = 0;       // shadows taken from a kept set (ShadowSet::reused)
  bool cancelled = false;      // the shadows were cancelled: nothing else is set
};

// The attack on `target` from finished shadows: φ of the members then the non-members under
// the target, scored against the shadows' fits.
LiraAttack liraFromShadows(const nn::Model<float>& target, const AttackCandidates& candidates,
                           const ShadowSet& shadows, const LiraOptions& options);

// The whole attack on a finished run of `config` whose final model is `target`: the same
// candidates as the loss-threshold attack (attackCandidates of `training`, members from its
// first `memberRows` rows, all when negative, seeded by training.seed), the shadows, then the
// test. This is what a job runs: `cancel`, `onProgress` and the thread budget of the calling
// arena as in trainShadows; the numbers do not depend on the thread count. With `shadows`
// given, its content is reused (trainShadows' `kept`) and replaced by the set used, to keep.
LiraAttack runLira(const nn::Model<float>& target, const train::ExperimentConfig& config,
                   const data::Dataset& training, long long memberRows, const LiraOptions& options,
                   const ShadowProgress& onProgress = {}, const std::atomic<bool>* cancel = nullptr,
                   ShadowSet* shadows = nullptr);

}  // namespace epsilon::audit

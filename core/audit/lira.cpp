#include "core/audit/lira.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <stdexcept>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/common/text.h"
#include "core/train/trainer.h"

namespace epsilon::audit {

namespace {

// Sub-streams of RandomPurpose::Audit (0–2: canaries, 3: the attack's member sample).
constexpr std::uint32_t kShadowHalfStream = 4;
constexpr std::uint32_t kShadowSeedStream = 5;

// Below this many shadows Auto uses one global variance: Carlini et al. 2022 find it better than
// per-example variances when each example has few IN and OUT values.
constexpr int kPerExampleVarianceFrom = 64;
constexpr double kVarianceFloor = 1e-12;

// [0, n) in the order of a Fisher–Yates shuffle driven by `stream`.
std::vector<long long> shuffled(long long n, const PhiloxStream& stream) {
  std::vector<long long> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (long long i = n - 1; i > 0; --i) {
    const long long j = std::min(
        i, static_cast<long long>(stream.uniform(static_cast<std::uint64_t>(i)) * (i + 1)));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  return order;
}

std::uint64_t shadowSeed(std::uint64_t seed, int shadow) {
  return PhiloxStream(seed, RandomPurpose::Audit, kShadowSeedStream).seed(std::uint64_t(shadow));
}

// Per candidate, one side's count, mean and squared deviations from that mean.
struct SideSums {
  std::vector<double> mean;
  std::vector<long long> count;
  std::vector<double> squares;  // Σ (φ − μ_c)² per candidate
};

SideSums sideSums(const std::vector<std::vector<char>>& in,
                  const std::vector<std::vector<double>>& phi, bool inSide) {
  const std::size_t n = phi.front().size();
  SideSums s{std::vector<double>(n, 0.0), std::vector<long long>(n, 0),
             std::vector<double>(n, 0.0)};
  for (std::size_t k = 0; k < phi.size(); ++k) {
    for (std::size_t c = 0; c < n; ++c) {
      if ((in[k][c] != 0) != inSide) continue;
      s.mean[c] += phi[k][c];
      ++s.count[c];
    }
  }
  for (std::size_t c = 0; c < n; ++c) {
    if (s.count[c] == 0) {
      throw PrivacyError(std::string("lira: candidate ") + std::to_string(c) + " is " +
                         (inSide ? "IN" : "OUT") + " of no shadow; train more shadows");
    }
    s.mean[c] /= static_cast<double>(s.count[c]);
  }
  for (std::size_t k = 0; k < phi.size(); ++k) {
    for (std::size_t c = 0; c < n; ++c) {
      if ((in[k][c] != 0) != inSide) continue;
      const double d = phi[k][c] - s.mean[c];
      s.squares[c] += d * d;
    }
  }
  return s;
}

std::vector<GaussianFit> fitSide(const std::vector<std::vector<char>>& in,
                                 const std::vector<std::vector<double>>& phi, bool inSide,
                                 bool global) {
  const SideSums s = sideSums(in, phi, inSide);
  const std::size_t n = s.mean.size();
  std::vector<GaussianFit> fits(n);
  double pooled = 0.0;
  if (global) {
    double squares = 0.0;
    long long freedom = 0;
    for (std::size_t c = 0; c < n; ++c) {
      squares += s.squares[c];
      freedom += s.count[c] - 1;
    }
    if (freedom > 0) {
      pooled = squares / static_cast<double>(freedom);
    } else {
      // One value per candidate: the spread of all of them about their overall mean.
      const double all = std::accumulate(s.mean.begin(), s.mean.end(), 0.0);
      const double mean = all / static_cast<double>(n);
      double spread = 0.0;
      for (const double m : s.mean) spread += (m - mean) * (m - mean);
      pooled = n > 1 ? spread / static_cast<double>(n - 1) : 0.0;
    }
  }
  for (std::size_t c = 0; c < n; ++c) {
    fits[c].mean = s.mean[c];
    if (!global && s.count[c] < 2) {
      throw PrivacyError("lira: a per-example variance needs at least 2 shadows on each side");
    }
    const double variance = global ? pooled : s.squares[c] / static_cast<double>(s.count[c] - 1);
    fits[c].variance = std::max(variance, kVarianceFloor);
  }
  return fits;
}

double logNormalDensity(double x, const GaussianFit& fit) {
  const double d = x - fit.mean;
  return -0.5 * std::log(2.0 * std::numbers::pi * fit.variance) - d * d / (2.0 * fit.variance);
}

// The target's training split with the candidates swapped for shadow `in`'s half: rows of
// `train` not in `candidate`, in order, then the pool rows IN for this shadow, in order.
data::Split shadowTrainSplit(const data::Split& train, const std::vector<char>& candidate,
                             const data::Split& pool, const std::vector<char>& in) {
  std::vector<long long> kept;
  for (long long r = 0; r < train.size(); ++r)
    if (!candidate[static_cast<std::size_t>(r)]) kept.push_back(r);
  std::vector<long long> chosen;
  for (std::size_t c = 0; c < in.size(); ++c)
    if (in[c]) chosen.push_back(static_cast<long long>(c));
  data::Split out;
  const auto total = static_cast<Eigen::Index>(kept.size() + chosen.size());
  out.features.resize(total, train.features.cols());
  out.labels.reserve(static_cast<std::size_t>(total));
  Eigen::Index row = 0;
  for (const long long r : kept) {
    out.features.row(row++) = train.features.row(r);
    out.labels.push_back(train.labels[static_cast<std::size_t>(r)]);
  }
  for (const long long c : chosen) {
    out.features.row(row++) = pool.features.row(c);
    out.labels.push_back(pool.labels[static_cast<std::size_t>(c)]);
  }
  return out;
}

// The target's data set with shadowTrainSplit as its training split (the test split unchanged).
std::shared_ptr<const data::Dataset> shadowDataset(const data::Dataset& training,
                                                   const std::vector<char>& candidate,
                                                   const data::Split& pool,
                                                   const std::vector<char>& in) {
  auto data = std::make_shared<data::Dataset>();
  data->name = training.name;
  data->provenance = training.provenance;
  data->shape = training.shape;
  data->classNames = training.classNames;
  data->test = training.test;
  data->train = shadowTrainSplit(training.train, candidate, pool, in);
  return data;
}

// The leading shadows of `kept` whose memberships are `set`'s (a cancelled set's finished
// shadows are as good as any).
void takeKeptShadows(const ShadowSet& kept, ShadowSet& set) {
  const std::size_t usable =
      std::min({kept.phi.size(), kept.in.size(), kept.outAccuracy.size(), set.in.size()});
  for (std::size_t s = 0; s < usable; ++s) {
    if (kept.in[s] != set.in[s] || kept.phi[s].size() != set.in[s].size()) break;
    set.phi.push_back(kept.phi[s]);
    set.outAccuracy.push_back(kept.outAccuracy[s]);
  }
  set.reused = static_cast<int>(set.phi.size());
}

data::Split concatenated(const data::Split& a, const data::Split& b) {
  data::Split out;
  out.features.resize(a.size() + b.size(), a.features.cols());
  out.features.topRows(a.size()) = a.features;
  out.features.bottomRows(b.size()) = b.features;
  out.labels = a.labels;
  out.labels.insert(out.labels.end(), b.labels.begin(), b.labels.end());
  return out;
}

// The share of the pool's OUT rows (in[c] = 0) whose largest logit is their label's.
double outAccuracy(const nn::Model<float>& model, const data::Split& pool,
                   const std::vector<char>& in) {
  const std::vector<double> correct =
      perExampleScores(model, pool, [](std::span<const float> row, int label) {
        const auto best = std::max_element(row.begin(), row.end()) - row.begin();
        return best == label ? 1.0 : 0.0;
      });
  double hits = 0.0;
  long long out = 0;
  for (std::size_t c = 0; c < correct.size(); ++c) {
    if (in[c]) continue;
    hits += correct[c];
    ++out;
  }
  return out > 0 ? hits / static_cast<double>(out) : 0.0;
}

}  // namespace

double logitScaledConfidence(std::span<const float> logits, int label) {
  const auto y = static_cast<std::size_t>(label);
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < logits.size(); ++j)
    if (j != y) top = std::max(top, static_cast<double>(logits[j]));
  if (!std::isfinite(top)) return std::numeric_limits<double>::infinity();  // one class: p = 1
  // log Σ_{j≠y} exp(z_j) = top + log Σ_{j≠y} exp(z_j − top), the largest term being 1.
  double sum = 0.0;
  for (std::size_t j = 0; j < logits.size(); ++j)
    if (j != y) sum += std::exp(static_cast<double>(logits[j]) - top);
  return static_cast<double>(logits[y]) - (top + std::log(sum));
}

std::vector<double> logitScaledConfidences(const nn::Model<float>& model,
                                           const data::Split& split) {
  return perExampleScores(model, split, logitScaledConfidence);
}

std::string liraTestName(LiraTest test) {
  return test == LiraTest::Online ? "online" : "offline";
}

LiraTest parseLiraTest(const std::string& text, const std::string& field) {
  if (text == "online") return LiraTest::Online;
  if (text == "offline") return LiraTest::Offline;
  throw ConfigError(field + ": expected online or offline, got '" + clippedText(text) + "'");
}

std::string liraVarianceName(LiraVariance variance) {
  switch (variance) {
    case LiraVariance::Auto:
      return "auto";
    case LiraVariance::PerExample:
      return "per-example";
    case LiraVariance::Global:
      return "global";
  }
  return "auto";
}

void LiraOptions::validate() const {
  const int least = variance == LiraVariance::PerExample ? 4 : 2;
  if (shadows < least || shadows > kMaxShadows) {
    throw ConfigError("audit.shadows: expected an integer in [" + std::to_string(least) + ", " +
                      std::to_string(kMaxShadows) + "], got " + std::to_string(shadows));
  }
}

std::vector<std::vector<char>> shadowMemberships(long long candidates, int shadows,
                                                 std::uint64_t seed) {
  std::vector<std::vector<char>> in(static_cast<std::size_t>(shadows),
                                    std::vector<char>(static_cast<std::size_t>(candidates), 0));
  const long long half = candidates / 2;
  for (int s = 0; s < shadows; s += 2) {
    const PhiloxStream stream(seed, RandomPurpose::Audit, kShadowHalfStream,
                              static_cast<std::uint32_t>(s / 2));
    const std::vector<long long> order = shuffled(candidates, stream);
    for (long long i = 0; i < candidates; ++i) {
      const bool first = i < half;
      in[static_cast<std::size_t>(s)][static_cast<std::size_t>(order[i])] = first;
      if (s + 1 < shadows)
        in[static_cast<std::size_t>(s + 1)][static_cast<std::size_t>(order[i])] = !first;
    }
  }
  return in;
}

LiraFits fitShadows(const std::vector<std::vector<char>>& in,
                    const std::vector<std::vector<double>>& phi, LiraVariance variance,
                    bool needIn) {
  if (phi.empty() || phi.size() != in.size())
    throw PrivacyError("lira: expected φ and memberships for at least one shadow");
  LiraFits fits;
  fits.globalVariance =
      variance == LiraVariance::Global ||
      (variance == LiraVariance::Auto && static_cast<int>(phi.size()) < kPerExampleVarianceFrom);
  if (needIn) fits.in = fitSide(in, phi, true, fits.globalVariance);
  fits.out = fitSide(in, phi, false, fits.globalVariance);
  return fits;
}

double onlineScore(double phi, const GaussianFit& in, const GaussianFit& out) {
  return logNormalDensity(phi, in) - logNormalDensity(phi, out);
}

double offlineScore(double phi, const GaussianFit& out) {
  return (phi - out.mean) / std::sqrt(out.variance);
}

std::vector<double> liraScores(std::span<const double> targetPhi, const LiraFits& fits,
                               LiraTest test) {
  if (targetPhi.size() != fits.out.size() ||
      (test == LiraTest::Online && fits.in.size() != targetPhi.size())) {
    throw PrivacyError("lira: the target's candidates do not match the shadows' fits");
  }
  std::vector<double> scores(targetPhi.size());
  for (std::size_t c = 0; c < targetPhi.size(); ++c) {
    scores[c] = test == LiraTest::Online ? onlineScore(targetPhi[c], fits.in[c], fits.out[c])
                                         : offlineScore(targetPhi[c], fits.out[c]);
  }
  return scores;
}

void requireShadowable(const train::ExperimentConfig& config) {
  if (nn::usesScatteringFeatures(config.model.preset)) {
    throw ConfigError("model.preset: LiRA cannot shadow a scattering preset yet ('" +
                      clippedText(config.model.preset) + "'); use the loss-threshold attack");
  }
}

ShadowSet trainShadows(const train::ExperimentConfig& config, const data::Dataset& training,
                       const std::vector<long long>& memberRows, const data::Split& nonMembers,
                       const LiraOptions& options, const ShadowProgress& onProgress,
                       const std::atomic<bool>* cancel, const ShadowSet* kept) {
  const auto start = std::chrono::steady_clock::now();
  options.validate();
  requireShadowable(config);
  const data::Split& train = training.train;
  std::vector<char> candidate(static_cast<std::size_t>(train.size()), 0);
  for (const long long r : memberRows) {
    if (r < 0 || r >= train.size()) throw PrivacyError("lira: a member row is outside the data");
    candidate[static_cast<std::size_t>(r)] = 1;
  }
  const data::Split pool = concatenated(selectRows(train, memberRows), nonMembers);
  if (pool.size() < 2) throw PrivacyError("lira: needs at least 2 candidates to split in halves");

  ShadowSet set;
  set.in = shadowMemberships(pool.size(), options.shadows, config.training.seed);
  if (kept) takeKeptShadows(*kept, set);
  for (int s = set.reused; s < options.shadows; ++s) {
    if (cancel && cancel->load()) {
      set.cancelled = true;
      break;
    }
    auto data = shadowDataset(training, candidate, pool, set.in[static_cast<std::size_t>(s)]);
    train::ExperimentConfig shadowConfig = config;
    shadowConfig.training.seed = shadowSeed(config.training.seed, s);
    train::ProgressCallback progress;
    if (onProgress) {
      progress = [&, s](const train::ProgressEvent& e) { onProgress(s, options.shadows, e); };
    }
    const train::RunResult run =
        train::Trainer(shadowConfig, std::move(data)).run(progress, cancel);
    if (run.status == train::RunStatus::Cancelled) {
      set.cancelled = true;
      break;
    }
    if (run.status == train::RunStatus::Failed && run.inputError) throw ConfigError(run.message);
    if (run.status != train::RunStatus::Done || !run.model) {
      throw std::runtime_error("lira: shadow " + std::to_string(s) + " ended " +
                               train::runStatusName(run.status) + ": " + run.message);
    }
    set.phi.push_back(logitScaledConfidences(*run.model, pool));
    set.outAccuracy.push_back(outAccuracy(*run.model, pool, set.in[static_cast<std::size_t>(s)]));
  }
  set.in.resize(set.phi.size());
  set.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return set;
}

LiraAttack liraFromShadows(const nn::Model<float>& target, const AttackCandidates& candidates,
                           const ShadowSet& shadows, const LiraOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (shadows.cancelled) throw PrivacyError("lira: the shadows were cancelled");
  LiraOptions used = options;
  used.shadows = static_cast<int>(shadows.phi.size());
  used.validate();
  const LiraFits fits =
      fitShadows(shadows.in, shadows.phi, options.variance, options.test == LiraTest::Online);
  std::vector<double> phi = logitScaledConfidences(target, candidates.members);
  const std::vector<double> outside = logitScaledConfidences(target, candidates.nonMembers);
  phi.insert(phi.end(), outside.begin(), outside.end());
  const std::vector<double> scores = liraScores(phi, fits, options.test);
  const auto members = candidates.members.size();
  LiraAttack result;
  result.attack = scoredAttack(std::span<const double>(scores).first(std::size_t(members)),
                               std::span<const double>(scores).subspan(std::size_t(members)));
  result.test = options.test;
  result.globalVariance = fits.globalVariance;
  result.shadows = used.shadows;
  result.meanShadowOutAccuracy =
      std::accumulate(shadows.outAccuracy.begin(), shadows.outAccuracy.end(), 0.0) /
      static_cast<double>(std::max<std::size_t>(1, shadows.outAccuracy.size()));
  result.shadowSeconds = shadows.seconds;
  result.reusedShadows = shadows.reused;
  result.attackSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

LiraAttack runLira(const nn::Model<float>& target, const train::ExperimentConfig& config,
                   const data::Dataset& training, long long memberRows, const LiraOptions& options,
                   const ShadowProgress& onProgress, const std::atomic<bool>* cancel,
                   ShadowSet* shadows) {
  options.validate();
  requireShadowable(config);
  const AttackCandidates candidates =
      attackCandidates(training.train, training.test, config.training.seed, memberRows);
  ShadowSet set = trainShadows(config, training, candidates.memberRows, candidates.nonMembers,
                               options, onProgress, cancel, shadows);
  LiraAttack result;
  if (set.cancelled) {
    result.cancelled = true;
  } else {
    result = liraFromShadows(target, candidates, set, options);
  }
  if (shadows) *shadows = std::move(set);
  return result;
}

}  // namespace epsilon::audit

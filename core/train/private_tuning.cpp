#include "core/train/private_tuning.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/common/text.h"
#include "core/privacy/rdp_tuning.h"

namespace epsilon::train {

namespace {

// Means above this are refused: e^{−μ} would underflow and no sweep runs that many points.
constexpr double kMaxTuningMean = 1000.0;

// Draw indices in the Tuning stream: K at 0, the points from 1, the seeds from kSeedDraws.
constexpr std::uint64_t kSeedDraws = std::uint64_t{1} << 32;

}  // namespace

long long drawRunCount(const privacy::TuningDistribution& distribution, double uniform) {
  privacy::validateTuning(distribution, "private tuning");
  if (distribution.mean > kMaxTuningMean)
    throw ConfigError("private tuning.mean: expected at most " + shortNumber(kMaxTuningMean) +
                      " runs on average, got " + shortNumber(distribution.mean));
  const double mu = distribution.mean;
  long long k = 0;
  double p = 0.0;
  double ratio = 0.0;  // P[K = k + 1] = P[K = k]·ratio(k)
  if (distribution.isPoisson()) {
    p = std::exp(-mu);
  } else {
    if (mu == 1.0) return 1;
    const double eta = distribution.shape;
    const double gamma = privacy::truncatedNegativeBinomialGamma(eta, mu);
    k = 1;
    p = eta == 0.0 ? (1.0 - gamma) / -std::log(gamma)
                   : (1.0 - gamma) * eta / std::expm1(-eta * std::log(gamma));
    ratio = 1.0 - gamma;
  }
  double cumulative = p;
  while (cumulative <= uniform && p > 0.0) {
    if (distribution.isPoisson()) {
      p *= mu / static_cast<double>(k + 1);
    } else {
      p *= ratio * (static_cast<double>(k) + distribution.shape) / static_cast<double>(k + 1);
    }
    ++k;
    cumulative += p;
  }
  return k;
}

PrivateTuningDraw drawPrivateTuning(const std::vector<SweepPoint>& grid,
                                    const privacy::TuningDistribution& distribution,
                                    std::uint64_t seed) {
  if (grid.empty()) throw ConfigError("private tuning: the sweep has no points to draw from");
  const PhiloxStream stream(seed, RandomPurpose::Tuning);
  PrivateTuningDraw draw;
  draw.runs = drawRunCount(distribution, stream.uniform(0));
  if (draw.runs > static_cast<long long>(kMaxSweepRuns))
    throw ConfigError("private tuning: drew " + std::to_string(draw.runs) +
                      " runs, more than a sweep may run (" + std::to_string(kMaxSweepRuns) + ")");
  const auto n = static_cast<double>(grid.size());
  for (long long i = 0; i < draw.runs; ++i) {
    const auto u = static_cast<std::uint64_t>(i);
    const int index = std::min(static_cast<int>(grid.size()) - 1,
                               static_cast<int>(std::floor(stream.uniform(1 + u) * n)));
    SweepPoint point = grid[static_cast<std::size_t>(index)];
    // Each run its own randomness (the K runs are independent in the analysis).
    point.config.training.seed = stream.seed(kSeedDraws + u);
    point.index = static_cast<int>(i);
    point.label += " · tuning run " + std::to_string(i + 1) + "/" + std::to_string(draw.runs);
    draw.points.push_back(std::move(point));
    draw.gridIndices.push_back(index);
  }
  return draw;
}

void checkTunable(const ExperimentConfig& config) {
  if (config.privacy.accountant == privacy::AccountantKind::Pld)
    throw ConfigError(
        "private tuning: the PLD accountant cannot bound the best of a random number of runs "
        "(Papernot & Steinke 2022 give Renyi DP bounds only); use the RDP accountant");
}

TuningBound tuningBound(const std::vector<ExperimentConfig>& configs,
                        const std::function<RunPlanInput(const ExperimentConfig&)>& input,
                        const privacy::TuningDistribution& distribution) {
  privacy::validateTuning(distribution, "private tuning");
  if (configs.empty()) throw ConfigError("private tuning: there are no runs to select from");
  std::vector<privacy::PrivacyRunDescription> descriptions;
  for (const ExperimentConfig& config : configs) {
    checkTunable(config);
    descriptions.push_back(privacyDescription(config, input(config)));
  }
  const auto bound = privacy::dominatingRun(descriptions);
  if (!bound)
    throw ConfigError(
        "private tuning: no setting costs at least as much privacy as every other at every RDP "
        "order, so no one statement bounds a run drawn at random; sweep settings where one "
        "point is the most expensive (e.g. noise_multiplier, learning_rate)");
  TuningBound out{*bound, descriptions[*bound]};
  out.description.tuning = distribution;
  return out;
}

}  // namespace epsilon::train

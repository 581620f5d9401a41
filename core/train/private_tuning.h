// Private tuning over a sweep's grid (Papernot & Steinke 2022, "Hyperparameter Tuning with
// Renyi Differential Privacy"): the number of runs K is drawn from a law of the truncated
// negative binomial family or Poisson, each run trains a point of the grid drawn uniformly at
// random (with replacement) with a seed of its own, and only the best run is released. The
// draws come from the sweep's seed (RandomPurpose::Tuning), so a tuning is reproducible; its
// privacy is the statement of the grid's dominating point with the law (privacy_statement.h,
// dominatingRun).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/privacy/dp_event.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"

namespace epsilon::train {

// K for a uniform u ∈ [0, 1) by the inverse of the law's distribution function: Poisson(μ)
// (K may be 0: nothing is released), or the truncated negative binomial D_{η,γ} of mean μ
// (K ≥ 1), whose probabilities follow P[K = 1] = (1 − γ)η/(γ^{−η} − 1) (η = 0:
// (1 − γ)/log(1/γ)) and P[K = k + 1] = P[K = k]·(1 − γ)(k + η)/(k + 1) (Papernot & Steinke
// 2022, §3, eq. (4)). Throws ConfigError naming "private tuning" for a mean above 1000.
long long drawRunCount(const privacy::TuningDistribution& distribution, double uniform);

struct PrivateTuningDraw {
  long long runs = 0;  // K
  // The K runs: each a grid point's settings with its own seed, indices 0 … K−1, labels
  // "<point's label> · tuning run i/K".
  std::vector<SweepPoint> points;
  std::vector<int> gridIndices;  // the grid point each run trains
};

// Draws K and the K points from `seed`. Throws ConfigError for an empty grid or more than
// kMaxSweepRuns runs drawn.
PrivateTuningDraw drawPrivateTuning(const std::vector<SweepPoint>& grid,
                                    const privacy::TuningDistribution& distribution,
                                    std::uint64_t seed);

// Throws ConfigError naming "private tuning" when `config` cannot be tuned privately: the PLD
// accountant has no bound for the best of a random number of runs.
void checkTunable(const ExperimentConfig& config);

// What releasing the best of K runs drawn from `configs` costs: the description of the
// configuration that bounds every other's privacy at every RDP order (dominatingRun,
// privacy_statement.h), with the law set, so privacyStatement(description) is the tuned ε and
// carries one run's ε and ⌈μ⌉ runs composed. `input` gives each configuration its N and P
// (planInput). The sweep command and the GUI's sweep summary both ask this. Throws ConfigError
// naming "private tuning" for no configuration, the PLD accountant (RDP bounds only) or no
// configuration dominating the others.
struct TuningBound {
  std::size_t index = 0;  // the bounding configuration
  privacy::PrivacyRunDescription description;
};
TuningBound tuningBound(const std::vector<ExperimentConfig>& configs,
                        const std::function<RunPlanInput(const ExperimentConfig&)>& input,
                        const privacy::TuningDistribution& distribution);

}  // namespace epsilon::train

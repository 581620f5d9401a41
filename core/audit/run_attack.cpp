#include "core/audit/run_attack.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/audit/run_profile.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/privacy/tradeoff.h"
#include "core/train/feature_cache.h"

namespace epsilon::audit {

std::vector<double> tradeoffFprGrid() {
  std::vector<double> fprs;
  for (int i = 0; i <= 80; ++i) fprs.push_back(std::pow(10.0, -4.0 + 4.0 * i / 80.0));
  return fprs;
}

TradeoffBound runTradeoffBound(const train::RunResult& run) {
  if (run.config.privacy.privatizer.kind == privacy::PrivatizerKind::None || run.history.empty())
    return {};
  const double epsilon = run.history.back().privacy.epsilon;
  // The profile δ(ε) up to a few times the run's ε, where the envelope is decided.
  const double top = std::isfinite(epsilon) ? std::min(60.0, 3.0 * epsilon + 1.0) : 1.0;
  const privacy::PrivacyProfile profile = runPrivacyProfile(run, privacy::epsilonGrid(top, 241));
  TradeoffBound bound;
  bound.fpr = tradeoffFprGrid();
  bound.tpr = privacy::tprBoundCurve(profile, bound.fpr);
  return bound;
}

RocCurve thinRoc(const RocCurve& roc, int bins) {
  const std::size_t n = roc.fpr.size();
  if (n <= static_cast<std::size_t>(2 * bins + 2)) return roc;
  constexpr double kLowestLog = -6.0;
  const auto logBin = [&](double fpr) {
    const double l = std::log10(std::max(fpr, 1e-300));
    return l < kLowestLog ? -1 : static_cast<int>((l - kLowestLog) / -kLowestLog * bins);
  };
  const auto linearBin = [&](double fpr) { return static_cast<int>(fpr * bins); };
  RocCurve out;
  for (std::size_t i = 0; i < n; ++i) {
    // A point is the last of its bin when the next point falls in another bin (FPR only grows).
    const bool last = i + 1 == n || logBin(roc.fpr[i + 1]) != logBin(roc.fpr[i]) ||
                      linearBin(roc.fpr[i + 1]) != linearBin(roc.fpr[i]);
    if (i == 0 || last) {
      out.fpr.push_back(roc.fpr[i]);
      out.tpr.push_back(roc.tpr[i]);
    }
  }
  return out;
}

RunAttack attackFinishedRun(std::shared_ptr<const nn::Model<float>> model,
                            const train::ExperimentConfig& config, long long steps, double epsilon,
                            std::shared_ptr<const data::Dataset> dataset) {
  const auto start = std::chrono::steady_clock::now();
  if (!model) throw PrivacyError("membership inference: the run has no final model");
  if (!dataset) {
    dataset = std::make_shared<const data::Dataset>(
        data::loadDataset(config.dataset.name, config.dataset.options));
  }
  // The trainer swaps in the scattering features before the first step (core/train/trainer.cpp);
  // the model only reads those. The features come from the trainer's cache.
  if (nn::usesScatteringFeatures(config.model.preset))
    dataset = train::scatteringFeatures(*dataset);
  RunAttack result;
  result.attack = attackModel(*model, dataset->train, dataset->test, config.training.seed);
  result.drawnRoc = thinRoc(result.attack.roc);

  train::RunResult run;
  run.config = config;
  run.model = model;
  run.trainSize = dataset->train.size();
  run.parameterCount = model->parameterCount();
  train::ProgressEvent last;
  last.step = steps;
  last.privacy.epsilon = epsilon;
  run.history.push_back(last);
  result.bound = runTradeoffBound(run);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace epsilon::audit

#include "core/audit/one_run_audit.h"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/common/errors.h"
#include "core/train/run_planning.h"
#include "core/train/trainer.h"

namespace epsilon::audit {

void AuditOptions::validate() const {
  if (canaries < 2)
    throw ConfigError("audit.canaries: expected at least 2, got " + std::to_string(canaries));
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw ConfigError("audit.confidence: expected a value in (0, 1), got " +
                      std::to_string(confidence));
  }
  for (const long long k : guessGrid) {
    if (k < 1 || 2 * k > canaries) {
      throw ConfigError("audit.guess_grid: expected each k in [1, canaries/2], got " +
                        std::to_string(k));
    }
  }
}

void attackAuditedRun(const CanaryData& canaryData, const AuditOptions& options,
                      AuditResult& result) {
  const auto start = std::chrono::steady_clock::now();
  const nn::Model<float>& model = *result.run.model;
  // Members are drawn from the base rows only: the canaries are judged by the audit below.
  result.attack = attackModel(model, canaryData.training->train, canaryData.training->test,
                              result.run.config.training.seed, canaryData.baseTrainSize);

  // Score = −loss: a canary the model fits well was probably trained on (Steinke et al. 2023, §6).
  const std::vector<double> losses = perExampleLosses(model, canaryData.canaries);
  std::vector<double> scores(losses.size());
  std::vector<double> inScores;
  std::vector<double> outScores;
  for (std::size_t i = 0; i < losses.size(); ++i) {
    scores[i] = -losses[i];
    (canaryData.included[i] ? inScores : outScores).push_back(scores[i]);
  }
  if (!inScores.empty() && !outScores.empty()) {
    result.canaryRoc = rocCurve(inScores, outScores);
    result.canaryAuc = areaUnderCurve(result.canaryRoc);
  }
  const std::vector<long long> grid =
      options.guessGrid.empty() ? defaultGuessGrid(options.canaries) : options.guessGrid;
  result.bound = bestBoundOverGrid(scores, canaryData.included, result.run.config.privacy.delta,
                                   options.confidence, grid);
  result.attackSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

AuditResult runAudit(const train::ExperimentConfig& config, const data::Dataset& dataset,
                     const AuditOptions& options, const train::ProgressCallback& onProgress,
                     const std::atomic<bool>* cancel) {
  options.validate();
  config.validate();
  const CanaryData canaryData =
      makeCanaryData(dataset, options.canaries, options.kind, config.training.seed);
  AuditResult result;
  for (const char in : canaryData.included) result.canariesIncluded += in;
  // The trainer sees the canaries as ordinary examples: they are sampled, clipped and noised
  // like every other row, so the audit tests the DP-SGD that users run.
  result.run = train::Trainer(config, canaryData.training).run(onProgress, cancel);
  if (result.run.status == train::RunStatus::Failed && result.run.inputError)
    throw ConfigError(result.run.message);
  if (result.run.status != train::RunStatus::Done || !result.run.model ||
      result.run.history.empty()) {
    throw std::runtime_error("audit: the training run ended " +
                             train::runStatusName(result.run.status) + ": " + result.run.message);
  }
  result.trainingData = canaryData.training;
  result.upper = result.run.history.back().privacy;
  result.baseTrainSize = canaryData.baseTrainSize;
  result.auditedTrainSize = result.run.trainSize;
  result.runOwn =
      train::plannedPrivacy(config, {canaryData.baseTrainSize, result.run.parameterCount});
  result.testAccuracy = result.run.history.back().testAccuracy;
  attackAuditedRun(canaryData, options, result);
  return result;
}

}  // namespace epsilon::audit

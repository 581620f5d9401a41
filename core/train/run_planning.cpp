#include "core/train/run_planning.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/privacy/dp_pca.h"
#include "core/train/memory_estimate.h"

namespace epsilon::train {

namespace {

// q = min(1, L/N) (Abadi et al. 2016, §3.1); N ≥ 1 is checked by the callers.
double lotFraction(long long lotSize, long long trainSize) {
  return std::min(1.0, static_cast<double>(lotSize) / static_cast<double>(trainSize));
}

}  // namespace

double sampleRate(const ExperimentConfig& config, long long trainSize) {
  if (trainSize < 1)
    throw ConfigError("dataset: expected at least one training example, got " +
                      std::to_string(trainSize));
  return lotFraction(config.training.lotSize, trainSize);
}

EpochSampling epochSampling(double epochs, long long trainSize, long long lotSize) {
  if (!(epochs > 0.0 && std::isfinite(epochs)))
    throw ConfigError("training.epochs: expected a finite number > 0, got " + shortNumber(epochs));
  if (trainSize < 1)
    throw ConfigError("dataset.size: expected at least one training example, got " +
                      std::to_string(trainSize));
  if (lotSize < 1 || lotSize > trainSize)
    throw ConfigError("training.lot_size: expected an integer in [1, " + std::to_string(trainSize) +
                      "], got " + std::to_string(lotSize));
  const double perEpoch = std::floor(static_cast<double>(trainSize) / static_cast<double>(lotSize));
  if (!(epochs * perEpoch < 1e15))
    throw ConfigError("training.epochs: " + shortNumber(epochs) + " epochs give " +
                      shortNumber(epochs * perEpoch) + " steps, expected 1 to 1e15");
  return {lotFraction(lotSize, trainSize), trainingSteps(epochs, trainSize, lotSize)};
}

bool addsNoise(const ExperimentConfig& config) {
  return config.privacy.privatizer.kind != privacy::PrivatizerKind::None &&
         config.privacy.noise.initial > 0.0;
}

double tanhNoiseMultiplier(double effectiveNoiseMultiplier, long long parameterCount) {
  return effectiveNoiseMultiplier *
         std::sqrt(static_cast<double>(std::max<long long>(1, parameterCount)));
}

namespace {

// σ_t for the gradient noise as the trainer adds it: adaptive clipping spends part of the
// budget on the count release, so its gradient σ_Δ = (σ⁻² − (2σ_b)⁻²)^(−1/2) (Andrew et al.
// 2021, Thm. 1); every other privatizer uses σ_t itself.
std::vector<double> gradientNoiseMultipliers(const ExperimentConfig& c, long long steps,
                                             double countStd) {
  const auto gradientSigma = [&](double sigma) {
    if (c.privacy.privatizer.kind != privacy::PrivatizerKind::Adaptive) return sigma;
    return privacy::adaptiveGradientNoiseMultiplier(sigma, countStd);  // as the privatizer does
  };
  if (c.privacy.noise.isConstant()) return {gradientSigma(c.privacy.noise.initial)};
  std::vector<double> sigmas(static_cast<std::size_t>(steps));
  for (long long t = 0; t < steps; ++t)
    sigmas[static_cast<std::size_t>(t)] = gradientSigma(c.privacy.noise.sigmaAt(t));
  return sigmas;
}

double countNoiseStd(const ExperimentConfig& c) {
  return c.privacy.privatizer.kind == privacy::PrivatizerKind::Adaptive
             ? c.privacy.privatizer.countStddev(c.expectedUnitsPerLot())
             : 0.0;
}

}  // namespace

long long modelParameterCount(const ExperimentConfig& config, const data::SampleShape& shape,
                              int classCount) {
  if (config.model.usesPca()) {
    // k must fit the input: the check names model.pca_dims, the bound and the value.
    const auto& m = config.model;
    privacy::validateDpPcaOptions({m.pcaDims, m.pcaNoise, m.pcaSampleFraction, 1},
                                  shape.featureCount());
  }
  // Counted, not built: a network too big for memory is refused here, naming the field.
  const MemoryEstimate estimate =
      estimateMemory(config, shape, classCount, 0, presetOptions(config));
  checkMemory(config, estimate);
  return estimate.parameters;
}

RunPlanInput planInput(const ExperimentConfig& config, const data::DatasetInfo& info) {
  long long n = info.trainSize;
  if (config.dataset.options.maxTrain > 0)
    n = std::min<long long>(n, config.dataset.options.maxTrain);
  return {n, modelParameterCount(config, info.shape, info.classCount)};
}

RunPlanInput planInput(const ExperimentConfig& config, const data::Dataset& dataset) {
  return {dataset.train.size(), modelParameterCount(config, dataset.shape, dataset.classCount())};
}

RunPlanInput planInput(const ExperimentConfig& config) {
  // A thinned class changes N by a count only the loaded set knows.
  if (config.dataset.options.minorityClass < 0)
    for (const data::DatasetInfo& info : data::listDatasets())
      if (info.name == config.dataset.name && !info.synthetic) return planInput(config, info);
  return planInput(config, data::loadDataset(config.dataset.name, config.dataset.options));
}

privacy::PrivacyRunDescription privacyDescription(const ExperimentConfig& config,
                                                  const RunPlanInput& input) {
  privacy::PrivacyRunDescription run;
  run.sampling = config.privacy.sampling;
  run.privatizer = config.privacy.privatizer.kind;
  run.sampleRate = sampleRate(config, input.trainSize);
  run.steps = config.totalSteps(input.trainSize);
  run.countNoiseStd = countNoiseStd(config);
  run.noiseMultipliers = gradientNoiseMultipliers(config, run.steps, run.countNoiseStd);
  run.parameterCount = std::max<long long>(1, input.parameterCount);
  run.delta = config.privacy.delta;
  run.accountant = config.privacy.accountant;
  // pca-mlp releases its DP-PCA projection once before step 1 (Abadi et al. 2016, §5), as the
  // trainer's ledger composes it: every planned ε and calibration includes it, held fixed.
  run.pca = config.model.usesPca();
  run.pcaNoiseMultiplier = config.model.pcaNoise;
  run.pcaSampleFraction = config.model.pcaSampleFraction;
  return run;
}

privacy::PrivacyStatement plannedPrivacy(const ExperimentConfig& config,
                                         const RunPlanInput& input) {
  return privacy::privacyStatement(privacyDescription(config, input));
}

std::vector<long long> epochEndSteps(const ExperimentConfig& config, long long trainSize,
                                     std::size_t maxPoints) {
  const long long perEpoch = config.stepsPerEpoch(trainSize);
  const long long total = config.totalSteps(trainSize);
  long long stride = perEpoch;
  if (maxPoints > 0) {
    const long long epochs = std::max<long long>(1, total / perEpoch);
    const long long every =
        (epochs + static_cast<long long>(maxPoints) - 1) / static_cast<long long>(maxPoints);
    stride = perEpoch * std::max<long long>(1, every);
  }
  std::vector<long long> steps;
  for (long long s = stride; s < total; s += stride) steps.push_back(s);
  if (total > 0) steps.push_back(total);
  return steps;
}

EpsilonCurve epsilonCurve(const ExperimentConfig& config, const RunPlanInput& input,
                          std::span<const long long> steps) {
  const privacy::PrivacyRunDescription run = privacyDescription(config, input);
  const long long perEpoch = config.stepsPerEpoch(input.trainSize);
  EpsilonCurve curve;
  curve.statement = privacy::privacyStatement(run);
  for (long long s : steps) {
    if (s < 1 || s > run.steps)
      throw ConfigError("training.steps: a curve point must lie in [1, " +
                        std::to_string(run.steps) + "], got " + std::to_string(s));
    const privacy::PrivacyStatement at =
        s == run.steps ? curve.statement : privacy::privacyStatement(privacy::firstSteps(run, s));
    curve.points.push_back({s, static_cast<double>(s) / static_cast<double>(perEpoch), at.epsilon,
                            at.nominalEpsilon, config.privacy.noise.sigmaAt(s - 1)});
  }
  return curve;
}

privacy::Calibration calibrateNoise(const ExperimentConfig& config, const RunPlanInput& input,
                                    double targetEpsilon, std::optional<int> roundUpDecimals,
                                    const std::atomic<bool>* cancel) {
  if (config.privacy.privatizer.kind == privacy::PrivatizerKind::None)
    throw ConfigError("privacy.privatizer: calibrating σ needs a privatizer, got none");
  privacy::CalibrationOptions options;
  options.roundUpDecimals = roundUpDecimals;
  options.cancel = cancel;
  if (config.privacy.privatizer.kind == privacy::PrivatizerKind::Tanh) {
    // σ scales with √P (tanhNoiseMultiplier): start and bound the search there.
    options.initialNoiseMultiplier = tanhNoiseMultiplier(1.0, input.parameterCount);
    options.maxNoiseMultiplier =
        tanhNoiseMultiplier(options.maxNoiseMultiplier, input.parameterCount);
  } else if (config.privacy.privatizer.kind == privacy::PrivatizerKind::Adaptive) {
    // σ_Δ exists only for σ < 2σ_b (adaptiveGradientNoiseMultiplier): search below it.
    const double limit = 2.0 * countNoiseStd(config) * (1.0 - 1e-9);
    options.maxNoiseMultiplier = std::min(options.maxNoiseMultiplier, limit);
    options.initialNoiseMultiplier = std::min(options.initialNoiseMultiplier, limit / 2.0);
  }
  ExperimentConfig trial = config;
  return privacy::calibrateNoise(
      [&](double sigma) {
        trial.privacy.noise.initial = sigma;
        return privacyDescription(trial, input);
      },
      targetEpsilon, options);
}

RunResult accountantOnlyRun(const ExperimentConfig& config, const RunPlanInput& input) {
  RunResult result;
  result.config = config;
  result.trainSize = input.trainSize;
  result.parameterCount = input.parameterCount;
  const privacy::PrivacyRunDescription run = privacyDescription(config, input);
  const long long perEpoch = config.stepsPerEpoch(input.trainSize);
  const auto& p = config.privacy;
  std::vector<long long> steps{0};
  for (long long s : epochEndSteps(config, input.trainSize)) steps.push_back(s);
  for (long long step : steps) {
    ProgressEvent e;
    e.kind = EventKind::Evaluation;
    e.status = RunStatus::Running;
    e.step = step;
    e.totalSteps = run.steps;
    e.epoch = static_cast<double>(step) / static_cast<double>(perEpoch);
    e.privacy = privacy::privacyStatement(privacy::firstSteps(run, step));
    e.sigma = addsNoise(config) ? p.noise.sigmaAt(std::max<long long>(0, step - 1)) : 0.0;
    e.gradientSigma = e.sigma;
    e.clipNorm = p.privatizer.clipNorm;
    e.learningRate = config.optimizer.learningRate;
    result.history.push_back(std::move(e));
  }
  result.status = RunStatus::Done;
  result.message = "accountant only (no training)";
  return result;
}

}  // namespace epsilon::train

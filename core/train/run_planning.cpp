#include "core/train/run_planning.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"

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
  // T = ⌈E·N/L⌉ = ⌈E/q⌉: E expected passes over the data (Abadi et al. 2016, §3.1).
  const double steps =
      std::ceil(epochs * static_cast<double>(trainSize) / static_cast<double>(lotSize));
  if (!(steps >= 1.0 && steps < 1e15))
    throw ConfigError("training.epochs: " + shortNumber(epochs) + " epochs give " +
                      shortNumber(steps) + " steps, expected 1 to 1e15");
  return {lotFraction(lotSize, trainSize), static_cast<long long>(steps)};
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
    return privacy::adaptiveGradientNoiseMultiplier(sigma, countStd);
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

privacy::PrivacyReport plannedPrivacy(const ExperimentConfig& config, const RunPlanInput& input) {
  return privacy::privacyReport(privacyDescription(config, input));
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

namespace {

EpsilonCurvePoint pointAt(const ExperimentConfig& c, long long step, long long perEpoch,
                          double epsilon, std::optional<double> nominal) {
  return {step, static_cast<double>(step) / static_cast<double>(perEpoch), epsilon, nominal,
          c.privacy.noise.sigmaAt(std::max<long long>(0, step - 1))};
}

}  // namespace

EpsilonCurve epsilonCurve(const ExperimentConfig& config, const RunPlanInput& input,
                          std::span<const long long> steps) {
  const privacy::PrivacyRunDescription run = privacyDescription(config, input);
  const long long perEpoch = config.stepsPerEpoch(input.trainSize);
  EpsilonCurve curve;
  curve.report = privacy::privacyReport(run);
  for (long long s : steps)
    if (s < 1 || s > run.steps)
      throw ConfigError("training.steps: a curve point must lie in [1, " +
                        std::to_string(run.steps) + "], got " + std::to_string(s));
  if (!addsNoise(config)) {
    for (long long s : steps)
      curve.points.push_back(pointAt(config, s, perEpoch, curve.report.epsilon, std::nullopt));
    return curve;
  }
  if (run.noiseMultipliers.size() == 1) {
    // One σ: the RDP curve is computed once and read at every point (privacy_report.h).
    const std::optional<double> pca =
        run.pca ? std::optional<double>(run.pcaNoiseMultiplier) : std::nullopt;
    const auto honest =
        privacy::epsilonOverSteps(run.accountant, run.sampleRate,
                                  curve.report.effectiveNoiseMultiplier, run.delta, steps, pca);
    std::vector<double> nominal;
    if (curve.report.nominalEpsilon)
      nominal = privacy::epsilonOverSteps(run.accountant, run.sampleRate,
                                          run.noiseMultipliers.front(), run.delta, steps, pca);
    for (std::size_t i = 0; i < steps.size(); ++i)
      curve.points.push_back(
          pointAt(config, steps[i], perEpoch, honest[i],
                  nominal.empty() ? std::nullopt : std::optional<double>(nominal[i])));
    return curve;
  }
  for (long long s : steps) {  // a schedule: σ_0 … σ_{s−1} for the point s
    privacy::PrivacyRunDescription partial = run;
    partial.steps = s;
    partial.noiseMultipliers.resize(static_cast<std::size_t>(s));
    const privacy::PrivacyReport r = privacy::privacyReport(partial);
    curve.points.push_back(pointAt(config, s, perEpoch, r.epsilon, r.nominalEpsilon));
  }
  return curve;
}

privacy::Calibration calibrateNoise(const ExperimentConfig& config, const RunPlanInput& input,
                                    double targetEpsilon) {
  if (config.privacy.privatizer.kind == privacy::PrivatizerKind::None)
    throw ConfigError("privacy.privatizer: calibrating σ needs a privatizer, got none");
  if (!config.privacy.noise.isConstant())
    throw ConfigError("privacy.noise_schedule: calibrating σ needs a constant schedule, got " +
                      privacy::noiseDecayName(config.privacy.noise.decay));
  if (config.model.usesPca()) {
    const double pca = privacy::dpPcaEpsilon(config.privacy.accountant, config.model.pcaNoise,
                                             config.privacy.delta);
    if (!(pca < targetEpsilon))
      throw PrivacyError("target ε " + shortNumber(targetEpsilon) +
                         " cannot be reached: the PCA release (model.pca_noise " +
                         shortNumber(config.model.pcaNoise) + ") alone costs ε " +
                         shortNumber(pca));
  }
  ExperimentConfig trial = config;
  const auto epsilonOf = [&](double sigma) {
    trial.privacy.noise.initial = sigma;
    return plannedPrivacy(trial, input).epsilon;
  };
  privacy::CalibrationOptions options;
  if (config.privacy.privatizer.kind == privacy::PrivatizerKind::Tanh) {
    // σ scales with √P (tanhNoiseMultiplier): start and bound the search there.
    options.initialNoiseMultiplier = tanhNoiseMultiplier(1.0, input.parameterCount);
    options.maxNoiseMultiplier =
        tanhNoiseMultiplier(options.maxNoiseMultiplier, input.parameterCount);
  }
  return privacy::calibrateNoiseMultiplier(epsilonOf, targetEpsilon, options);
}

}  // namespace epsilon::train

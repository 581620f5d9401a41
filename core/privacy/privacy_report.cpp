#include "core/privacy/privacy_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/common/errors.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"

namespace epsilon::privacy {

namespace {

// A schedule with more distinct σ_t than this is rounded down to a geometric grid of ratio
// 1 − 1e-3: a smaller σ only raises ε, so the bound stays valid, and the accountants see
// a few hundred distinct steps instead of one per step.
constexpr std::size_t kMaxDistinctSigmas = 256;
constexpr double kSigmaGridRatio = 1.0 - 1e-3;

void validateRun(const PrivacyRunDescription& run) {
  if (!(run.sampleRate > 0.0 && run.sampleRate <= 1.0)) {
    throw PrivacyError("privacy.sample_rate: expected a value in (0, 1], got " +
                       std::to_string(run.sampleRate));
  }
  if (run.steps < 0) {
    throw PrivacyError("training.steps: expected >= 0, got " + std::to_string(run.steps));
  }
  if (!(run.delta > 0.0 && run.delta < 1.0)) {
    throw PrivacyError("privacy.delta: expected a value in (0, 1), got " +
                       std::to_string(run.delta));
  }
  if (run.pca && (!(run.pcaNoiseMultiplier >= 0.0) || !std::isfinite(run.pcaNoiseMultiplier))) {
    throw PrivacyError("model.pca_noise: expected a finite noise multiplier >= 0, got " +
                       std::to_string(run.pcaNoiseMultiplier));
  }
  if (run.privatizer == PrivatizerKind::None) return;
  const std::size_t count = run.noiseMultipliers.size();
  if (count != 1 && count != static_cast<std::size_t>(run.steps)) {
    throw PrivacyError("privacy.noise_multiplier: expected 1 value or one per step (" +
                       std::to_string(run.steps) + "), got " + std::to_string(count));
  }
  for (double sigma : run.noiseMultipliers) {
    if (!(sigma > 0.0) || !std::isfinite(sigma)) {
      throw PrivacyError("privacy.noise_multiplier: expected finite values > 0, got " +
                         std::to_string(sigma));
    }
  }
  if (run.privatizer == PrivatizerKind::Tanh && run.parameterCount < 1) {
    throw PrivacyError(
        "privacy.parameter_count: the tanh filter needs the number of parameters "
        "(>= 1), got " +
        std::to_string(run.parameterCount));
  }
  if (run.privatizer == PrivatizerKind::Adaptive &&
      (!(run.countNoiseStd > 0.0) || !std::isfinite(run.countNoiseStd))) {
    throw PrivacyError("privacy.count_noise_std: adaptive clipping needs sigma_b > 0, got " +
                       std::to_string(run.countNoiseStd));
  }
}

double sigmaAt(const PrivacyRunDescription& run, long long step) {
  return run.noiseMultipliers.size() == 1 ? run.noiseMultipliers.front()
                                          : run.noiseMultipliers[static_cast<std::size_t>(step)];
}

bool needsRounding(const PrivacyRunDescription& run) {
  if (run.noiseMultipliers.size() <= kMaxDistinctSigmas) return false;
  const std::set<double> distinct(run.noiseMultipliers.begin(), run.noiseMultipliers.end());
  return distinct.size() > kMaxDistinctSigmas;
}

// One step's event for the trainer's noise multiplier σ_t.
DpEvent stepEvent(const PrivacyRunDescription& run, double sigma, bool nominal) {
  switch (run.privatizer) {
    case PrivatizerKind::Clip:
      return dpSgdStepEvent(run.sampleRate, sigma);
    case PrivatizerKind::Tanh:
      // Noise std σ·c over honest sensitivity c·√P: multiplier σ/√P. Nominally (as the
      // tanh paper does) the sensitivity is taken to be c: multiplier σ.
      return dpSgdStepEvent(
          run.sampleRate,
          nominal ? sigma : sigma / std::sqrt(static_cast<double>(run.parameterCount)));
    case PrivatizerKind::Adaptive:
      // Two Gaussian releases on the same Poisson sample: the gradient sum (sensitivity C_t,
      // noise σ_t·C_t) and the count of unclipped examples, released centred (b − ½, as in
      // Andrew et al. 2021), so of sensitivity ½ and noise multiplier 2σ_b.
      return poissonSampledEvent(
          run.sampleRate,
          composedEvent({gaussianEvent(sigma), gaussianEvent(2.0 * run.countNoiseStd)}));
    case PrivatizerKind::None:
      break;
  }
  return NonPrivateEvent{};
}

double accountedEpsilon(const PrivacyRunDescription& run, bool nominal,
                        std::optional<double>& order, bool& rounded) {
  std::unique_ptr<Accountant> accountant;
  RdpAccountant* rdp = nullptr;
  if (run.accountant == AccountantKind::Rdp) {
    RdpAccountantOptions options;
    options.conversion = run.conversion;
    auto owned = std::make_unique<RdpAccountant>(options);
    rdp = owned.get();
    accountant = std::move(owned);
  } else {
    accountant = std::make_unique<PldAccountant>();
  }
  const auto events = privacyEvents(run, nominal);
  rounded = needsRounding(run);
  for (const auto& [event, count] : events) accountant->compose(event, count);
  if (rdp) {
    const RdpEpsilon result = rdp->epsilonAndOrder(run.delta);
    if (std::isfinite(result.epsilon) && !events.empty()) order = result.order;
    return result.epsilon;
  }
  return accountant->epsilon(run.delta);
}

}  // namespace

std::vector<std::pair<DpEvent, long long>> privacyEvents(const PrivacyRunDescription& run,
                                                         bool nominal) {
  validateRun(run);
  std::vector<std::pair<DpEvent, long long>> events;
  // The projection is released before the first step, once, whatever the privatizer.
  if (run.pca) events.emplace_back(dpPcaEvent(run.pcaNoiseMultiplier), 1);
  if (run.steps == 0) return events;
  if (run.privatizer == PrivatizerKind::None) {
    events.emplace_back(NonPrivateEvent{}, run.steps);
    return events;
  }
  const bool round = needsRounding(run);
  const double sigmaMax =
      *std::max_element(run.noiseMultipliers.begin(), run.noiseMultipliers.end());
  const auto accountedSigma = [&](double sigma) {
    if (!round) return sigma;
    const double k = std::ceil(std::log(sigmaMax / sigma) / -std::log(kSigmaGridRatio) - 1e-12);
    return std::min(sigma, sigmaMax * std::pow(kSigmaGridRatio, k));
  };
  double runSigma = accountedSigma(sigmaAt(run, 0));
  long long runLength = 0;
  for (long long step = 0; step < run.steps; ++step) {
    const double sigma = accountedSigma(sigmaAt(run, step));
    if (sigma != runSigma) {
      events.emplace_back(stepEvent(run, runSigma, nominal), runLength);
      runSigma = sigma;
      runLength = 0;
    }
    ++runLength;
  }
  events.emplace_back(stepEvent(run, runSigma, nominal), runLength);
  return events;
}

PrivacyReport privacyReport(const PrivacyRunDescription& run) {
  validateRun(run);
  PrivacyReport report;
  report.delta = run.delta;
  report.accountant = accountantKindName(run.accountant);
  report.samplingLabel = run.sampling == SamplingKind::Poisson
                             ? "Poisson sampling"
                             : "assumes Poisson sampling (batches were shuffled)";
  if (run.pca) {
    report.pcaLabel = dpPcaLabel(run.pcaNoiseMultiplier, run.pcaSampleFraction);
    report.pcaEpsilon = dpPcaEpsilon(run.accountant, run.pcaNoiseMultiplier, run.delta);
  }
  if (run.privatizer == PrivatizerKind::None) {
    report.epsilon = std::numeric_limits<double>::infinity();
    report.isGuarantee = false;
    report.statusLabel = "no privacy";
    return report;
  }
  std::optional<double> order;
  report.epsilon = accountedEpsilon(run, false, order, report.noiseMultipliersRounded);
  report.order = order;
  const double sigma0 = sigmaAt(run, 0);
  switch (run.privatizer) {
    case PrivatizerKind::Tanh:
      report.effectiveNoiseMultiplier = sigma0 / std::sqrt(static_cast<double>(run.parameterCount));
      break;
    case PrivatizerKind::Adaptive:
      report.effectiveNoiseMultiplier =
          1.0 /
          std::sqrt(1.0 / (sigma0 * sigma0) + 1.0 / (4.0 * run.countNoiseStd * run.countNoiseStd));
      break;
    default:
      report.effectiveNoiseMultiplier = sigma0;
  }
  if (run.privatizer == PrivatizerKind::Tanh) {
    std::optional<double> nominalOrder;
    bool rounded = false;
    report.nominalEpsilon = accountedEpsilon(run, true, nominalOrder, rounded);
    report.nominalLabel = kNominalLabel;
  }
  report.isGuarantee = run.sampling == SamplingKind::Poisson && std::isfinite(report.epsilon);
  if (run.sampling != SamplingKind::Poisson) {
    report.statusLabel = "assumes Poisson sampling — not a proven guarantee for shuffled batches";
  } else {
    report.statusLabel = std::isfinite(report.epsilon) ? "DP guarantee" : "no finite guarantee";
  }
  return report;
}

double adaptiveGradientNoiseMultiplier(double targetNoiseMultiplier, double countNoiseStd) {
  if (!(targetNoiseMultiplier > 0.0) || !(countNoiseStd > 0.0)) {
    throw PrivacyError("adaptive clipping: noise multiplier and sigma_b must be > 0");
  }
  const double remaining = 1.0 / (targetNoiseMultiplier * targetNoiseMultiplier) -
                           1.0 / (4.0 * countNoiseStd * countNoiseStd);
  if (!(remaining > 0.0)) {
    throw PrivacyError(
        "privacy.count_noise_std: 2*sigma_b = " + std::to_string(2.0 * countNoiseStd) +
        " must exceed the target noise multiplier " + std::to_string(targetNoiseMultiplier));
  }
  return 1.0 / std::sqrt(remaining);
}

std::vector<double> epsilonOverSteps(AccountantKind kind, double sampleRate, double noiseMultiplier,
                                     double delta, std::span<const long long> steps,
                                     std::optional<double> pcaNoiseMultiplier) {
  std::vector<double> epsilons;
  epsilons.reserve(steps.size());
  const DpEvent once = pcaNoiseMultiplier ? dpPcaEvent(*pcaNoiseMultiplier) : DpEvent{};
  if (kind == AccountantKind::Rdp) {
    RdpAccountant single;
    single.compose(dpSgdStepEvent(sampleRate, noiseMultiplier));
    requireDeltaArgument(delta);
    const std::vector<double> curve = single.rdpCurve();
    // RDP composes additively (Mironov 2017, Prop. 1): t steps plus the one-time release.
    std::vector<double> onceCurve(curve.size(), 0.0);
    if (pcaNoiseMultiplier) {
      RdpAccountant pca;
      pca.compose(once);
      onceCurve = pca.rdpCurve();
    }
    std::vector<double> scaled(curve.size());
    for (long long t : steps) {
      for (std::size_t k = 0; k < curve.size(); ++k)
        scaled[k] = static_cast<double>(std::max(0LL, t)) * curve[k] + onceCurve[k];
      const bool nothing = t <= 0 && !pcaNoiseMultiplier;
      epsilons.push_back(nothing ? 0.0 : epsilonFromRdp(single.orders(), scaled, delta).epsilon);
    }
    return epsilons;
  }
  for (long long t : steps) {
    PldAccountant accountant;
    if (pcaNoiseMultiplier) accountant.compose(once);
    accountant.compose(dpSgdStepEvent(sampleRate, noiseMultiplier), std::max(0LL, t));
    epsilons.push_back(accountant.epsilon(delta));
  }
  return epsilons;
}

double dpPcaEpsilon(AccountantKind kind, double pcaNoiseMultiplier, double delta) {
  requireDeltaArgument(delta);
  const auto accountant = makeAccountant(kind);
  accountant->compose(dpPcaEvent(pcaNoiseMultiplier));
  return accountant->epsilon(delta);
}

}  // namespace epsilon::privacy

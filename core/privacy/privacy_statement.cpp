#include "core/privacy/privacy_statement.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/rdp_accountant.h"

namespace epsilon::privacy {

namespace {

// PLD's grid for σ_t ≠ σ₀ (accountedNoiseMultiplier).
constexpr double kPldSigmaGridRatio = 0.99;
// Most repetitions of a whole run a description may ask for (privacy.runs).
constexpr long long kMaxRuns = 1000000;

void validateRun(const PrivacyRunDescription& run) {
  if (!(run.sampleRate > 0.0 && run.sampleRate <= 1.0))
    throw PrivacyError("privacy.sample_rate: expected a value in (0, 1], got " +
                       shortNumber(run.sampleRate));
  if (run.steps < 0)
    throw PrivacyError("training.steps: expected >= 0, got " + std::to_string(run.steps));
  if (!(run.delta > 0.0 && run.delta < 1.0))
    throw PrivacyError("privacy.delta: expected a value in (0, 1), got " + shortNumber(run.delta));
  if (run.pca && (!(run.pcaNoiseMultiplier >= 0.0) || !std::isfinite(run.pcaNoiseMultiplier)))
    throw PrivacyError("model.pca_noise: expected a finite noise multiplier >= 0, got " +
                       shortNumber(run.pcaNoiseMultiplier));
  if (run.runs < 1 || run.runs > kMaxRuns)
    throw PrivacyError("privacy.runs: expected an integer in [1, " + std::to_string(kMaxRuns) +
                       "], got " + std::to_string(run.runs));
  if (run.tuning) {
    validateTuning(*run.tuning, "privacy.tuning");
    if (run.accountant == AccountantKind::Pld)
      throw PrivacyError(
          std::string("privacy.tuning: the PLD accountant cannot account for the best of a "
                      "random number of runs: ") +
          kRepeatAndSelectNotGaussian);
  }
  if (run.privatizer == PrivatizerKind::None) return;
  const std::size_t count = run.noiseMultipliers.size();
  if (count != 1 && count != static_cast<std::size_t>(run.steps))
    throw PrivacyError("privacy.noise_multiplier: expected 1 value or one per step (" +
                       std::to_string(run.steps) + "), got " + std::to_string(count));
  for (double sigma : run.noiseMultipliers)
    if (!(sigma >= 0.0) || !std::isfinite(sigma))
      throw PrivacyError("privacy.noise_multiplier: expected finite values >= 0, got " +
                         shortNumber(sigma));
  if (run.privatizer == PrivatizerKind::Tanh && run.parameterCount < 1)
    throw PrivacyError(
        "privacy.parameter_count: the tanh filter needs the number of parameters (>= 1), got " +
        std::to_string(run.parameterCount));
  if (run.privatizer == PrivatizerKind::Adaptive &&
      (!(run.countNoiseStd > 0.0) || !std::isfinite(run.countNoiseStd)))
    throw PrivacyError("privacy.clip_count_stddev: adaptive clipping needs σ_b > 0, got " +
                       shortNumber(run.countNoiseStd));
}

double sigmaAt(const PrivacyRunDescription& run, long long step) {
  return run.noiseMultipliers.size() == 1 ? run.noiseMultipliers.front()
                                          : run.noiseMultipliers[static_cast<std::size_t>(step)];
}

// True when the run releases something without noise: no ε can bound it.
bool releasesWithoutNoise(const PrivacyRunDescription& run) {
  if (run.pca && !(run.pcaNoiseMultiplier > 0.0)) return true;
  if (run.steps == 0) return false;
  if (run.privatizer == PrivatizerKind::None) return true;
  return std::any_of(run.noiseMultipliers.begin(), run.noiseMultipliers.end(),
                     [](double sigma) { return sigma == 0.0; });
}

// One step's event for the trainer's noise multiplier σ_t > 0.
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

// The first σ_t > 0: the anchor of accountedNoiseMultiplier's grid.
double firstPositiveSigma(const PrivacyRunDescription& run) {
  for (double sigma : run.noiseMultipliers)
    if (sigma > 0.0) return sigma;
  return 0.0;
}

std::unique_ptr<Accountant> accountantFor(const PrivacyRunDescription& run) {
  return makeAccountant(run.accountant, run.conversion);
}

// The bytes of what decides a description's ε (the sampling assumption does not), for the
// memo's key.
std::string accountingBytes(const PrivacyRunDescription& run, bool nominal) {
  std::string bytes;
  const auto add = [&](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  add(nominal), add(run.privatizer), add(run.sampleRate), add(run.steps);
  add(run.parameterCount), add(run.countNoiseStd), add(run.delta), add(run.accountant);
  add(run.conversion), add(run.pca), add(run.pcaNoiseMultiplier), add(run.pcaSampleFraction);
  add(run.runs), add(run.tuning.has_value());
  if (run.tuning) add(run.tuning->mean), add(run.tuning->shape);
  bytes.append(reinterpret_cast<const char*>(run.noiseMultipliers.data()),
               run.noiseMultipliers.size() * sizeof(double));
  return bytes;
}

// Recent accountings by a 128-bit digest of what decides them (std::hash and FNV-1a of its
// bytes): accounting is a pure function, and the trainer, the preview and a slider that comes
// back to a value ask for the same runs again (a PLD accounting costs 10–100 ms).
class AccountingMemo {
 public:
  using Key = std::pair<std::size_t, std::uint64_t>;
  static Key keyOf(const PrivacyRunDescription& run, bool nominal) {
    const std::string bytes = accountingBytes(run, nominal);
    std::uint64_t fnv = 1469598103934665603ULL;
    for (unsigned char c : bytes) fnv = (fnv ^ c) * 1099511628211ULL;
    return {std::hash<std::string>{}(bytes), fnv};
  }
  std::optional<EpsilonBound> find(const Key& key) {
    std::lock_guard lock(m_mutex);
    const auto found = m_entries.find(key);
    if (found == m_entries.end()) return std::nullopt;
    return found->second;
  }
  void store(const Key& key, const EpsilonBound& bound) {
    std::lock_guard lock(m_mutex);
    if (m_entries.size() >= kMaxEntries) m_entries.clear();
    m_entries.emplace(key, bound);
  }

 private:
  static constexpr std::size_t kMaxEntries = 4096;  // a few dozen bytes each
  std::mutex m_mutex;
  std::map<Key, EpsilonBound> m_entries;
};

EpsilonBound accounted(const PrivacyRunDescription& run, bool nominal) {
  static AccountingMemo memo;
  const AccountingMemo::Key key = AccountingMemo::keyOf(run, nominal);
  if (auto known = memo.find(key)) return *known;
  const auto accountant = accountantFor(run);
  for (const auto& [event, count] : privacyEvents(run, nominal)) accountant->compose(event, count);
  const EpsilonBound bound = accountant->epsilonBound(run.delta);
  memo.store(key, bound);
  return bound;
}

bool anyRounded(const PrivacyRunDescription& run) {
  const double first = firstPositiveSigma(run);
  return std::any_of(run.noiseMultipliers.begin(), run.noiseMultipliers.end(), [&](double s) {
    return s > 0.0 && accountedNoiseMultiplier(run.accountant, s, first) != s;
  });
}

double effectiveNoiseMultiplier(const PrivacyRunDescription& run) {
  const double sigma0 = run.noiseMultipliers.empty() ? 0.0 : run.noiseMultipliers.front();
  if (!(sigma0 > 0.0)) return 0.0;
  switch (run.privatizer) {
    case PrivatizerKind::Tanh:
      return sigma0 / std::sqrt(static_cast<double>(run.parameterCount));
    case PrivatizerKind::Adaptive:
      return 1.0 / std::sqrt(1.0 / (sigma0 * sigma0) +
                             1.0 / (4.0 * run.countNoiseStd * run.countNoiseStd));
    default:
      return sigma0;
  }
}

GuaranteeStatus statusOf(const PrivacyRunDescription& run, double epsilon) {
  if (run.steps == 0 && !run.pca) return GuaranteeStatus::NothingReleased;
  if (releasesWithoutNoise(run)) return GuaranteeStatus::NoPrivacy;
  if (run.sampling != SamplingKind::Poisson) return GuaranteeStatus::AssumesPoisson;
  return std::isfinite(epsilon) ? GuaranteeStatus::Guarantee : GuaranteeStatus::NoFiniteBound;
}

}  // namespace

double accountedNoiseMultiplier(AccountantKind accountant, double sigma, double firstSigma) {
  if (accountant != AccountantKind::Pld || sigma == firstSigma || !(sigma > 0.0) ||
      !(firstSigma > 0.0))
    return sigma;
  const double k = std::ceil(std::log(firstSigma / sigma) / -std::log(kPldSigmaGridRatio) - 1e-9);
  return std::min(sigma, firstSigma * std::pow(kPldSigmaGridRatio, k));
}

namespace {

// The events of one run, validated: the PCA release, then each run of equal steps.
std::vector<std::pair<DpEvent, long long>> oneRunEvents(const PrivacyRunDescription& run,
                                                        bool nominal) {
  std::vector<std::pair<DpEvent, long long>> events;
  // The projection is released before the first step, once, whatever the privatizer.
  if (run.pca) events.emplace_back(dpPcaEvent(run.pcaNoiseMultiplier), 1);
  if (run.steps == 0) return events;
  if (run.privatizer == PrivatizerKind::None) {
    events.emplace_back(NonPrivateEvent{}, run.steps);
    return events;
  }
  const double first = firstPositiveSigma(run);
  double runSigma = accountedNoiseMultiplier(run.accountant, sigmaAt(run, 0), first);
  long long runLength = 0;
  const auto flush = [&] {
    events.emplace_back(runSigma > 0.0 ? stepEvent(run, runSigma, nominal) : NonPrivateEvent{},
                        runLength);
  };
  for (long long step = 0; step < run.steps; ++step) {
    const double sigma = accountedNoiseMultiplier(run.accountant, sigmaAt(run, step), first);
    if (sigma != runSigma) {
      flush();
      runSigma = sigma;
      runLength = 0;
    }
    ++runLength;
  }
  flush();
  return events;
}

}  // namespace

std::vector<std::pair<DpEvent, long long>> privacyEvents(const PrivacyRunDescription& run,
                                                         bool nominal) {
  validateRun(run);
  std::vector<std::pair<DpEvent, long long>> events = oneRunEvents(run, nominal);
  if (run.runs > 1)  // K-fold composition: every event K times as often
    for (auto& entry : events) entry.second *= run.runs;
  if (!run.tuning || events.empty()) return events;
  std::vector<DpEvent> inner;
  for (const auto& [event, count] : events) inner.push_back(selfComposedEvent(event, count));
  const DpEvent whole = inner.size() == 1 ? inner.front() : composedEvent(std::move(inner));
  return {{repeatAndSelectEvent(whole, *run.tuning), 1}};
}

PrivacyStatement privacyStatement(const PrivacyRunDescription& run) {
  validateRun(run);
  PrivacyStatement s;
  s.delta = run.delta;
  s.accountant = run.accountant;
  s.sampling = run.sampling;
  s.steps = run.steps;
  if (run.pca)
    s.pca = PcaStatement{run.pcaNoiseMultiplier, run.pcaSampleFraction,
                         dpPcaEpsilon(run.accountant, run.pcaNoiseMultiplier, run.delta)};
  if (run.steps == 0 && !run.pca) {
    s.status = GuaranteeStatus::NothingReleased;
    return s;
  }
  if (releasesWithoutNoise(run)) {
    s.epsilon = std::numeric_limits<double>::infinity();
    s.status = GuaranteeStatus::NoPrivacy;
    if (run.tuning)
      s.tuning = TuningStatement{*run.tuning, s.epsilon, comparisonRuns(*run.tuning), s.epsilon};
    return s;
  }
  const EpsilonBound honest = accounted(run, false);
  s.epsilon = honest.epsilon;
  if (std::isfinite(honest.epsilon) && run.steps > 0) s.order = honest.order;
  if (run.steps > 0 && run.privatizer == PrivatizerKind::Tanh)
    s.nominalEpsilon = accounted(run, true).epsilon;
  s.effectiveNoiseMultiplier = effectiveNoiseMultiplier(run);
  s.noiseRounded = anyRounded(run);
  s.status = statusOf(run, s.epsilon);
  if (run.tuning) {
    const long long fixed = comparisonRuns(*run.tuning);
    s.tuning = TuningStatement{*run.tuning, privacyStatement(singleRun(run)).epsilon, fixed,
                               privacyStatement(composedRuns(run, fixed)).epsilon};
  }
  return s;
}

PrivacyRunDescription singleRun(const PrivacyRunDescription& run) {
  return composedRuns(run, 1);
}

PrivacyRunDescription composedRuns(const PrivacyRunDescription& run, long long runs) {
  PrivacyRunDescription plain = run;
  plain.tuning.reset();
  plain.runs = runs;
  return plain;
}

long long comparisonRuns(const TuningDistribution& distribution) {
  validateTuning(distribution, "privacy.tuning");
  return static_cast<long long>(std::ceil(distribution.mean));
}

PrivacyRunDescription firstSteps(const PrivacyRunDescription& run, long long steps) {
  PrivacyRunDescription part = run;
  part.steps = steps;
  if (part.noiseMultipliers.size() > 1)
    part.noiseMultipliers.resize(static_cast<std::size_t>(std::max<long long>(1, steps)));
  return part;
}

Calibration calibrateNoise(const std::function<PrivacyRunDescription(double)>& describe,
                           double targetEpsilon, CalibrationOptions options) {
  const PrivacyRunDescription probe = describe(options.initialNoiseMultiplier);
  if (probe.pca) {
    const double alone = dpPcaEpsilon(probe.accountant, probe.pcaNoiseMultiplier, probe.delta);
    if (!(alone < targetEpsilon))
      throw PrivacyError("target ε " + shortNumber(targetEpsilon) +
                         " cannot be reached: the PCA release (model.pca_noise " +
                         shortNumber(probe.pcaNoiseMultiplier) + ") alone costs ε " +
                         shortNumber(alone) + " (held fixed; only the steps' σ is calibrated)");
  }
  return calibrateNoiseMultiplier(
      [&](double sigma) { return privacyStatement(describe(sigma)).epsilon; }, targetEpsilon,
      options);
}

double adaptiveGradientNoiseMultiplier(double noiseMultiplier, double countNoiseStd) {
  if (noiseMultiplier == 0.0) return 0.0;
  // Thm. 1: the clipped sum with multiplier σ_Δ and the centred count with noise σ_b
  // (sensitivity ½) are one Gaussian mechanism with σ = (σ_Δ⁻² + (2σ_b)⁻²)^(−1/2).
  if (!(2.0 * countNoiseStd > noiseMultiplier))
    throw ConfigError("privacy.clip_count_stddev: adaptive clipping needs 2·σ_b > σ, got σ_b = " +
                      shortNumber(countNoiseStd) + " and σ = " + shortNumber(noiseMultiplier));
  return 1.0 / std::sqrt(1.0 / (noiseMultiplier * noiseMultiplier) -
                         1.0 / (4.0 * countNoiseStd * countNoiseStd));
}

double dpPcaEpsilon(AccountantKind kind, double pcaNoiseMultiplier, double delta) {
  requireDeltaArgument(delta);
  const auto accountant = makeAccountant(kind);
  accountant->compose(dpPcaEvent(pcaNoiseMultiplier));
  return accountant->epsilon(delta);
}

const char* statusWords(GuaranteeStatus status) {
  switch (status) {
    case GuaranteeStatus::Guarantee:
      return "DP guarantee";
    case GuaranteeStatus::NothingReleased:
      return "nothing released yet";
    case GuaranteeStatus::NoPrivacy:
      return "no privacy";
    case GuaranteeStatus::NoFiniteBound:
      return "no finite guarantee";
    case GuaranteeStatus::AssumesPoisson:
      return "assumes Poisson sampling — not a proven guarantee for shuffled batches";
  }
  return "";
}

GuaranteeStatus parseStatusWords(const std::string& text, const std::string& field) {
  for (auto status :
       {GuaranteeStatus::Guarantee, GuaranteeStatus::NothingReleased, GuaranteeStatus::NoPrivacy,
        GuaranteeStatus::NoFiniteBound, GuaranteeStatus::AssumesPoisson})
    if (text == statusWords(status)) return status;
  throw PrivacyError(field + ": expected a privacy status such as 'DP guarantee', got '" +
                     clippedText(text) + "'");
}

const char* samplingWords(SamplingKind sampling) {
  return sampling == SamplingKind::Poisson ? "Poisson sampling"
                                           : "assumes Poisson sampling (batches were shuffled)";
}

SamplingKind parseSamplingWords(const std::string& text, const std::string& field) {
  for (auto sampling : {SamplingKind::Poisson, SamplingKind::Shuffle})
    if (text == samplingWords(sampling)) return sampling;
  throw PrivacyError(field + ": expected 'Poisson sampling' or '" +
                     samplingWords(SamplingKind::Shuffle) + "', got '" + clippedText(text) + "'");
}

const char* accountantWords(AccountantKind accountant) {
  return accountant == AccountantKind::Rdp ? "RDP" : "PLD (tight)";
}

std::optional<std::size_t> dominatingRun(const std::vector<PrivacyRunDescription>& runs) {
  std::vector<std::unique_ptr<RdpAccountant>> accountants;
  for (const PrivacyRunDescription& run : runs) {
    auto accountant =
        std::make_unique<RdpAccountant>(RdpAccountantOptions{defaultRdpOrders(), run.conversion});
    PrivacyRunDescription plain = singleRun(run);
    plain.accountant = AccountantKind::Rdp;  // the curve itself, σ_t as given
    for (const auto& [event, count] : privacyEvents(plain)) accountant->compose(event, count);
    accountants.push_back(std::move(accountant));
  }
  if (accountants.empty()) return std::nullopt;
  // Whether i's curve is at least j's at order k: by the bounds where they are apart, else by
  // the values themselves (each order's value is then computed once per run).
  const auto atLeast = [&](std::size_t i, std::size_t j, std::size_t k) {
    const RdpCurveBounds& a = accountants[i]->rdpBounds();
    const RdpCurveBounds& b = accountants[j]->rdpBounds();
    if (a.lower[k] >= b.upper[k]) return true;
    if (a.upper[k] < b.lower[k]) return false;
    return accountants[i]->rdpAt(k) >= accountants[j]->rdpAt(k);
  };
  // A run that dominates every other reaches, at each order, every other's lower bound.
  const std::size_t orders = accountants.front()->orders().size();
  std::vector<double> highest(orders, 0.0);
  for (const auto& accountant : accountants)
    for (std::size_t k = 0; k < orders; ++k)
      highest[k] = std::max(highest[k], accountant->rdpBounds().lower[k]);
  for (std::size_t i = 0; i < accountants.size(); ++i) {
    const RdpCurveBounds& own = accountants[i]->rdpBounds();
    bool dominates = true;
    for (std::size_t k = 0; k < orders && dominates; ++k) dominates = own.upper[k] >= highest[k];
    for (std::size_t j = 0; j < accountants.size() && dominates; ++j)
      for (std::size_t k = 0; k < orders && dominates; ++k) dominates = atLeast(i, j, k);
    if (dominates) return i;
  }
  return std::nullopt;
}

const char* tuningLawName(const TuningDistribution& distribution) {
  if (distribution.isPoisson()) return "poisson";
  if (distribution.shape == 1.0) return "geometric";
  if (distribution.shape == 0.0) return "log";
  return "tnb";
}

std::string tuningWords(const TuningDistribution& d) {
  std::string law = d.isPoisson()    ? "Poisson"
                    : d.shape == 1.0 ? "geometric"
                    : d.shape == 0.0 ? "logarithmic"
                                     : "truncated negative binomial, shape " + shortNumber(d.shape);
  return "best of a random number of runs (" + law + ", mean " + shortNumber(d.mean) + ")";
}

}  // namespace epsilon::privacy

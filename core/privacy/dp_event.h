// Privacy events as values, in the manner of Google's dp_accounting: what a training run
// released (a Gaussian mechanism, Poisson sampling of an inner event, repetitions,
// compositions), described apart from how any accountant counts it.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace epsilon::privacy {

class DpEvent;

// Releases nothing: costs no privacy.
struct NoOpEvent {};

// A release with no privacy guarantee at all (e.g. training without a privatizer): ε = ∞.
struct NonPrivateEvent {};

// The Gaussian mechanism with L2 sensitivity 1 and noise N(0, σ²): σ is the noise
// multiplier (noise standard deviation divided by the sensitivity).
struct GaussianEvent {
  double noiseMultiplier = 0.0;
};

// `inner` applied to a Poisson sample of the data set, each record included independently
// with probability `sampleRate` (add/remove adjacency).
struct PoissonSampledEvent {
  double sampleRate = 0.0;
  std::shared_ptr<const DpEvent> inner;
};

// `inner` repeated `count` times on the same data (each with fresh randomness).
struct SelfComposedEvent {
  std::shared_ptr<const DpEvent> inner;
  long long count = 0;
};

// Several events on the same data, one after the other.
struct ComposedEvent {
  std::vector<DpEvent> events;
};

// The law of the number of runs K of a repeat-and-select event (Papernot & Steinke 2022,
// "Hyperparameter Tuning with Renyi Differential Privacy", §3): the truncated negative
// binomial of shape η ≥ 0 with mean μ ≥ 1 (η = 0 the logarithmic law, η = 1 the geometric),
// or the Poisson law of mean μ (η = +∞, the limit of the family). μ = 1 with a finite η is
// K = 1, a single run.
struct TuningDistribution {
  double mean = 1.0;   // μ = E[K] ≥ 1
  double shape = 1.0;  // η ≥ 0, or +∞ for Poisson
  bool isPoisson() const;
  friend bool operator==(const TuningDistribution&, const TuningDistribution&) = default;
};

// `inner` (a whole training run) run K times on the same data with fresh randomness, K drawn
// from `distribution`, and only the best of the K outputs released (private selection).
struct RepeatAndSelectEvent {
  std::shared_ptr<const DpEvent> inner;
  TuningDistribution distribution;
};

// An immutable value: copies share their sub-events, equality compares the whole tree.
class DpEvent {
 public:
  using Variant = std::variant<NoOpEvent, NonPrivateEvent, GaussianEvent, PoissonSampledEvent,
                               SelfComposedEvent, ComposedEvent, RepeatAndSelectEvent>;

  DpEvent();  // a NoOpEvent
  DpEvent(NoOpEvent event);
  DpEvent(NonPrivateEvent event);
  DpEvent(GaussianEvent event);
  DpEvent(PoissonSampledEvent event);
  DpEvent(SelfComposedEvent event);
  DpEvent(ComposedEvent event);
  DpEvent(RepeatAndSelectEvent event);

  const Variant& value() const { return *m_value; }
  template <typename T>
  const T* as() const {
    return std::get_if<T>(m_value.get());
  }

  friend bool operator==(const DpEvent& a, const DpEvent& b);

 private:
  std::shared_ptr<const Variant> m_value;
};

// Convenience constructors.
DpEvent gaussianEvent(double noiseMultiplier);
DpEvent poissonSampledEvent(double sampleRate, const DpEvent& inner);
DpEvent selfComposedEvent(const DpEvent& inner, long long count);
DpEvent composedEvent(std::vector<DpEvent> events);
DpEvent repeatAndSelectEvent(const DpEvent& inner, TuningDistribution distribution);

// The canonical DP-SGD step: a Gaussian release of the noisy gradient sum on a Poisson
// sample. PoissonSampled(q, Gaussian(σ)).
DpEvent dpSgdStepEvent(double sampleRate, double noiseMultiplier);

// A readable one-line description, e.g. "PoissonSampled(q=0.01, Gaussian(sigma=4))",
// used in error messages and reports.
std::string describe(const DpEvent& event);

// Throws PrivacyError naming the offending field if a parameter is out of range: σ must be
// finite and > 0, q in [0, 1], counts >= 0, sub-events present, a tuning distribution's
// mean finite and >= 1 and its shape >= 0 (validateTuning).
void validate(const DpEvent& event);

// Throws PrivacyError naming `field` ("<field>.mean", "<field>.shape") unless μ is finite and
// >= 1 and η is >= 0 (finite, or +∞ for Poisson).
void validateTuning(const TuningDistribution& distribution, const std::string& field);

}  // namespace epsilon::privacy

// The accountant interface: an accountant keeps a ledger of the privacy events of a run
// (identical events merged into one entry with a count), refuses events it cannot account
// for, and answers ε(δ) and δ(ε) for everything composed so far.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/privacy/dp_event.h"

namespace epsilon::privacy {

// Events with their counts; composing an event equal to an earlier one only adds to its
// count, so a run of 10⁵ identical steps is one entry.
class PrivacyLedger {
 public:
  struct Entry {
    DpEvent event;
    long long count = 0;
  };

  void add(const DpEvent& event, long long count);
  const std::vector<Entry>& entries() const { return m_entries; }
  bool empty() const { return m_entries.empty(); }
  void clear();

 private:
  std::vector<Entry> m_entries;
  std::unordered_multimap<std::size_t, std::size_t> m_index;  // hash -> entry position
};

// A Poisson-sampled Gaussian release with its effective noise multiplier (q = 1: the plain
// Gaussian), the unit both accountants count in.
struct SampledGaussian {
  double sampleRate = 1.0;
  double noiseMultiplier = 1.0;
  friend bool operator==(const SampledGaussian&, const SampledGaussian&) = default;
};

// A ledger reduced to its atoms: sampled Gaussians with their total counts, and the number
// of non-private releases.
struct GaussianAtoms {
  std::vector<std::pair<SampledGaussian, long long>> gaussians;
  long long nonPrivate = 0;
};

// Why `event` cannot be reduced to sampled Gaussians (nullopt if it can). A Poisson-sampled
// event must contain only Gaussian releases (possibly composed), which on the same sample
// act as one Gaussian with σ = (Σ n_i/σ_i²)^{−1/2} (Dong, Roth & Su 2022, Cor. 3.3); nested
// sampling or a sampled non-private release is refused.
// A repeat-and-select event is no sampled Gaussian: its reason says which accountant has a
// bound for it (the RDP accountant, rdp_tuning.h), so the PLD accountant's refusal is clear.
std::optional<std::string> gaussianReductionProblem(const DpEvent& event);
inline constexpr const char* kRepeatAndSelectNotGaussian =
    "releasing the best of a random number of runs (private tuning) is bounded only in Renyi "
    "DP (Papernot & Steinke 2022); use the RDP accountant";

// Adds `count` times `event` (which must pass gaussianReductionProblem) to `atoms`, merging
// equal atoms.
void addGaussianAtoms(const DpEvent& event, long long count, GaussianAtoms& atoms);
GaussianAtoms gaussianAtoms(const PrivacyLedger& ledger);

// ε with, for RDP, the order α that attains it (no other accountant has an order).
struct EpsilonBound {
  double epsilon = 0.0;
  std::optional<double> order;
};

// Base of the RDP and PLD accountants. Not thread-safe: one thread at a time (queries may
// fill caches).
class Accountant {
 public:
  virtual ~Accountant() = default;

  // "rdp" or "pld".
  virtual std::string name() const = 0;

  bool supports(const DpEvent& event) const { return !unsupportedReason(event).has_value(); }

  // Records `count` repetitions of `event`. Validates the event, the count and support
  // before changing any state; throws PrivacyError naming the event otherwise.
  void compose(const DpEvent& event, long long count = 1);

  // Smallest ε with the composition (ε, δ)-DP; δ in (0, 1). ∞ if there is none.
  virtual double epsilon(double delta) const = 0;
  // epsilon(delta) with the RDP order where there is one.
  virtual EpsilonBound epsilonBound(double delta) const { return {epsilon(delta), std::nullopt}; }
  // Smallest δ with the composition (ε, δ)-DP; ε >= 0.
  virtual double delta(double epsilon) const = 0;

  const PrivacyLedger& ledger() const { return m_ledger; }
  void reset();

 protected:
  virtual std::optional<std::string> unsupportedReason(const DpEvent& event) const = 0;
  // Called after the ledger changed, to drop cached results.
  virtual void ledgerChanged() = 0;

 private:
  PrivacyLedger m_ledger;
};

// Throws PrivacyError unless delta ∈ (0, 1) / epsilon >= 0 (shared argument checks).
void requireDeltaArgument(double delta);
void requireEpsilonArgument(double epsilon);

}  // namespace epsilon::privacy

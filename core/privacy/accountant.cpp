#include "core/privacy/accountant.h"

#include <cmath>
#include <functional>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::privacy {

namespace {

void hashCombine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

std::size_t hashEvent(const DpEvent& event) {
  std::size_t seed = event.value().index();
  if (const auto* g = event.as<GaussianEvent>()) {
    hashCombine(seed, std::hash<double>{}(g->noiseMultiplier));
  } else if (const auto* p = event.as<PoissonSampledEvent>()) {
    hashCombine(seed, std::hash<double>{}(p->sampleRate));
    if (p->inner) hashCombine(seed, hashEvent(*p->inner));
  } else if (const auto* s = event.as<SelfComposedEvent>()) {
    hashCombine(seed, std::hash<long long>{}(s->count));
    if (s->inner) hashCombine(seed, hashEvent(*s->inner));
  } else if (const auto* c = event.as<ComposedEvent>()) {
    for (const DpEvent& inner : c->events) hashCombine(seed, hashEvent(inner));
  } else if (const auto* r = event.as<RepeatAndSelectEvent>()) {
    hashCombine(seed, std::hash<double>{}(r->distribution.mean));
    hashCombine(seed, std::hash<double>{}(r->distribution.shape));
    if (r->inner) hashCombine(seed, hashEvent(*r->inner));
  }
  return seed;
}

// 1/σ² of the single Gaussian equivalent to `event` run once on a sample, or nullopt with a
// reason in `problem`. NoOp contributes 0.
std::optional<double> inversePrecisionOnSample(const DpEvent& event, std::string& problem) {
  if (event.as<NoOpEvent>()) return 0.0;
  if (const auto* g = event.as<GaussianEvent>()) {
    return 1.0 / (g->noiseMultiplier * g->noiseMultiplier);
  }
  if (const auto* s = event.as<SelfComposedEvent>()) {
    const auto inner = inversePrecisionOnSample(*s->inner, problem);
    if (!inner) return std::nullopt;
    return static_cast<double>(s->count) * *inner;
  }
  if (const auto* c = event.as<ComposedEvent>()) {
    double total = 0.0;
    for (const DpEvent& inner : c->events) {
      const auto value = inversePrecisionOnSample(inner, problem);
      if (!value) return std::nullopt;
      total += *value;
    }
    return total;
  }
  problem = "only Gaussian releases can be Poisson-sampled, found " + describe(event);
  return std::nullopt;
}

void addAtom(const SampledGaussian& atom, long long count, GaussianAtoms& atoms) {
  if (count == 0) return;
  for (auto& [existing, existingCount] : atoms.gaussians) {
    if (existing == atom) {
      existingCount += count;
      return;
    }
  }
  atoms.gaussians.emplace_back(atom, count);
}

}  // namespace

void PrivacyLedger::add(const DpEvent& event, long long count) {
  const std::size_t hash = hashEvent(event);
  const auto [begin, end] = m_index.equal_range(hash);
  for (auto it = begin; it != end; ++it) {
    Entry& entry = m_entries[it->second];
    if (entry.event == event) {
      entry.count += count;
      return;
    }
  }
  m_index.emplace(hash, m_entries.size());
  m_entries.push_back(Entry{event, count});
}

void PrivacyLedger::clear() {
  m_entries.clear();
  m_index.clear();
}

std::optional<std::string> gaussianReductionProblem(const DpEvent& event) {
  if (event.as<NoOpEvent>() || event.as<NonPrivateEvent>() || event.as<GaussianEvent>()) {
    return std::nullopt;
  }
  if (const auto* p = event.as<PoissonSampledEvent>()) {
    std::string problem;
    if (!inversePrecisionOnSample(*p->inner, problem)) return problem;
    return std::nullopt;
  }
  if (const auto* s = event.as<SelfComposedEvent>()) return gaussianReductionProblem(*s->inner);
  if (const auto* c = event.as<ComposedEvent>()) {
    for (const DpEvent& inner : c->events) {
      if (auto problem = gaussianReductionProblem(inner)) return problem;
    }
    return std::nullopt;
  }
  if (event.as<RepeatAndSelectEvent>()) return std::string(kRepeatAndSelectNotGaussian);
  return "unknown event " + describe(event);
}

void addGaussianAtoms(const DpEvent& event, long long count, GaussianAtoms& atoms) {
  if (count == 0 || event.as<NoOpEvent>()) return;
  if (event.as<NonPrivateEvent>()) {
    atoms.nonPrivate += count;
  } else if (const auto* g = event.as<GaussianEvent>()) {
    addAtom({1.0, g->noiseMultiplier}, count, atoms);
  } else if (const auto* p = event.as<PoissonSampledEvent>()) {
    std::string problem;
    const double inversePrecision = inversePrecisionOnSample(*p->inner, problem).value_or(0.0);
    if (inversePrecision > 0.0 && p->sampleRate > 0.0) {
      addAtom({p->sampleRate, 1.0 / std::sqrt(inversePrecision)}, count, atoms);
    }
  } else if (const auto* s = event.as<SelfComposedEvent>()) {
    addGaussianAtoms(*s->inner, count * s->count, atoms);
  } else if (const auto* c = event.as<ComposedEvent>()) {
    for (const DpEvent& inner : c->events) addGaussianAtoms(inner, count, atoms);
  }
}

GaussianAtoms gaussianAtoms(const PrivacyLedger& ledger) {
  GaussianAtoms atoms;
  for (const auto& entry : ledger.entries()) addGaussianAtoms(entry.event, entry.count, atoms);
  return atoms;
}

void Accountant::compose(const DpEvent& event, long long count) {
  if (count < 0) {
    throw PrivacyError(name() + " accountant: count must be >= 0, got " + std::to_string(count) +
                       " for " + describe(event));
  }
  validate(event);
  if (auto problem = unsupportedReason(event)) {
    throw PrivacyError(name() + " accountant cannot account for " + describe(event) + ": " +
                       *problem);
  }
  if (count == 0) return;
  m_ledger.add(event, count);
  ledgerChanged();
}

void Accountant::reset() {
  m_ledger.clear();
  ledgerChanged();
}

void requireDeltaArgument(double delta) {
  if (!(delta > 0.0 && delta < 1.0)) {
    throw PrivacyError("delta must be in (0, 1), got " + shortNumber(delta));
  }
}

void requireEpsilonArgument(double epsilon) {
  if (!(epsilon >= 0.0)) {
    throw PrivacyError("epsilon must be >= 0, got " + shortNumber(epsilon));
  }
}

}  // namespace epsilon::privacy

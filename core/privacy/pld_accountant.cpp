#include "core/privacy/pld_accountant.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/common/text.h"

namespace epsilon::privacy {

namespace {

// Pure results kept for the process, dropped oldest first beyond maxBytes; thread-safe.
template <typename Key, typename Value>
class BoundedMemo {
 public:
  explicit BoundedMemo(std::size_t maxBytes) : m_maxBytes(maxBytes) {}

  std::shared_ptr<const Value> find(const Key& key) {
    std::lock_guard lock(m_mutex);
    const auto found = m_entries.find(key);
    return found == m_entries.end() ? nullptr : found->second;
  }
  // Keeps value under key and returns it (or the one another thread stored meanwhile).
  std::shared_ptr<const Value> store(const Key& key, std::shared_ptr<const Value> value,
                                     std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    const auto [entry, inserted] = m_entries.emplace(key, std::move(value));
    if (!inserted) return entry->second;
    m_order.push_back({key, bytes});
    m_bytes += bytes;
    while (m_bytes > m_maxBytes && m_order.size() > 1) {
      m_bytes -= m_order.front().second;
      m_entries.erase(m_order.front().first);
      m_order.pop_front();
    }
    return entry->second;
  }

 private:
  std::size_t m_maxBytes;
  std::mutex m_mutex;
  std::map<Key, std::shared_ptr<const Value>> m_entries;
  std::deque<std::pair<Key, std::size_t>> m_order;
  std::size_t m_bytes = 0;
};

// One step's pessimistic PLD with its bounding masses for the Chernoff window.
struct StepPld {
  DiscretePld pld;
  PldMgfBlocks mgf;
};

// Every distinct step (q, σ, direction, interval, points per spread) is discretised once per
// process: a run's evaluations, its preview and the calibration's trials share most of their
// steps (a noise schedule's steps recur in every prefix of the run), and the result is a pure
// function of the key.
using StepKey = std::tuple<double, double, int, double, double>;
std::shared_ptr<const StepPld> stepPld(const SampledGaussian& atom, PldDirection direction,
                                       double interval, double pointsPerLossSpread) {
  static BoundedMemo<StepKey, StepPld> memo(std::size_t{256} << 20);
  const StepKey key{atom.sampleRate, atom.noiseMultiplier, static_cast<int>(direction), interval,
                    pointsPerLossSpread};
  if (auto known = memo.find(key)) return known;
  auto step = std::make_shared<StepPld>();
  step->pld = accountedStepPld(atom, direction, interval, pointsPerLossSpread);
  step->mgf = mgfBlocks(step->pld);
  const std::size_t bytes = sizeof(double) * (step->pld.probabilities.size() +
                                              step->mgf.loss.size() + step->mgf.logMass.size());
  return memo.store(key, std::move(step), bytes);
}

// The single-step PLDs of every atom in each direction (Add only when asked), at one
// interval. Distinct steps are independent pure functions, so they are made in parallel;
// the order stays the atoms'.
using StepPlds = std::vector<std::shared_ptr<const StepPld>>;
std::pair<StepPlds, StepPlds> stepPlds(const GaussianAtoms& atoms, bool withAdd, double interval,
                                       const PldAccountantOptions& options) {
  const std::size_t count = atoms.gaussians.size();
  StepPlds remove(count);
  StepPlds add(withAdd ? count : 0);
  // forEachChunk (core/common/parallel.h) states the fork and join to TSan.
  forEachChunk(count + add.size(), 1, [&](std::size_t task, std::size_t, std::size_t) {
    const SampledGaussian& atom = atoms.gaussians[task % count].first;
    const PldDirection direction = task < count ? PldDirection::Remove : PldDirection::Add;
    (task < count ? remove[task] : add[task - count]) =
        stepPld(atom, direction, interval, options.pointsPerLossSpread);
  });
  return {std::move(remove), std::move(add)};
}

std::vector<PldFactor> factorsOf(const std::vector<std::shared_ptr<const StepPld>>& plds,
                                 const GaussianAtoms& atoms) {
  std::vector<PldFactor> factors;
  for (std::size_t k = 0; k < plds.size(); ++k) {
    factors.push_back(PldFactor{&plds[k]->pld, atoms.gaussians[k].second, &plds[k]->mgf});
  }
  return factors;
}

// The fold (pld.h) of a run's first k steps, by the bytes of what decides it: direction,
// interval, points per loss spread, tail mass and each step's (q, σ, count). A run evaluated
// again after more steps extends the longest fold it finds instead of composing every step
// again; the result is the same double either way, since the fold after k steps depends only
// on them.
BoundedMemo<std::string, PldFold>& prefixFolds() {
  static BoundedMemo<std::string, PldFold> memo(std::size_t{128} << 20);
  return memo;
}

// The spectrum of a run's last step, by the step's key and the FFT length: the next
// evaluation of a growing run asks for it again, with a larger count or with a step after it.
using SpectrumKey = std::tuple<double, double, int, double, std::size_t>;
std::shared_ptr<const PldSpectrum> stepSpectrum(const StepPld& step, const SampledGaussian& atom,
                                                PldDirection direction, std::size_t length,
                                                bool keep) {
  static BoundedMemo<SpectrumKey, PldSpectrum> memo(std::size_t{64} << 20);
  const SpectrumKey key{atom.sampleRate, atom.noiseMultiplier, static_cast<int>(direction),
                        step.pld.interval, length};
  if (auto known = memo.find(key)) return known;
  auto made = std::make_shared<const PldSpectrum>(spectrumOf(step.pld, length));
  if (!keep) return made;
  const std::size_t bytes = made->values.size() * sizeof(made->values[0]);
  return memo.store(key, std::move(made), bytes);
}

void appendBytes(std::string& bytes, const auto& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// composePlds(factorsOf(steps, atoms), window, tailMass), from the longest known fold.
DiscretePld composeSteps(const StepPlds& steps, const GaussianAtoms& atoms, PldDirection direction,
                         const PldWindow& window, const PldAccountantOptions& options) {
  const std::vector<PldFactor> factors = factorsOf(steps, atoms);
  std::vector<std::string> keys(steps.size());
  std::string key;
  appendBytes(key, direction), appendBytes(key, steps.front()->pld.interval),
      appendBytes(key, options.pointsPerLossSpread), appendBytes(key, options.tailMass),
      appendBytes(key, window.truncated);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& [atom, count] = atoms.gaussians[k];
    appendBytes(key, atom.sampleRate), appendBytes(key, atom.noiseMultiplier),
        appendBytes(key, count);
    keys[k] = key;
  }
  std::shared_ptr<const PldFold> known;
  for (std::size_t k = steps.size(); k-- > 0 && !known;) known = prefixFolds().find(keys[k]);
  PldFold fold = known ? *known : PldFold{};
  fold.wholeSupport = !window.truncated;  // as composePlds
  const auto source = [&](std::size_t k, std::size_t length) {
    // The last step's count grows in the next evaluation: its spectrum is kept.
    return stepSpectrum(*steps[k], atoms.gaussians[k].first, direction, length,
                        k + 1 == steps.size());
  };
  while (fold.folded < steps.size()) {
    extendFold(fold, factors, options.tailMass, fold.folded + 1 == steps.size() ? &window : nullptr,
               source);
    // The next evaluation of a growing run starts from one of the last two.
    if (fold.folded + 1 >= steps.size())
      prefixFolds().store(keys[fold.folded - 1], std::make_shared<const PldFold>(fold),
                          fold.bytes());
  }
  return foldedPld(fold, factors, window, options.tailMass);
}

// A scale of one step's privacy loss: the smaller of q·√(e^{1/σ²} − 1), the χ² distance of the
// sampled Gaussian's outputs (the loss's spread when the sampled record's effect is small), and
// √(q(1−q))/(2σ²) + q/σ (the spread of a loss that is either about 0 or about 1/(2σ²), and
// the Gaussian's 1/σ at q = 1). Only the grid's fineness depends on it, never validity.
double lossSpread(const SampledGaussian& atom) {
  const double q = atom.sampleRate;
  const double inverseVariance = 1.0 / (atom.noiseMultiplier * atom.noiseMultiplier);
  const double chiSquare = q * std::sqrt(std::expm1(std::min(inverseVariance, 600.0)));
  const double twoPoint =
      std::sqrt(q * (1.0 - q)) * 0.5 * inverseVariance + q / atom.noiseMultiplier;
  return std::min(chiSquare, twoPoint);
}

// The interval of a composition, on the fixed ladder h₀·2^k (h₀ the option), so that runs
// differing in a few steps share their steps' PLDs: at least pointsPerLossSpread grid points per
// lossSpread of the least spread step (for a decaying schedule its first, so every prefix of
// the run has the same interval), then doubled while some step's grid exceeds maxStepPoints.
// Measured: the composed ε moves by < 1e-4 relative against a 16× finer grid.
double stepInterval(const GaussianAtoms& atoms, const PldAccountantOptions& options) {
  double spread = std::numeric_limits<double>::infinity();
  for (const auto& entry : atoms.gaussians) spread = std::min(spread, lossSpread(entry.first));
  double interval = options.valueDiscretisationInterval;
  while (interval * 2.0 * options.pointsPerLossSpread <= spread) interval *= 2.0;
  for (const auto& [atom, count] : atoms.gaussians) {
    for (PldDirection direction : {PldDirection::Remove, PldDirection::Add}) {
      for (;;) {
        const auto [low, high] = sampledGaussianLossIndexRange(
            atom.sampleRate, atom.noiseMultiplier, direction, interval);
        if (static_cast<double>(high - low + 1) <= static_cast<double>(options.maxStepPoints))
          break;
        interval *= 2.0;
      }
    }
  }
  return interval;
}

}  // namespace

DiscretePld accountedStepPld(const SampledGaussian& atom, PldDirection direction, double interval,
                             double pointsPerLossSpread) {
  // The step's own interval: interval·2^i, the coarsest with pointsPerLossSpread points per its
  // own loss spread (a later step of a decaying schedule spreads more widely than the first,
  // which set the run's interval), so its discretisation is as fine relative to its loss as
  // the first step's. Connect-the-dots on any grid lies above the true profile.
  const double spread = lossSpread(atom);
  double own = interval;
  while (own * 2.0 * pointsPerLossSpread <= spread) own *= 2.0;
  return onFinerGrid(sampledGaussianPld(atom.sampleRate, atom.noiseMultiplier, direction, own),
                     interval);
}

PldAccountant::PldAccountant(PldAccountantOptions options) : m_options(options) {
  if (!(m_options.valueDiscretisationInterval > 0.0) ||
      !std::isfinite(m_options.valueDiscretisationInterval)) {
    throw PrivacyError("PLD accountant: the discretisation interval must be finite and > 0");
  }
  if (!(m_options.pointsPerLossSpread >= 1.0) || !std::isfinite(m_options.pointsPerLossSpread))
    throw PrivacyError("PLD accountant: the grid points per loss spread must be finite and >= 1");
  if (!(m_options.tailMass > 0.0 && m_options.tailMass < 1e-3)) {
    throw PrivacyError("PLD accountant: the tail mass must be in (0, 1e-3)");
  }
}

std::optional<std::string> PldAccountant::unsupportedReason(const DpEvent& event) const {
  return gaussianReductionProblem(event);
}

double PldAccountant::usedInterval() const {
  return composed().interval;
}

const PldAccountant::Composed& PldAccountant::composed() const {
  if (m_composed) return *m_composed;
  auto result = std::make_shared<Composed>();
  const GaussianAtoms atoms = gaussianAtoms(ledger());
  result->interval = m_options.valueDiscretisationInterval;
  if (atoms.nonPrivate > 0) {
    result->nonPrivate = true;
  } else if (!atoms.gaussians.empty()) {
    // Coarsen the interval until each step's grid and the composed window fit the limits.
    double interval = stepInterval(atoms, m_options);
    // q = 1 makes both directions identical (the Gaussian's PLD is symmetric).
    const bool symmetric =
        std::all_of(atoms.gaussians.begin(), atoms.gaussians.end(),
                    [](const auto& entry) { return entry.first.sampleRate == 1.0; });
    for (int attempt = 0;; ++attempt) {
      // Members, not a structured binding: clang 14 cannot capture bindings in lambdas.
      const std::pair<StepPlds, StepPlds> steps = stepPlds(atoms, !symmetric, interval, m_options);
      const StepPlds &removeSteps = steps.first, &addSteps = steps.second;
      const std::vector<PldFactor> removeFactors = factorsOf(removeSteps, atoms);
      const std::vector<PldFactor> addFactors = factorsOf(addSteps, atoms);
      PldWindow removeWindow;
      PldWindow addWindow;
      forEachChunk(2, 1, [&](std::size_t side, std::size_t, std::size_t) {
        if (side == 0)
          removeWindow = composedWindow(removeFactors, m_options.tailMass);
        else if (!symmetric)
          addWindow = composedWindow(addFactors, m_options.tailMass);
      });
      if (symmetric) addWindow = removeWindow;
      const std::size_t window = std::max(removeWindow.size(), addWindow.size());
      if (window > m_options.maxComposedPoints) {
        if (attempt >= 8) {
          throw PrivacyError("PLD accountant: the composed privacy loss needs " +
                             std::to_string(window) + " grid points even at interval " +
                             shortNumber(interval));
        }
        // The window shrinks about in proportion: doubled (the ladder) until it fits.
        const double measured = interval;
        while (static_cast<double>(window) * measured / interval >
               0.95 * static_cast<double>(m_options.maxComposedPoints))
          interval *= 2.0;
        continue;
      }
      // The two directions are independent: composed side by side, each the same double as alone.
      forEachChunk(2, 1, [&](std::size_t side, std::size_t, std::size_t) {
        if (side == 0)
          result->remove = PldProfile(
              composeSteps(removeSteps, atoms, PldDirection::Remove, removeWindow, m_options));
        else if (!symmetric)
          result->add =
              PldProfile(composeSteps(addSteps, atoms, PldDirection::Add, addWindow, m_options));
      });
      if (symmetric) result->add = result->remove;
      result->interval = interval;
      break;
    }
  }
  m_composed = std::move(result);
  return *m_composed;
}

double PldAccountant::epsilon(double delta) const {
  requireDeltaArgument(delta);
  const Composed& c = composed();
  if (c.nonPrivate) return std::numeric_limits<double>::infinity();
  if (ledger().empty()) return 0.0;
  // Each direction's δ(ε) decreases in ε; the guarantee needs both below δ.
  return std::max(c.remove.epsilon(delta), c.add.epsilon(delta));
}

double PldAccountant::delta(double epsilon) const {
  requireEpsilonArgument(epsilon);
  const Composed& c = composed();
  if (c.nonPrivate) return 1.0;
  if (ledger().empty()) return 0.0;
  return std::max(c.remove.delta(epsilon), c.add.delta(epsilon));
}

}  // namespace epsilon::privacy

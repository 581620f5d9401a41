#include "core/privacy/pld_accountant.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/common/text.h"

namespace epsilon::privacy {

namespace {

// One step's pessimistic PLD with its bounding masses for the Chernoff window.
struct StepPld {
  DiscretePld pld;
  PldMgfBlocks mgf;
};

// Every distinct step (q, σ, direction, interval) is discretised once per process: a run's
// evaluations, its preview and the calibration's trials share most of their steps (a noise
// schedule's steps recur in every prefix of the run), and the result is a pure function of
// the key. Entries are dropped oldest first beyond kMaxBytes.
class StepPldMemo {
 public:
  using Key = std::tuple<double, double, int, double>;

  std::shared_ptr<const StepPld> get(double q, double sigma, PldDirection direction,
                                     double interval) {
    const Key key{q, sigma, static_cast<int>(direction), interval};
    {
      std::lock_guard lock(m_mutex);
      const auto found = m_entries.find(key);
      if (found != m_entries.end()) return found->second;
    }
    auto step = std::make_shared<StepPld>();
    step->pld = sampledGaussianPld(q, sigma, direction, interval);
    step->mgf = mgfBlocks(step->pld);
    const std::size_t bytes = sizeof(double) * (step->pld.probabilities.size() +
                                                step->mgf.loss.size() + step->mgf.logMass.size());
    std::lock_guard lock(m_mutex);
    const auto [entry, inserted] = m_entries.emplace(key, std::move(step));
    if (!inserted) return entry->second;  // another thread made the same step meanwhile
    m_order.push_back({key, bytes});
    m_bytes += bytes;
    while (m_bytes > kMaxBytes && m_order.size() > 1) {
      m_bytes -= m_order.front().second;
      m_entries.erase(m_order.front().first);
      m_order.pop_front();
    }
    return entry->second;
  }

 private:
  static constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
  std::mutex m_mutex;
  std::map<Key, std::shared_ptr<const StepPld>> m_entries;
  std::deque<std::pair<Key, std::size_t>> m_order;
  std::size_t m_bytes = 0;
};

StepPldMemo& stepPldMemo() {
  static StepPldMemo memo;
  return memo;
}

// The single-step PLDs of every atom in each direction (Add only when asked), at one
// interval. Distinct steps are independent pure functions, so they are made in parallel;
// the order stays the atoms'.
using StepPlds = std::vector<std::shared_ptr<const StepPld>>;
std::pair<StepPlds, StepPlds> stepPlds(const GaussianAtoms& atoms, bool withAdd, double interval) {
  const std::size_t count = atoms.gaussians.size();
  StepPlds remove(count);
  StepPlds add(withAdd ? count : 0);
  // forEachChunk (core/common/parallel.h) states the fork and join to TSan.
  forEachChunk(count + add.size(), 1, [&](std::size_t task, std::size_t, std::size_t) {
    const SampledGaussian& atom = atoms.gaussians[task % count].first;
    const PldDirection direction = task < count ? PldDirection::Remove : PldDirection::Add;
    (task < count ? remove[task] : add[task - count]) =
        stepPldMemo().get(atom.sampleRate, atom.noiseMultiplier, direction, interval);
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

// The option's interval, coarsened until every step's grid fits maxStepPoints.
double stepInterval(const GaussianAtoms& atoms, const PldAccountantOptions& options) {
  double interval = options.valueDiscretisationInterval;
  for (const auto& [atom, count] : atoms.gaussians) {
    for (PldDirection direction : {PldDirection::Remove, PldDirection::Add}) {
      const auto [low, high] =
          sampledGaussianLossIndexRange(atom.sampleRate, atom.noiseMultiplier, direction, interval);
      const double points = static_cast<double>(high - low + 1);
      const double limit = static_cast<double>(options.maxStepPoints);
      if (points > limit) interval *= std::ceil(points / limit * 1.01);
    }
  }
  return interval;
}

}  // namespace

PldAccountant::PldAccountant(PldAccountantOptions options) : m_options(options) {
  if (!(m_options.valueDiscretisationInterval > 0.0) ||
      !std::isfinite(m_options.valueDiscretisationInterval)) {
    throw PrivacyError("PLD accountant: the discretisation interval must be finite and > 0");
  }
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
      const auto [removeSteps, addSteps] = stepPlds(atoms, !symmetric, interval);
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
        interval *= std::ceil(static_cast<double>(window) /
                              static_cast<double>(m_options.maxComposedPoints) * 1.05);
        continue;
      }
      // The two directions are independent: composed side by side, each the same double as alone.
      forEachChunk(2, 1, [&](std::size_t side, std::size_t, std::size_t) {
        if (side == 0)
          result->remove = PldProfile(composePlds(removeFactors, removeWindow, m_options.tailMass));
        else if (!symmetric)
          result->add = PldProfile(composePlds(addFactors, addWindow, m_options.tailMass));
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

#include "core/privacy/rdp_accountant.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include "core/common/errors.h"
#include "core/privacy/rdp_tuning.h"

namespace epsilon::privacy {

namespace {

// What is known of the RDP curve at the default orders of every (q, σ) asked for in this
// process: its bounds (rdpPoissonGaussianBounds) and the values computed so far, each a pure
// function's result (rdpPoissonGaussian), so sharing them changes no number. Bounded: the
// table is emptied when it reaches kMaxCurves (a curve is ~3.5 KB).
class SharedCurves {
 public:
  using Known = std::pair<RdpCurveBounds, std::vector<double>>;  // values NaN where unknown
  Known get(double q, double sigma, const std::vector<double>& orders) {
    const auto key = std::make_pair(q, sigma);
    {
      std::lock_guard lock(m_mutex);
      if (const auto found = m_curves.find(key); found != m_curves.end()) return found->second;
    }
    Known known{rdpPoissonGaussianBounds(q, sigma, orders), {}};
    for (std::size_t k = 0; k < orders.size(); ++k)
      known.second.push_back(known.first.exact[k] ? known.first.lower[k]
                                                  : std::numeric_limits<double>::quiet_NaN());
    std::lock_guard lock(m_mutex);
    if (m_curves.size() >= kMaxCurves) m_curves.clear();
    return m_curves.emplace(key, std::move(known)).first->second;
  }
  void publish(double q, double sigma, std::size_t k, double value) {
    std::lock_guard lock(m_mutex);
    if (const auto found = m_curves.find(std::make_pair(q, sigma)); found != m_curves.end())
      found->second.second[k] = value;
  }

 private:
  static constexpr std::size_t kMaxCurves = 1 << 14;
  std::mutex m_mutex;
  std::map<std::pair<double, double>, Known> m_curves;
};

bool hasSelection(const DpEvent& event) {
  if (event.as<RepeatAndSelectEvent>()) return true;
  if (const auto* s = event.as<SelfComposedEvent>()) return hasSelection(*s->inner);
  if (const auto* c = event.as<ComposedEvent>())
    return std::any_of(c->events.begin(), c->events.end(), hasSelection);
  return false;
}

SharedCurves& sharedCurves() {
  static SharedCurves curves;
  return curves;
}

}  // namespace

RdpAccountant::RdpAccountant(RdpAccountantOptions options) : m_options(std::move(options)) {
  if (m_options.orders.empty()) throw PrivacyError("RDP accountant: the list of orders is empty");
  for (double order : m_options.orders) {
    if (!(order > 1.0) || !std::isfinite(order)) {
      throw PrivacyError("RDP accountant: every order must be finite and > 1, got " +
                         std::to_string(order));
    }
  }
  m_defaultOrders = m_options.orders == defaultRdpOrders();
}

std::optional<std::string> RdpAccountant::unsupportedReason(const DpEvent& event) const {
  if (const auto* r = event.as<RepeatAndSelectEvent>()) return unsupportedReason(*r->inner);
  if (const auto* s = event.as<SelfComposedEvent>()) return unsupportedReason(*s->inner);
  if (const auto* c = event.as<ComposedEvent>()) {
    for (const DpEvent& inner : c->events)
      if (auto problem = unsupportedReason(inner)) return problem;
    return std::nullopt;
  }
  return gaussianReductionProblem(event);
}

void RdpAccountant::collect(const DpEvent& event, long long count, GaussianAtoms& atoms,
                            std::vector<double>& selected) const {
  if (count == 0) return;
  if (const auto* r = event.as<RepeatAndSelectEvent>()) {
    RdpAccountant inner(m_options);
    inner.compose(*r->inner);
    const std::vector<double> curve = rdpRepeatAndSelect(m_options.orders, inner.rdpCurve(),
                                                         r->distribution, m_options.conversion);
    for (std::size_t k = 0; k < selected.size(); ++k)
      selected[k] += static_cast<double>(count) * curve[k];
  } else if (const auto* s = event.as<SelfComposedEvent>()) {
    collect(*s->inner, count * s->count, atoms, selected);
  } else if (const auto* c = event.as<ComposedEvent>()) {
    for (const DpEvent& inner : c->events) collect(inner, count, atoms, selected);
  } else {
    addGaussianAtoms(event, count, atoms);
  }
}

RdpAccountant::AtomCurve& RdpAccountant::curveOf(const SampledGaussian& atom) const {
  const auto key = std::make_pair(atom.sampleRate, atom.noiseMultiplier);
  auto found = m_curveCache.find(key);
  if (found != m_curveCache.end()) return found->second;
  AtomCurve curve;
  if (m_defaultOrders) {
    auto known = sharedCurves().get(atom.sampleRate, atom.noiseMultiplier, m_options.orders);
    curve = {std::move(known.first), std::move(known.second)};
  } else {
    curve.bounds =
        rdpPoissonGaussianBounds(atom.sampleRate, atom.noiseMultiplier, m_options.orders);
    for (std::size_t k = 0; k < m_options.orders.size(); ++k)
      curve.values.push_back(curve.bounds.exact[k] ? curve.bounds.lower[k]
                                                   : std::numeric_limits<double>::quiet_NaN());
  }
  return m_curveCache.emplace(key, std::move(curve)).first->second;
}

double RdpAccountant::valueAt(const SampledGaussian& atom, AtomCurve& curve, std::size_t k) const {
  double& value = curve.values[k];
  if (std::isnan(value)) {
    value = rdpPoissonGaussian(atom.sampleRate, atom.noiseMultiplier, m_options.orders[k]);
    if (m_defaultOrders) sharedCurves().publish(atom.sampleRate, atom.noiseMultiplier, k, value);
  }
  return value;
}

const std::vector<double>& RdpAccountant::rdpCurve() const {
  if (!m_total) {
    std::vector<double> total(m_options.orders.size(), 0.0);
    GaussianAtoms atoms;
    for (const auto& entry : ledger().entries()) collect(entry.event, entry.count, atoms, total);
    if (atoms.nonPrivate > 0) {
      total.assign(total.size(), std::numeric_limits<double>::infinity());
    } else {
      // RDP composes additively at each order (Mironov 2017, Prop. 1).
      for (const auto& [atom, count] : atoms.gaussians) {
        AtomCurve& curve = curveOf(atom);
        for (std::size_t k = 0; k < total.size(); ++k) {
          total[k] += static_cast<double>(count) * valueAt(atom, curve, k);
        }
      }
    }
    m_total = std::move(total);
  }
  return *m_total;
}

std::optional<GaussianAtoms> RdpAccountant::plainAtoms() const {
  GaussianAtoms atoms;
  std::vector<double> unused;
  for (const auto& entry : ledger().entries()) {
    if (hasSelection(entry.event)) return std::nullopt;
    collect(entry.event, entry.count, atoms, unused);
  }
  if (atoms.nonPrivate > 0) return std::nullopt;
  return atoms;
}

const RdpCurveBounds& RdpAccountant::rdpBounds() const {
  if (m_bounds) return *m_bounds;
  m_atoms = plainAtoms();
  const std::size_t n = m_options.orders.size();
  if (!m_atoms) {
    const std::vector<double>& curve = rdpCurve();
    m_bounds = RdpCurveBounds{curve, curve, std::vector<bool>(n, true)};
    return *m_bounds;
  }
  // Summed as rdpCurve sums, so that where every atom is known the bound is its value.
  RdpCurveBounds total{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0),
                       std::vector<bool>(n, true)};
  for (const auto& [atom, count] : m_atoms->gaussians) {
    const AtomCurve& curve = curveOf(atom);
    const auto times = static_cast<double>(count);
    for (std::size_t k = 0; k < n; ++k) {
      const bool known = !std::isnan(curve.values[k]);
      total.lower[k] += times * (known ? curve.values[k] : curve.bounds.lower[k]);
      total.upper[k] += times * (known ? curve.values[k] : curve.bounds.upper[k]);
      total.exact[k] = total.exact[k] && known;
    }
  }
  m_bounds = std::move(total);
  return *m_bounds;
}

double RdpAccountant::rdpAt(std::size_t k) const {
  if (m_total) return (*m_total)[k];
  const RdpCurveBounds& bounds = rdpBounds();
  if (bounds.exact[k]) return bounds.lower[k];
  double total = 0.0;
  for (const auto& [atom, count] : m_atoms->gaussians)
    total += static_cast<double>(count) * valueAt(atom, curveOf(atom), k);
  m_bounds->lower[k] = m_bounds->upper[k] = total;
  m_bounds->exact[k] = true;
  return total;
}

RdpEpsilon RdpAccountant::epsilonAndOrder(double delta) const {
  requireDeltaArgument(delta);
  if (m_total) return epsilonFromRdp(m_options.orders, *m_total, delta, m_options.conversion);
  // Only the orders that may attain the smallest ε are computed: the same ε and order.
  const std::vector<double> lower = rdpBounds().lower;
  return epsilonFromRdpBounded(
      m_options.orders, lower, [this](std::size_t k) { return rdpAt(k); }, delta,
      m_options.conversion);
}

EpsilonBound RdpAccountant::epsilonBound(double delta) const {
  const RdpEpsilon result = epsilonAndOrder(delta);
  return {result.epsilon, result.order};
}

RdpDelta RdpAccountant::deltaAndOrder(double epsilon) const {
  requireEpsilonArgument(epsilon);
  return deltaFromRdp(m_options.orders, rdpCurve(), epsilon, m_options.conversion);
}

double RdpAccountant::epsilon(double delta) const {
  return epsilonAndOrder(delta).epsilon;
}

double RdpAccountant::delta(double epsilon) const {
  return deltaAndOrder(epsilon).delta;
}

}  // namespace epsilon::privacy

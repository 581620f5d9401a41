#include "core/privacy/rdp_accountant.h"

#include <cmath>
#include <limits>
#include <mutex>

#include "core/common/errors.h"
#include "core/privacy/rdp_tuning.h"

namespace epsilon::privacy {

namespace {

// The RDP curves at the default orders of every (q, σ) asked for in this process: a pure
// function's results (rdpPoissonGaussian), so sharing them changes no number. Bounded: the
// table is emptied when it reaches kMaxCurves (a curve is ~60 doubles).
class SharedCurves {
 public:
  std::vector<double> get(double q, double sigma, const std::vector<double>& orders) {
    const auto key = std::make_pair(q, sigma);
    {
      std::lock_guard lock(m_mutex);
      if (const auto found = m_curves.find(key); found != m_curves.end()) return found->second;
    }
    std::vector<double> curve = rdpPoissonGaussian(q, sigma, orders);
    std::lock_guard lock(m_mutex);
    if (m_curves.size() >= kMaxCurves) m_curves.clear();
    m_curves.emplace(key, curve);
    return curve;
  }

 private:
  static constexpr std::size_t kMaxCurves = 1 << 16;
  std::mutex m_mutex;
  std::map<std::pair<double, double>, std::vector<double>> m_curves;
};

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

const std::vector<double>& RdpAccountant::curveOf(const SampledGaussian& atom) const {
  const auto key = std::make_pair(atom.sampleRate, atom.noiseMultiplier);
  auto found = m_curveCache.find(key);
  if (found == m_curveCache.end()) {
    found =
        m_curveCache
            .emplace(
                key,
                m_defaultOrders
                    ? sharedCurves().get(atom.sampleRate, atom.noiseMultiplier, m_options.orders)
                    : rdpPoissonGaussian(atom.sampleRate, atom.noiseMultiplier, m_options.orders))
            .first;
  }
  return found->second;
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
        const std::vector<double>& curve = curveOf(atom);
        for (std::size_t k = 0; k < total.size(); ++k) {
          total[k] += static_cast<double>(count) * curve[k];
        }
      }
    }
    m_total = std::move(total);
  }
  return *m_total;
}

RdpEpsilon RdpAccountant::epsilonAndOrder(double delta) const {
  requireDeltaArgument(delta);
  return epsilonFromRdp(m_options.orders, rdpCurve(), delta, m_options.conversion);
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

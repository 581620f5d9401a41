#include "core/privacy/rdp_accountant.h"

#include <cmath>
#include <limits>

#include "core/common/errors.h"

namespace epsilon::privacy {

RdpAccountant::RdpAccountant(RdpAccountantOptions options) : m_options(std::move(options)) {
  if (m_options.orders.empty()) throw PrivacyError("RDP accountant: the list of orders is empty");
  for (double order : m_options.orders) {
    if (!(order > 1.0) || !std::isfinite(order)) {
      throw PrivacyError("RDP accountant: every order must be finite and > 1, got " +
                         std::to_string(order));
    }
  }
}

std::optional<std::string> RdpAccountant::unsupportedReason(const DpEvent& event) const {
  return gaussianReductionProblem(event);
}

const std::vector<double>& RdpAccountant::curveOf(const SampledGaussian& atom) const {
  const auto key = std::make_pair(atom.sampleRate, atom.noiseMultiplier);
  auto found = m_curveCache.find(key);
  if (found == m_curveCache.end()) {
    found = m_curveCache
                .emplace(key, rdpPoissonGaussian(atom.sampleRate, atom.noiseMultiplier,
                                                 m_options.orders))
                .first;
  }
  return found->second;
}

const std::vector<double>& RdpAccountant::rdpCurve() const {
  if (!m_total) {
    std::vector<double> total(m_options.orders.size(), 0.0);
    const GaussianAtoms atoms = gaussianAtoms(ledger());
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

// The RDP accountant (Mironov 2017; Abadi et al. 2016's moments accountant in RDP form):
// sums the RDP curves of the composed events over a fixed list of orders and converts the
// total to (ε, δ), reporting the order that attains it. A repeat-and-select event (the best of
// a random number of runs) gets its curve from its inner event's on the same orders
// (rdp_tuning.h, Papernot & Steinke 2022).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/privacy/accountant.h"
#include "core/privacy/rdp.h"

namespace epsilon::privacy {

struct RdpAccountantOptions {
  std::vector<double> orders = defaultRdpOrders();
  RdpConversion conversion = RdpConversion::Improved;
};

class RdpAccountant : public Accountant {
 public:
  explicit RdpAccountant(RdpAccountantOptions options = {});

  std::string name() const override { return "rdp"; }
  double epsilon(double delta) const override;
  double delta(double epsilon) const override;

  // ε with the order α that attains it.
  RdpEpsilon epsilonAndOrder(double delta) const;
  EpsilonBound epsilonBound(double delta) const override;
  RdpDelta deltaAndOrder(double epsilon) const;

  // The composed RDP curve at orders(); +∞ everywhere after a non-private release.
  const std::vector<double>& rdpCurve() const;
  // The composed curve's bounds (rdpPoissonGaussianBounds, summed over the events) without
  // computing any fractional order, and its value at orders()[k], rdpCurve()[k] bit for bit;
  // ε and dominatingRun ask the value only where the bounds do not decide.
  const RdpCurveBounds& rdpBounds() const;
  double rdpAt(std::size_t k) const;
  const std::vector<double>& orders() const { return m_options.orders; }
  RdpConversion conversion() const { return m_options.conversion; }

 protected:
  std::optional<std::string> unsupportedReason(const DpEvent& event) const override;
  void ledgerChanged() override {
    m_total.reset();
    m_bounds.reset();
  }

 private:
  // One (q, σ)'s curve as far as it is known: its bounds, and the values computed so far.
  struct AtomCurve {
    RdpCurveBounds bounds;
    std::vector<double> values;  // NaN where not computed yet
  };
  AtomCurve& curveOf(const SampledGaussian& atom) const;
  double valueAt(const SampledGaussian& atom, AtomCurve& curve, std::size_t k) const;
  // The ledger's sampled Gaussians, or nullopt when it holds a non-private release or a
  // repeat-and-select event (their curves are only known whole).
  std::optional<GaussianAtoms> plainAtoms() const;
  // Splits `event` (count times) into sampled Gaussians and repeat-and-select curves, which
  // are added to `selected`.
  void collect(const DpEvent& event, long long count, GaussianAtoms& atoms,
               std::vector<double>& selected) const;

  RdpAccountantOptions m_options;
  // RDP curve of each distinct (q, σ) seen, as far as it is known, so a ledger that grows by
  // more steps of known events costs one multiply-add per order. With the default orders the
  // curves come from one table shared by every accountant (rdp_accountant.cpp), so the many
  // fresh accountants of privacyStatement compute each order of a curve once per process.
  mutable std::map<std::pair<double, double>, AtomCurve> m_curveCache;
  bool m_defaultOrders = false;
  mutable std::optional<std::vector<double>> m_total;
  mutable std::optional<RdpCurveBounds> m_bounds;
  mutable std::optional<GaussianAtoms> m_atoms;  // plainAtoms() of the bounds
};

}  // namespace epsilon::privacy

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
  const std::vector<double>& orders() const { return m_options.orders; }
  RdpConversion conversion() const { return m_options.conversion; }

 protected:
  std::optional<std::string> unsupportedReason(const DpEvent& event) const override;
  void ledgerChanged() override { m_total.reset(); }

 private:
  const std::vector<double>& curveOf(const SampledGaussian& atom) const;
  // Splits `event` (count times) into sampled Gaussians and repeat-and-select curves, which
  // are added to `selected`.
  void collect(const DpEvent& event, long long count, GaussianAtoms& atoms,
               std::vector<double>& selected) const;

  RdpAccountantOptions m_options;
  // RDP curve of each distinct (q, σ) seen, so a ledger that grows by more steps of known
  // events costs one multiply-add per order. With the default orders the curves come from
  // one table shared by every accountant (rdp_accountant.cpp), so the many fresh accountants
  // of privacyStatement compute each curve once per process.
  mutable std::map<std::pair<double, double>, std::vector<double>> m_curveCache;
  bool m_defaultOrders = false;
  mutable std::optional<std::vector<double>> m_total;
};

}  // namespace epsilon::privacy

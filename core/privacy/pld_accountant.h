// The tight accountant: privacy loss distributions (Koskela et al. 2020; Google
// dp_accounting's PLDAccountant). Each distinct step is discretised pessimistically
// (connect-the-dots), all steps are composed by FFT, and ε(δ) / δ(ε) are read off the
// composed distribution, so the reported ε is an upper bound, usually well below RDP's.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/privacy/accountant.h"
#include "core/privacy/pld.h"

namespace epsilon::privacy {

struct PldAccountantOptions {
  // Finest grid spacing of the privacy loss. 1e-4 keeps ε within ~0.02% of its limit for
  // the published DP-SGD settings (Abadi: 0.9470 at 1e-4 vs 0.9469 at 2e-5).
  double valueDiscretisationInterval = 1e-4;
  // The spacing used is valueDiscretisationInterval·2^k, the coarsest that keeps at least
  // this many grid points per spread of the least spread step's loss (pld_accountant.cpp,
  // lossSpread): a step whose loss spreads widely (small σ, large q) needs no finer grid,
  // and a run with dozens of distinct steps is discretised and composed in far fewer points.
  double pointsPerLossSpread = 32.0;
  // Mass allowed outside the composed window (added to δ, see composePlds).
  double tailMass = 1e-15;
  // Largest single-step grid and composed window; beyond them the interval is coarsened
  // (still pessimistic, only less tight), e.g. for tiny σ or millions of steps.
  std::size_t maxStepPoints = std::size_t{1} << 20;
  std::size_t maxComposedPoints = std::size_t{1} << 22;
};

// The pessimistic PLD of one step as the accountant composes it on a run's grid `interval`:
// discretised on a grid of its own, interval·2^i, the coarsest with pointsPerLossSpread points
// per spread of its loss, and placed on the run's grid (onFinerGrid).
DiscretePld accountedStepPld(const SampledGaussian& atom, PldDirection direction, double interval,
                             double pointsPerLossSpread);

class PldAccountant : public Accountant {
 public:
  explicit PldAccountant(PldAccountantOptions options = {});

  std::string name() const override { return "pld"; }
  double epsilon(double delta) const override;
  double delta(double epsilon) const override;

  // The interval actually used by the last computation (the option, or coarser).
  double usedInterval() const;

 protected:
  std::optional<std::string> unsupportedReason(const DpEvent& event) const override;
  void ledgerChanged() override { m_composed.reset(); }

 private:
  struct Composed {
    PldProfile remove;
    PldProfile add;
    bool nonPrivate = false;
    double interval = 0.0;
  };
  const Composed& composed() const;

  PldAccountantOptions m_options;
  mutable std::shared_ptr<const Composed> m_composed;
};

}  // namespace epsilon::privacy

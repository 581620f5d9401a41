// The privacy a run has spent so far, with everything needed to read it honestly
// (DESIGN.md, "Privacy honesty"): its δ, accountant and sampling assumption, whether it is a
// guarantee, and for the tanh filter the paper's nominal figure beside the honest one.
#pragma once

#include <limits>
#include <string>

namespace epsilon::train {

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

struct PrivacySpent {
  double epsilon = 0.0;      // the honest bound (+∞ when there is none)
  bool isGuarantee = false;  // a proven bound: finite, Poisson sampling
  double delta = 0.0;
  std::string accountant;  // "rdp" or "pld"
  std::string sampling;    // "Poisson sampling" or "assumes Poisson sampling (…)"
  // The tanh filter's ε computed as if its sensitivity were c (seed 001's accounting):
  // "nominal (not a guarantee)". NaN for every other privatizer.
  double nominalEpsilon = kNotMeasured;
  std::string nominalLabel;     // "nominal — not a DP guarantee" when nominalEpsilon is set
  std::string status;           // "DP guarantee", "no privacy", or why it is not proven
  double order = kNotMeasured;  // the RDP order that attains ε (RDP only)
  bool noiseRounded = false;    // σ_t rounded down to a 1% grid for PLD (pessimistic)
  std::string pcaLabel;         // "PCA: σ 7 on 10% of the data (…)"; empty without PCA
};

}  // namespace epsilon::train

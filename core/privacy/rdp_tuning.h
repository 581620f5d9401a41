// Rényi DP of private selection (Papernot & Steinke 2022, "Hyperparameter Tuning with Renyi
// Differential Privacy", ICLR): a mechanism Q — here a whole training run — is run K times
// with K random and only the best output is released. Pure formulas on an order grid; the RDP
// accountant applies them to a RepeatAndSelectEvent (dp_event.h).
#pragma once

#include <span>
#include <vector>

#include "core/privacy/dp_event.h"
#include "core/privacy/rdp.h"

namespace epsilon::privacy {

// E[K] of the truncated negative binomial law D_{η,γ} (Papernot & Steinke 2022, §3, eq. (4)
// and the line after Theorem 2): η(1 − γ)/(γ(1 − γ^η)) for η > 0, and the logarithmic law's
// (1 − γ)/(γ log(1/γ)) for η = 0. Shape η >= 0, γ ∈ (0, 1).
double truncatedNegativeBinomialMean(double shape, double gamma);

// The γ ∈ (0, 1] of D_{η,γ} whose mean is μ >= 1: 1/μ for the geometric law (η = 1), else
// found by bisection (the mean falls as γ grows); γ = 1 for μ = 1 (K = 1).
double truncatedNegativeBinomialGamma(double shape, double mean);

// The RDP curve, at each order λ of `orders`, of repeat-and-select of an inner mechanism whose
// RDP curve at the same orders is `innerRdp` (+∞ where it has no bound):
// - truncated negative binomial (finite η; η = 0 logarithmic, η = 1 geometric), Theorem 2:
//     ε'(λ) = ε(λ) + (1 + η)(1 − 1/λ̂) ε(λ̂) + (1 + η) log(1/γ)/λ̂ + log(E[K])/(λ − 1),
//   minimised over λ̂ on the same grid; μ = 1 is K = 1: the inner curve itself;
// - Poisson (η = +∞), Theorem 6: with ε̂ = log(1 + 1/(λ − 1)) and δ̂ the inner mechanism's δ at
//   ε̂ (deltaFromRdp with `conversion`, so Q is (ε̂, δ̂)-DP and e^ε̂ <= 1 + 1/(λ − 1) holds),
//     ε'(λ) = ε(λ) + μ δ̂ + log(μ)/(λ − 1).
// Throws PrivacyError for a bad distribution (validateTuning) or mismatched curves.
std::vector<double> rdpRepeatAndSelect(std::span<const double> orders,
                                       std::span<const double> innerRdp,
                                       const TuningDistribution& distribution,
                                       RdpConversion conversion = RdpConversion::Improved);

}  // namespace epsilon::privacy

// Noise calibration: the smallest noise multiplier σ whose ε stays within a target budget,
// for any accountant, by bracketing then bisection (as Opacus's get_noise_multiplier and
// dp_accounting's calibrate_dp_mechanism do).
#pragma once

#include <functional>
#include <memory>

#include "core/privacy/accountant.h"

namespace epsilon::privacy {

enum class AccountantKind { Rdp, Pld };

// "rdp" / "pld"; parseAccountantKind throws PrivacyError naming the text otherwise.
const char* accountantKindName(AccountantKind kind);
AccountantKind parseAccountantKind(const std::string& text);

// A fresh accountant of the given kind with default options.
std::unique_ptr<Accountant> makeAccountant(AccountantKind kind);

struct CalibrationOptions {
  double minNoiseMultiplier = 1e-2;
  double maxNoiseMultiplier = 1e3;
  double relativeTolerance = 1e-4;
  // The bracket search starts here and moves by this factor.
  double initialNoiseMultiplier = 1.0;
  double bracketFactor = 2.0;
};

struct Calibration {
  double noiseMultiplier = 0.0;
  double epsilon = 0.0;  // the ε that noiseMultiplier achieves (≤ the target)
  int evaluations = 0;
};

// Smallest σ in [min, max] with epsilonOf(σ) ≤ targetEpsilon, to relativeTolerance; epsilonOf
// must be non-increasing in σ. Returns min if even it meets the target. Throws PrivacyError
// "target ε … cannot be reached …" if the target is not > 0 or max does not meet it.
Calibration calibrateNoiseMultiplier(const std::function<double(double)>& epsilonOf,
                                     double targetEpsilon, CalibrationOptions options = {});

// Calibration of DP-SGD: `steps` Poisson-sampled Gaussian steps at sample rate q, with the
// given accountant, for (targetEpsilon, delta). For PLD the search starts from the RDP answer,
// which already meets the target (PLD's ε is never above RDP's), with a narrow bracket.
Calibration calibrateDpSgd(AccountantKind kind, double sampleRate, long long steps, double delta,
                           double targetEpsilon, CalibrationOptions options = {});

// The same with a one-time release before the steps held fixed (the DP-PCA projection of
// Abadi et al. 2016, §5): only the DP-SGD σ is calibrated, the fixed event's noise is not
// touched. Throws PrivacyError "target ε … cannot be reached: <event> alone costs ε …" when
// the fixed part already spends the budget.
Calibration calibrateDpSgd(AccountantKind kind, double sampleRate, long long steps, double delta,
                           double targetEpsilon, const DpEvent& fixedEvent,
                           CalibrationOptions options = {});

}  // namespace epsilon::privacy

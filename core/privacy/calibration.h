// Noise calibration: the smallest noise multiplier σ whose ε stays within a target budget,
// for any accountant, by bracketing then bisection (as Opacus's get_noise_multiplier and
// dp_accounting's calibrate_dp_mechanism do).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "core/privacy/accountant.h"
#include "core/privacy/rdp.h"

namespace epsilon::privacy {

enum class AccountantKind { Rdp, Pld };

// "rdp" / "pld"; parseAccountantKind throws PrivacyError naming the text otherwise.
const char* accountantKindName(AccountantKind kind);
AccountantKind parseAccountantKind(const std::string& text);

// A fresh accountant of the given kind with default options (RDP: the given conversion).
std::unique_ptr<Accountant> makeAccountant(AccountantKind kind,
                                           RdpConversion conversion = RdpConversion::Improved);

struct CalibrationOptions {
  double minNoiseMultiplier = 1e-2;
  double maxNoiseMultiplier = 1e3;
  double relativeTolerance = 1e-4;
  // The bracket search starts here and moves by this factor.
  double initialNoiseMultiplier = 1.0;
  double bracketFactor = 2.0;
  // When set, σ is given with this many decimals (as a field that shows and stores σ keeps
  // it), rounded UP onto that grid and checked again: a larger σ never raises ε, so the σ a
  // user ends up with never overshoots the target (1.72009 becomes 1.721, not 1.72).
  std::optional<int> roundUpDecimals;
  // When set, polled before every ε evaluation: once it is true the calibration throws
  // Cancelled (an overtaken calibration frees its core within one evaluation).
  const std::atomic<bool>* cancel = nullptr;
};

struct Calibration {
  double noiseMultiplier = 0.0;
  double epsilon = 0.0;  // the ε that noiseMultiplier achieves (≤ the target)
  int evaluations = 0;
};

// Smallest σ in [min, max] with epsilonOf(σ) ≤ targetEpsilon, to relativeTolerance (then rounded
// up to roundUpDecimals when set, its ε still ≤ the target); epsilonOf must be non-increasing
// in σ. Returns min if even it meets the target. Throws PrivacyError
// "target ε … cannot be reached …" if the target is not > 0 or max does not meet it, and
// Cancelled once options.cancel is set.
Calibration calibrateNoiseMultiplier(const std::function<double(double)>& epsilonOf,
                                     double targetEpsilon, CalibrationOptions options = {});

}  // namespace epsilon::privacy

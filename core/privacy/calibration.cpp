#include "core/privacy/calibration.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/common/errors.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"

namespace epsilon::privacy {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

}  // namespace

const char* accountantKindName(AccountantKind kind) {
  return kind == AccountantKind::Rdp ? "rdp" : "pld";
}

AccountantKind parseAccountantKind(const std::string& text) {
  if (text == "rdp") return AccountantKind::Rdp;
  if (text == "pld") return AccountantKind::Pld;
  throw PrivacyError("accountant: expected 'rdp' or 'pld', got '" + text + "'");
}

std::unique_ptr<Accountant> makeAccountant(AccountantKind kind, RdpConversion conversion) {
  if (kind == AccountantKind::Rdp) {
    RdpAccountantOptions options;
    options.conversion = conversion;
    return std::make_unique<RdpAccountant>(options);
  }
  return std::make_unique<PldAccountant>();
}

namespace {

// Refuses a target that no σ can meet by definition and a search that cannot terminate.
void checkCalibrationRequest(double targetEpsilon, const CalibrationOptions& options) {
  if (!(targetEpsilon > 0.0) || !std::isfinite(targetEpsilon)) {
    throw PrivacyError("target ε " + number(targetEpsilon) +
                       " cannot be reached: it must be finite and > 0");
  }
  if (!(options.minNoiseMultiplier > 0.0 &&
        options.maxNoiseMultiplier > options.minNoiseMultiplier &&
        options.relativeTolerance > 0.0 && options.bracketFactor > 1.0 &&
        options.initialNoiseMultiplier > 0.0)) {
    throw PrivacyError("calibration: invalid search range or tolerance");
  }
}

// The bracketing and bisection of calibrateNoiseMultiplier, before any rounding.
Calibration bisectNoiseMultiplier(const std::function<double(double)>& epsilonOf,
                                  double targetEpsilon, const CalibrationOptions& options) {
  Calibration result;
  const auto evaluate = [&](double sigma) {
    ++result.evaluations;
    return epsilonOf(sigma);
  };
  // Bracket [low, high] with ε(low) > target ≥ ε(high), by factors of bracketFactor.
  double high = std::clamp(options.initialNoiseMultiplier, options.minNoiseMultiplier,
                           options.maxNoiseMultiplier);
  double highEpsilon = evaluate(high);
  double low = high;
  if (highEpsilon > targetEpsilon) {
    do {
      if (high >= options.maxNoiseMultiplier) {
        throw PrivacyError(
            "target ε " + number(targetEpsilon) + " cannot be reached: even noise multiplier " +
            number(options.maxNoiseMultiplier) + " gives ε = " + number(highEpsilon));
      }
      low = high;
      high = std::min(options.bracketFactor * high, options.maxNoiseMultiplier);
      highEpsilon = evaluate(high);
    } while (highEpsilon > targetEpsilon);
  } else {
    for (;;) {
      if (high <= options.minNoiseMultiplier) {
        result.noiseMultiplier = high;
        result.epsilon = highEpsilon;
        return result;
      }
      low = std::max(high / options.bracketFactor, options.minNoiseMultiplier);
      const double lowEpsilon = evaluate(low);
      if (lowEpsilon > targetEpsilon) break;
      high = low;
      highEpsilon = lowEpsilon;
    }
  }
  // Invariant: ε(low) > target ≥ ε(high).
  while (high - low > options.relativeTolerance * high) {
    const double middle = 0.5 * (low + high);
    const double middleEpsilon = evaluate(middle);
    if (middleEpsilon <= targetEpsilon) {
      high = middle;
      highEpsilon = middleEpsilon;
    } else {
      low = middle;
    }
  }
  result.noiseMultiplier = high;
  result.epsilon = highEpsilon;
  return result;
}

}  // namespace

Calibration calibrateNoiseMultiplier(const std::function<double(double)>& epsilonOf,
                                     double targetEpsilon, CalibrationOptions options) {
  checkCalibrationRequest(targetEpsilon, options);
  Calibration result = bisectNoiseMultiplier(epsilonOf, targetEpsilon, options);
  if (!options.roundUpDecimals) return result;
  // σ on the grid 10^−d, at or above the bisection's σ: ε(σ) can only fall. Checked again, and
  // moved up one more step while it is not met (rounding in the accountant, never expected).
  const double scale = std::pow(10.0, *options.roundUpDecimals);
  double units = std::ceil(result.noiseMultiplier * scale - 1e-9);
  for (int attempt = 0; attempt < 100; ++attempt, units += 1.0) {
    const double sigma = units / scale;
    ++result.evaluations;
    const double epsilon = epsilonOf(sigma);
    if (epsilon <= targetEpsilon) {
      result.noiseMultiplier = sigma;
      result.epsilon = epsilon;
      return result;
    }
  }
  throw PrivacyError("target ε " + number(targetEpsilon) + ": no noise multiplier with " +
                     std::to_string(*options.roundUpDecimals) + " decimals above " +
                     number(result.noiseMultiplier) + " meets it");
}

}  // namespace epsilon::privacy

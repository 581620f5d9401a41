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

std::unique_ptr<Accountant> makeAccountant(AccountantKind kind) {
  if (kind == AccountantKind::Rdp) return std::make_unique<RdpAccountant>();
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

}  // namespace

Calibration calibrateNoiseMultiplier(const std::function<double(double)>& epsilonOf,
                                     double targetEpsilon, CalibrationOptions options) {
  checkCalibrationRequest(targetEpsilon, options);
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

Calibration calibrateDpSgd(AccountantKind kind, double sampleRate, long long steps, double delta,
                           double targetEpsilon, CalibrationOptions options) {
  return calibrateDpSgd(kind, sampleRate, steps, delta, targetEpsilon, NoOpEvent{}, options);
}

Calibration calibrateDpSgd(AccountantKind kind, double sampleRate, long long steps, double delta,
                           double targetEpsilon, const DpEvent& fixedEvent,
                           CalibrationOptions options) {
  if (!(sampleRate > 0.0 && sampleRate <= 1.0)) {
    throw PrivacyError("calibration: sample rate must be in (0, 1], got " + number(sampleRate));
  }
  if (steps < 1) {
    throw PrivacyError("calibration: steps must be >= 1, got " + std::to_string(steps));
  }
  requireDeltaArgument(delta);
  const bool hasFixed = fixedEvent.as<NoOpEvent>() == nullptr;
  if (hasFixed) {
    const auto alone = makeAccountant(kind);
    alone->compose(fixedEvent);
    const double fixedEpsilon = alone->epsilon(delta);
    if (!(fixedEpsilon < targetEpsilon)) {
      throw PrivacyError("target ε " + number(targetEpsilon) + " cannot be reached: " +
                         describe(fixedEvent) + " alone costs ε = " + number(fixedEpsilon) +
                         " (held fixed; only the DP-SGD noise is calibrated)");
    }
  }
  if (kind == AccountantKind::Pld) {
    const Calibration rdp = calibrateDpSgd(AccountantKind::Rdp, sampleRate, steps, delta,
                                           targetEpsilon, fixedEvent, options);
    options.initialNoiseMultiplier = rdp.noiseMultiplier;
    options.bracketFactor = 1.25;
  }
  return calibrateNoiseMultiplier(
      [&](double sigma) {
        const auto accountant = makeAccountant(kind);
        if (hasFixed) accountant->compose(fixedEvent);
        accountant->compose(dpSgdStepEvent(sampleRate, sigma), steps);
        return accountant->epsilon(delta);
      },
      targetEpsilon, options);
}

}  // namespace epsilon::privacy

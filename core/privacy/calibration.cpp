#include "core/privacy/calibration.h"

#include <algorithm>
#include <cmath>
#include <functional>
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

// The bracket [low, high] with ε(low) > target ≥ ε(high), narrowed until high − low ≤
// tolerance·high. ε falls about as a power of σ, so the trial is the root of the line through
// both ends in (log σ, log ε/target), with the Illinois rule (Dowell & Jarratt 1971): an end
// kept twice in a row has its value halved, so both ends close in. Two trials that do not
// halve the bracket are followed by a bisection: never much worse than bisection alone.
struct Bracket {
  double low, lowEpsilon, high, highEpsilon;
};
void narrowBracket(Bracket& b, double target, double tolerance,
                   const std::function<double(double)>& evaluate) {
  double lowValue = std::log(b.lowEpsilon / target);    // > 0 (∞ when ε is)
  double highValue = std::log(b.highEpsilon / target);  // ≤ 0 (−∞ when ε = 0)
  int side = 0;                                         // +1: high moved last, −1: low moved last
  double halvedAt = b.high - b.low;
  int slowTrials = 0;
  while (b.high - b.low > tolerance * b.high) {
    double trial = 0.5 * (b.low + b.high);
    if (slowTrials < 2 && std::isfinite(lowValue) && std::isfinite(highValue)) {
      const double t = lowValue / (lowValue - highValue);
      trial = std::exp(std::log(b.low) + t * std::log(b.high / b.low));
      const double margin = 0.25 * tolerance * b.high;
      trial = std::clamp(trial, b.low + margin, b.high - margin);
    } else {
      slowTrials = 0;
    }
    const double trialEpsilon = evaluate(trial);
    const double value = std::log(trialEpsilon / target);
    if (trialEpsilon <= target) {
      b.high = trial, b.highEpsilon = trialEpsilon, highValue = value;
      if (side == 1) lowValue *= 0.5;
      side = 1;
    } else {
      b.low = trial, b.lowEpsilon = trialEpsilon, lowValue = value;
      if (side == -1) highValue *= 0.5;
      side = -1;
    }
    if (b.high - b.low <= 0.5 * halvedAt)
      halvedAt = b.high - b.low, slowTrials = 0;
    else
      ++slowTrials;
  }
}

// The bracketing and narrowing of calibrateNoiseMultiplier, before any rounding.
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
  double lowEpsilon = highEpsilon;
  if (highEpsilon > targetEpsilon) {
    do {
      if (high >= options.maxNoiseMultiplier) {
        throw PrivacyError(
            "target ε " + number(targetEpsilon) + " cannot be reached: even noise multiplier " +
            number(options.maxNoiseMultiplier) + " gives ε = " + number(highEpsilon));
      }
      low = high;
      lowEpsilon = highEpsilon;
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
      lowEpsilon = evaluate(low);
      if (lowEpsilon > targetEpsilon) break;
      high = low;
      highEpsilon = lowEpsilon;
    }
  }
  Bracket bracket{low, lowEpsilon, high, highEpsilon};
  narrowBracket(bracket, targetEpsilon, options.relativeTolerance, evaluate);
  result.noiseMultiplier = bracket.high;
  result.epsilon = bracket.highEpsilon;
  return result;
}

}  // namespace

Calibration calibrateNoiseMultiplier(const std::function<double(double)>& uncheckedEpsilonOf,
                                     double targetEpsilon, CalibrationOptions options) {
  checkCalibrationRequest(targetEpsilon, options);
  const std::function<double(double)> epsilonOf = [&](double sigma) {
    if (options.cancel && options.cancel->load()) throw Cancelled("noise calibration cancelled");
    return uncheckedEpsilonOf(sigma);
  };
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

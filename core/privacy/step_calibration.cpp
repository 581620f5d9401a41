#include "core/privacy/step_calibration.h"

#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/dp_event.h"

namespace epsilon::privacy {

StepCalibration calibrateSteps(AccountantKind kind, double sampleRate, double noiseMultiplier,
                               double delta, double targetEpsilon, long long maxSteps) {
  if (!(sampleRate > 0.0 && sampleRate <= 1.0))
    throw PrivacyError("step calibration: sample rate must be in (0, 1], got " +
                       shortNumber(sampleRate));
  if (!(noiseMultiplier > 0.0))
    throw PrivacyError("step calibration: noise multiplier must be > 0, got " +
                       shortNumber(noiseMultiplier));
  if (!(targetEpsilon > 0.0))
    throw PrivacyError("step calibration: target epsilon must be > 0, got " +
                       shortNumber(targetEpsilon));
  if (maxSteps < 1)
    throw PrivacyError("step calibration: max steps must be >= 1, got " + std::to_string(maxSteps));
  requireDeltaArgument(delta);
  StepCalibration result;
  auto epsilonAfter = [&](long long steps) {
    ++result.evaluations;
    const auto accountant = makeAccountant(kind);
    accountant->compose(dpSgdStepEvent(sampleRate, noiseMultiplier), steps);
    return accountant->epsilon(delta);
  };
  // Doubling finds ok < bad with ε(ok) ≤ target < ε(bad) (or hits maxSteps); bisection
  // keeps that invariant, since composition only ever adds privacy loss.
  long long ok = 0, bad = 1;
  double okEpsilon = 0.0;
  while (true) {
    const double e = epsilonAfter(bad);
    if (e > targetEpsilon) break;
    ok = bad, okEpsilon = e;
    if (bad == maxSteps) return {ok, okEpsilon, result.evaluations};
    bad = std::min(maxSteps, 2 * bad);
  }
  while (bad - ok > 1) {
    const long long mid = ok + (bad - ok) / 2;
    const double e = epsilonAfter(mid);
    if (e <= targetEpsilon)
      ok = mid, okEpsilon = e;
    else
      bad = mid;
  }
  return {ok, okEpsilon, result.evaluations};
}

}  // namespace epsilon::privacy

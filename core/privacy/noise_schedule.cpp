#include "core/privacy/noise_schedule.h"

#include <cmath>
#include <cstdio>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::privacy {

double NoiseSchedule::sigmaAt(long long step) const {
  const auto t = static_cast<double>(step);
  switch (decay) {
    case NoiseDecay::Constant:
      return initial;
    case NoiseDecay::Time:
      return initial / (1.0 + rate * t);
    case NoiseDecay::Step:
      return initial * std::pow(1.0 - rate, t);
    case NoiseDecay::Exp:
      return initial * std::exp(-rate * t);
  }
  return initial;
}

void NoiseSchedule::validate() const {
  if (!(initial >= 0.0 && std::isfinite(initial))) {
    throw ConfigError("privacy.noise_multiplier: expected a finite value >= 0, got " +
                      shortNumber(initial));
  }
  if (decay == NoiseDecay::Constant) return;
  const bool stepPolicy = decay == NoiseDecay::Step;
  if (!(rate >= 0.0 && std::isfinite(rate)) || (stepPolicy && rate >= 1.0)) {
    throw ConfigError(std::string("privacy.noise_decay_rate: expected a value in ") +
                      (stepPolicy ? "[0, 1)" : "[0, inf)") + " for the " + noiseDecayName(decay) +
                      " schedule, got " + shortNumber(rate));
  }
}

std::vector<std::string> noiseDecayNames() {
  return {"constant", "time", "step", "exp"};
}

std::string noiseDecayName(NoiseDecay decay) {
  return noiseDecayNames().at(static_cast<std::size_t>(decay));
}

NoiseDecay parseNoiseDecay(const std::string& text, const std::string& field) {
  const auto names = noiseDecayNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<NoiseDecay>(i);
  }
  throw ConfigError(field + ": expected one of constant, time, step, exp, got '" + text + "'");
}

}  // namespace epsilon::privacy

#include "core/optim/learning_rate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::optim {

double LearningRateSchedule::at(long long step) const {
  const auto t = static_cast<double>(step);
  switch (decay) {
    case LearningRateDecay::Constant:
      return initial;
    case LearningRateDecay::Step:
      return initial * std::pow(decayRate, std::floor(t / decaySteps));
    case LearningRateDecay::Exponential:
      return initial * std::pow(decayRate, t / decaySteps);
    case LearningRateDecay::Linear:
      return initial * (1.0 - (1.0 - decayRate) * std::min(t / decaySteps, 1.0));
  }
  return initial;
}

void LearningRateSchedule::validate() const {
  if (!(initial > 0.0 && std::isfinite(initial))) {
    throw ConfigError("optimizer.learning_rate: expected a finite value > 0, got " +
                      shortNumber(initial));
  }
  if (decay == LearningRateDecay::Constant) return;
  if (!(decayRate > 0.0 && decayRate <= 1.0)) {
    throw ConfigError("optimizer.lr_decay_rate: expected a value in (0, 1], got " +
                      shortNumber(decayRate));
  }
  if (!(decaySteps > 0.0 && std::isfinite(decaySteps))) {
    throw ConfigError("optimizer.lr_decay_steps: expected a finite value > 0, got " +
                      shortNumber(decaySteps));
  }
}

std::vector<std::string> learningRateDecayNames() {
  return {"constant", "step", "exp", "linear"};
}

std::string learningRateDecayName(LearningRateDecay decay) {
  return learningRateDecayNames().at(static_cast<std::size_t>(decay));
}

LearningRateDecay parseLearningRateDecay(const std::string& text, const std::string& field) {
  const auto names = learningRateDecayNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<LearningRateDecay>(i);
  }
  throw ConfigError(field + ": expected one of constant, step, exp, linear, got '" + text + "'");
}

}  // namespace epsilon::optim

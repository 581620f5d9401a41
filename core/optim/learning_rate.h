// The learning rate as a function of the step: constant, step decay (multiply by a rate
// every fixed number of steps) or exponential decay (the same rate applied continuously).
#pragma once

#include <string>
#include <vector>

namespace epsilon::optim {

enum class LearningRateDecay { Constant, Step, Exponential, Linear };

struct LearningRateSchedule {
  double initial = 0.1;  // η₀
  LearningRateDecay decay = LearningRateDecay::Constant;
  double decayRate = 0.5;    // γ in the formulas below
  double decaySteps = 1000;  // period of the decay, in steps

  // Constant: η₀. Step: η₀·γ^⌊t/T⌋. Exponential: η₀·γ^(t/T) (Keras's ExponentialDecay
  // without and with `staircase`). Linear: η₀·(1 − (1 − γ)·min(t/T, 1)), from η₀ down to γ·η₀
  // over T steps, then held (Abadi et al. 2016, §5.1: 0.1 to 0.052 over 10 epochs). t is the
  // 0-based step.
  double at(long long step) const;
  // Throws ConfigError naming "optimizer.learning_rate", "optimizer.lr_decay_rate", ...
  void validate() const;
};

std::string learningRateDecayName(LearningRateDecay decay);
LearningRateDecay parseLearningRateDecay(const std::string& text,
                                         const std::string& field = "optimizer.lr_decay");
std::vector<std::string> learningRateDecayNames();

}  // namespace epsilon::optim

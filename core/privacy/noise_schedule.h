// The noise multiplier σ_t of every step: constant, or one of MindArmour's decaying
// schedules (seed 002, "AdaGaussian" with a Time, Step or Exp decay policy). Each step's σ_t
// is handed to the accountant, so decaying noise shows its real privacy cost.
#pragma once

#include <string>
#include <vector>

namespace epsilon::privacy {

enum class NoiseDecay { Constant, Time, Step, Exp };

struct NoiseSchedule {
  double initial = 1.1;  // σ₀, the noise multiplier of step 0
  NoiseDecay decay = NoiseDecay::Constant;
  double rate = 0.0;  // ρ, the decay rate

  // σ_t for the 0-based step t:
  //   Constant: σ₀;  Time: σ₀ / (1 + ρ·t);  Step: σ₀·(1 − ρ)^t;  Exp: σ₀·e^(−ρ·t)
  // (MindArmour's noise-decay policies, as the seed tutorial configures them).
  double sigmaAt(long long step) const;
  bool isConstant() const { return decay == NoiseDecay::Constant || rate == 0.0 || initial == 0.0; }

  // Throws ConfigError naming "privacy.noise_multiplier" or "privacy.noise_decay_rate"
  // (σ₀ must be finite and >= 0; ρ >= 0, and ρ < 1 for Step).
  void validate() const;
};

// "constant", "time", "step", "exp".
std::string noiseDecayName(NoiseDecay decay);
NoiseDecay parseNoiseDecay(const std::string& text,
                           const std::string& field = "privacy.noise_schedule");
std::vector<std::string> noiseDecayNames();

}  // namespace epsilon::privacy

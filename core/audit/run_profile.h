// The privacy profile δ(ε) of a finished DP-SGD run, from its own accountant, so the
// accountant's trade-off bound (core/privacy/tradeoff.h) can be drawn under an attack's ROC.
#pragma once

#include <span>

#include "core/privacy/tradeoff.h"
#include "core/train/progress.h"

namespace epsilon::audit {

// δ(ε_i) for each ε_i of `epsilons`, accounting the run's `steps` steps as the trainer does
// (the same events: per-step σ_t of the schedule, the privatizer's gradient noise multiplier
// and count release, its honest sensitivity; q = L/N with N the run's training size). A run
// without noise gets δ = 1 everywhere (no bound). Needs the run's model (for the privatizer's
// layer slices); throws PrivacyError otherwise.
privacy::PrivacyProfile runPrivacyProfile(const train::RunResult& run,
                                          std::span<const double> epsilons);

}  // namespace epsilon::audit

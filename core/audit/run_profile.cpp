#include "core/audit/run_profile.h"

#include "core/common/errors.h"
#include "core/privacy/accountant.h"
#include "core/privacy/privacy_report.h"
#include "core/privacy/privatizer.h"

namespace epsilon::audit {

privacy::PrivacyProfile runPrivacyProfile(const train::RunResult& run,
                                          std::span<const double> epsilons) {
  if (!run.model || run.history.empty() || run.trainSize <= 0) {
    throw PrivacyError("audit: the run has no final model or history to account");
  }
  const train::ExperimentConfig& config = run.config;
  const train::PrivacyConfig& p = config.privacy;
  const long long steps = run.history.back().step;
  if (p.privatizer.kind == privacy::PrivatizerKind::None || steps == 0) {
    privacy::PrivacyProfile none;
    for (const double e : epsilons) none.emplace_back(e, steps == 0 ? 0.0 : 1.0);
    return none;
  }
  std::vector<privacy::ParameterSlice> slices;
  for (const auto& group : run.model->parameterGroups())
    slices.push_back({group.offset, group.size});
  const auto privatizer =
      privacy::makePrivatizer(p.privatizer, slices, config.expectedUnitsPerLot());

  // The description the trainer's PrivacyTracker composes (core/train/privacy_tracker.cpp).
  privacy::PrivacyRunDescription description;
  description.sampling = p.sampling;
  description.privatizer = p.privatizer.kind;
  description.sampleRate =
      static_cast<double>(config.training.lotSize) / static_cast<double>(run.trainSize);
  description.steps = steps;
  description.parameterCount = run.parameterCount;
  description.countNoiseStd = privatizer->countNoiseStddev();
  description.delta = p.delta;
  description.accountant = p.accountant;
  description.noiseMultipliers.reserve(static_cast<std::size_t>(steps));
  for (long long t = 0; t < steps; ++t) {
    description.noiseMultipliers.push_back(privatizer->gradientNoiseMultiplier(p.noise.sigmaAt(t)));
  }
  const auto accountant = privacy::makeAccountant(p.accountant);
  for (const auto& [event, count] : privacy::privacyEvents(description))
    accountant->compose(event, count);
  return privacy::samplePrivacyProfile(*accountant, epsilons);
}

}  // namespace epsilon::audit

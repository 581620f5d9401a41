#include "core/audit/run_profile.h"

#include "core/common/errors.h"
#include "core/privacy/accountant.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/run_planning.h"

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
  // The description the trainer's ledger starts from (run_planning.h), for the steps it took.
  const privacy::PrivacyRunDescription description = privacy::firstSteps(
      train::privacyDescription(config, {run.trainSize, run.parameterCount}), steps);
  const auto accountant = privacy::makeAccountant(p.accountant, description.conversion);
  for (const auto& [event, count] : privacy::privacyEvents(description))
    accountant->compose(event, count);
  return privacy::samplePrivacyProfile(*accountant, epsilons);
}

}  // namespace epsilon::audit

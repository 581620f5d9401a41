#include "core/train/privacy_tracker.h"

#include <utility>

namespace epsilon::train {

PrivacyTracker::PrivacyTracker(privacy::PrivacyRunDescription planned) : m_run(std::move(planned)) {
  m_run.steps = 0;
  m_run.noiseMultipliers.clear();
}

void PrivacyTracker::recordStep(double gradientSigma) {
  ++m_run.steps;
  if (m_run.privatizer == privacy::PrivatizerKind::None) return;
  std::vector<double>& sigmas = m_run.noiseMultipliers;
  if (sigmas.size() == 1 && sigmas.front() == gradientSigma) return;  // still one σ for all
  if (sigmas.size() == 1)  // the first change of σ: one value per step from here on
    sigmas.assign(static_cast<std::size_t>(m_run.steps - 1), sigmas.front());
  sigmas.push_back(gradientSigma);
}

privacy::PrivacyStatement PrivacyTracker::statement() const {
  return privacy::privacyStatement(m_run);
}

}  // namespace epsilon::train

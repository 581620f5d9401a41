#include "core/train/privacy_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/privacy/dp_pca.h"
#include "core/privacy/rdp_accountant.h"

namespace epsilon::train {

namespace {

// The PLD accountant discretises and composes every distinct step afresh at each query, so
// with a decaying noise schedule (a new σ_t every step) it would compose thousands of
// distributions. For PLD, σ_t is rounded down onto a geometric grid of ratio 0.99 anchored at
// the first step's σ: a smaller σ only raises ε (the bound stays valid, pessimistic by at
// most 1% in σ), and a schedule then has a few dozen distinct steps.
constexpr double kPldSigmaGridRatio = 0.99;

double roundedDown(double sigma, double anchor) {
  const double k = std::ceil(std::log(anchor / sigma) / -std::log(kPldSigmaGridRatio) - 1e-9);
  return std::min(sigma, anchor * std::pow(kPldSigmaGridRatio, k));
}

}  // namespace

struct PrivacyTracker::Impl {
  PrivacyTrackerSetup setup;
  std::unique_ptr<privacy::Accountant> honest;
  std::unique_ptr<privacy::Accountant> nominal;  // tanh only
  std::vector<double> pending;                   // σ of the steps not yet composed
  bool unprotected = false;                      // a step without noise was taken
  bool rounded = false;                          // some σ_t was rounded down (PLD)
  double anchor = 0.0;                           // σ of the first step
  long long steps = 0;

  privacy::AccountantKind kind() const { return setup.accountant; }
  bool poisson() const { return setup.sampling == privacy::SamplingKind::Poisson; }

  void flush() {
    if (pending.empty()) return;
    privacy::PrivacyRunDescription run;
    run.sampling = setup.sampling;
    run.privatizer = setup.privatizer;
    run.sampleRate = setup.sampleRate;
    run.steps = static_cast<long long>(pending.size());
    run.noiseMultipliers = pending;
    run.parameterCount = setup.parameterCount;
    run.countNoiseStd = setup.countNoiseStd;
    run.delta = setup.delta;
    run.accountant = kind();
    for (const auto& [event, count] : privacy::privacyEvents(run, false))
      honest->compose(event, count);
    if (nominal) {
      for (const auto& [event, count] : privacy::privacyEvents(run, true))
        nominal->compose(event, count);
    }
    pending.clear();
  }
};

PrivacyTracker::PrivacyTracker(const PrivacyTrackerSetup& setup)
    : m_impl(std::make_unique<Impl>()) {
  m_impl->setup = setup;
  m_impl->honest = privacy::makeAccountant(m_impl->kind());
  if (setup.privatizer == privacy::PrivatizerKind::Tanh)
    m_impl->nominal = privacy::makeAccountant(m_impl->kind());
  m_impl->unprotected = setup.privatizer == privacy::PrivatizerKind::None;
  if (setup.pca) {
    // The projection was computed before the first step: it counts from step 0 on.
    const privacy::DpEvent pca = privacy::dpPcaEvent(setup.pcaNoiseMultiplier);
    m_impl->honest->compose(pca);
    if (m_impl->nominal) m_impl->nominal->compose(pca);
    m_impl->unprotected = m_impl->unprotected || pca.as<privacy::NonPrivateEvent>() != nullptr;
  }
}

PrivacyTracker::~PrivacyTracker() = default;

void PrivacyTracker::recordStep(double gradientSigma) {
  ++m_impl->steps;
  if (m_impl->unprotected) return;
  if (!(gradientSigma > 0.0)) {
    // A step without noise releases the clipped sum itself: no ε bounds it.
    m_impl->unprotected = true;
    m_impl->pending.clear();
    return;
  }
  Impl& m = *m_impl;
  if (m.anchor == 0.0) m.anchor = gradientSigma;
  double accounted = gradientSigma;
  if (m.setup.accountant == privacy::AccountantKind::Pld && gradientSigma != m.anchor) {
    accounted = roundedDown(gradientSigma, m.anchor);
    m.rounded = m.rounded || accounted != gradientSigma;
  }
  m.pending.push_back(accounted);
}

PrivacySpent PrivacyTracker::spent() {
  Impl& m = *m_impl;
  PrivacySpent s;
  s.delta = m.setup.delta;
  s.accountant = privacy::accountantKindName(m.kind());
  s.sampling =
      m.poisson() ? "Poisson sampling" : "assumes Poisson sampling (batches were shuffled)";
  if (m.setup.pca)
    s.pcaLabel = privacy::dpPcaLabel(m.setup.pcaNoiseMultiplier, m.setup.pcaSampleFraction);
  if (m.steps == 0 && !m.setup.pca) {
    s.epsilon = 0.0;
    s.isGuarantee = m.poisson() && !m.unprotected;
    s.status = m.unprotected ? "no privacy" : "nothing released yet";
    return s;
  }
  if (m.unprotected) {
    s.epsilon = std::numeric_limits<double>::infinity();
    s.status = "no privacy";
    return s;
  }
  m.flush();
  if (auto* rdp = dynamic_cast<privacy::RdpAccountant*>(m.honest.get())) {
    const auto result = rdp->epsilonAndOrder(m.setup.delta);
    s.epsilon = result.epsilon;
    if (std::isfinite(result.epsilon)) s.order = result.order;
  } else {
    s.epsilon = m.honest->epsilon(m.setup.delta);
  }
  if (m.nominal) {
    s.nominalEpsilon = m.nominal->epsilon(m.setup.delta);
    s.nominalLabel = privacy::kNominalLabel;
  }
  s.noiseRounded = m.rounded;
  s.isGuarantee = m.poisson() && std::isfinite(s.epsilon);
  if (!m.poisson()) {
    s.status = "assumes Poisson sampling — not a proven guarantee for shuffled batches";
  } else {
    s.status = std::isfinite(s.epsilon) ? "DP guarantee" : "no finite guarantee";
  }
  return s;
}

}  // namespace epsilon::train

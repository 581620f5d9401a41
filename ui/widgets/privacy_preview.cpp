#include "ui/widgets/privacy_preview.h"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "core/common/errors.h"
#include "core/privacy/privacy_report.h"
#include "core/privacy/tradeoff.h"
#include "ui/io/number_format.h"

namespace epsilon::ui {

namespace {

QString accountantLabel(privacy::AccountantKind kind) {
  return kind == privacy::AccountantKind::Rdp ? QStringLiteral("RDP") : QStringLiteral("PLD (tight)");
}

// The per-step σ_t as the trainer will use it for the gradient noise.
std::vector<double> stepSigmas(const train::ExperimentConfig& c, long long steps, double countStd) {
  auto gradientSigma = [&](double sigma) {
    if (c.privacy.privatizer.kind != privacy::PrivatizerKind::Adaptive) return sigma;
    return privacy::adaptiveGradientNoiseMultiplier(sigma, countStd);
  };
  if (c.privacy.noise.isConstant()) return {gradientSigma(c.privacy.noise.initial)};
  std::vector<double> sigmas(static_cast<std::size_t>(steps));
  for (long long t = 0; t < steps; ++t) sigmas[static_cast<std::size_t>(t)] = gradientSigma(c.privacy.noise.sigmaAt(t));
  return sigmas;
}

}  // namespace

QString PrivacyPreview::label() const {
  return QStringLiteral("δ = %1 · %2 · %3").arg(formatDelta(delta), accountant, sampling);
}

QString PrivacyPreview::attackerSentence() const {
  if (!valid) return {};
  if (!std::isfinite(epsilon))
    return QObject::tr("Without privacy there is no bound: an attacker may be able to detect every member.");
  return QObject::tr("An attacker who wrongly accuses 1 in 100 non-members can detect a member at most "
                     "%1 of the time (a guesser who knows nothing: 1%).")
      .arg(formatPercent(tprAtOnePercent));
}

bool previewIsInstant(const train::ExperimentConfig& config) {
  return config.privacy.accountant == privacy::AccountantKind::Rdp && config.privacy.noise.isConstant();
}

double defaultDelta(long long trainSize) {
  if (trainSize <= 1) return 0.1;
  // Largest power of ten strictly below 1/N.
  int exponent = static_cast<int>(std::floor(std::log10(1.0 / static_cast<double>(trainSize))));
  if (std::pow(10.0, exponent) >= 1.0 / static_cast<double>(trainSize)) --exponent;
  return std::pow(10.0, exponent);
}

PrivacyPreview computePrivacyPreview(const PrivacyPreviewInput& input) {
  PrivacyPreview out;
  const train::ExperimentConfig& c = input.config;
  out.accountant = accountantLabel(c.privacy.accountant);
  out.delta = c.privacy.delta;
  try {
    if (input.trainSize < 1) throw ConfigError("dataset: no training examples");
    const long long steps = c.totalSteps(input.trainSize);
    const long long perEpoch = c.stepsPerEpoch(input.trainSize);
    const double q = std::min(1.0, static_cast<double>(c.training.lotSize) / static_cast<double>(input.trainSize));
    const double countStd = c.privacy.privatizer.kind == privacy::PrivatizerKind::Adaptive
                                ? c.privacy.privatizer.countStddev(c.expectedUnitsPerLot())
                                : 0.0;
    privacy::PrivacyRunDescription run;
    run.sampling = c.privacy.sampling == train::SamplingKind::Poisson ? privacy::SamplingKind::Poisson
                                                                       : privacy::SamplingKind::Shuffle;
    run.privatizer = c.privacy.privatizer.kind;
    run.sampleRate = q;
    run.steps = steps;
    run.noiseMultipliers = stepSigmas(c, steps, countStd);
    run.parameterCount = std::max<long long>(1, input.parameterCount);
    run.countNoiseStd = countStd;
    run.delta = c.privacy.delta;
    run.accountant = c.privacy.accountant;
    const privacy::PrivacyReport report = privacy::privacyReport(run);
    out.epsilon = report.epsilon;
    out.order = report.order;
    out.sampling = QString::fromStdString(report.samplingLabel);
    out.status = QString::fromStdString(report.statusLabel);
    out.isGuarantee = report.isGuarantee;
    out.nominalEpsilon = report.nominalEpsilon;
    out.sampleRate = q;
    out.steps = steps;
    out.effectiveNoiseMultiplier = report.effectiveNoiseMultiplier;

    // The curve at every epoch's end (at most ~60 points so the preview stays instant).
    std::vector<long long> points;
    const long long stride = std::max<long long>(perEpoch, (steps + 59) / 60);
    for (long long s = stride; s < steps; s += stride) points.push_back(s);
    points.push_back(steps);
    const bool isPrivate = c.privacy.privatizer.kind != privacy::PrivatizerKind::None &&
                           c.privacy.noise.initial > 0;
    if (isPrivate && c.privacy.noise.isConstant()) {
      const std::vector<double> eps = privacy::epsilonOverSteps(c.privacy.accountant, q, report.effectiveNoiseMultiplier,
                                                                c.privacy.delta, points);
      for (std::size_t i = 0; i < points.size(); ++i)
        out.curve.emplace_back(static_cast<double>(points[i]) / static_cast<double>(perEpoch), eps[i]);
      if (report.nominalEpsilon) {
        const std::vector<double> nominal = privacy::epsilonOverSteps(c.privacy.accountant, q, c.privacy.noise.initial,
                                                                      c.privacy.delta, points);
        for (std::size_t i = 0; i < points.size(); ++i)
          out.nominalCurve.emplace_back(static_cast<double>(points[i]) / static_cast<double>(perEpoch), nominal[i]);
      }
    } else if (isPrivate) {
      for (long long s : points) {
        privacy::PrivacyRunDescription partial = run;
        partial.steps = s;
        if (partial.noiseMultipliers.size() > 1) partial.noiseMultipliers.resize(static_cast<std::size_t>(s));
        const auto r = privacy::privacyReport(partial);
        out.curve.emplace_back(static_cast<double>(s) / static_cast<double>(perEpoch), r.epsilon);
        if (r.nominalEpsilon)
          out.nominalCurve.emplace_back(static_cast<double>(s) / static_cast<double>(perEpoch), *r.nominalEpsilon);
      }
    }
    out.tprAtOnePercent = std::isfinite(out.epsilon) ? privacy::tprBound(out.epsilon, out.delta, 0.01) : 1.0;
    out.maxAdvantage = std::isfinite(out.epsilon) ? privacy::maxAdvantage(out.epsilon, out.delta) : 1.0;
    out.valid = true;
  } catch (const std::exception& e) {
    out.valid = false;
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

}  // namespace epsilon::ui

#include "base/io/privacy_preview.h"

#include <QObject>
#include <algorithm>
#include <cmath>

#include "base/io/number_format.h"
#include "core/common/errors.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/tradeoff.h"
#include "core/train/run_planning.h"

namespace epsilon::ui {

QString PrivacyPreview::label() const {
  return QStringLiteral("δ = %1 · %2 · %3").arg(formatDelta(delta), accountant, sampling);
}

QString PrivacyPreview::attackerSentence() const {
  if (!valid) return {};
  if (!std::isfinite(epsilon))
    return QObject::tr(
        "Without privacy there is no bound: an attacker may be able to detect every member.");
  return QObject::tr(
             "An attacker who wrongly accuses 1 in 100 non-members can detect a member at most "
             "%1 of the time (a guesser who knows nothing: 1%).")
      .arg(formatPercent(tprAtOnePercent));
}

bool previewIsInstant(const train::ExperimentConfig& config) {
  return config.privacy.accountant == privacy::AccountantKind::Rdp &&
         config.privacy.noise.isConstant();
}

PrivacyPreview computePrivacyPreview(const PrivacyPreviewInput& given) {
  PrivacyPreviewInput input = given;
  PrivacyPreview out;
  const train::ExperimentConfig& c = input.config;
  out.accountant = QString::fromUtf8(privacy::accountantWords(c.privacy.accountant));
  out.delta = c.privacy.delta;
  try {
    if (input.sizesFromConfig) {
      const train::RunPlanInput sizes = train::planInput(c);
      input.trainSize = sizes.trainSize;
      input.parameterCount = sizes.parameterCount;
    }
    // Planning lives in core (run_planning.h); the preview only keeps what it shows. The
    // curve has one point per epoch, at most ~60, so the preview stays instant.
    const train::RunPlanInput plan{input.trainSize, input.parameterCount};
    if (input.trainSize < 1) train::sampleRate(c, input.trainSize);  // throws, naming the data set
    const std::vector<long long> steps = train::epochEndSteps(c, input.trainSize, 60);
    const train::EpsilonCurve curve = train::epsilonCurve(c, plan, steps);
    const privacy::PrivacyStatement& report = curve.statement;
    out.epsilon = report.epsilon;
    out.order = report.order;
    out.sampling = QString::fromUtf8(privacy::samplingWords(report.sampling));
    out.status = QString::fromUtf8(privacy::statusWords(report.status));
    out.isGuarantee = report.isGuarantee();
    out.nominalEpsilon = report.nominalEpsilon;
    if (const auto& pca = report.pca) {
      out.pcaLine =
          QString::fromStdString(privacy::dpPcaLabel(pca->noiseMultiplier, pca->sampleFraction));
      out.pcaEpsilon = pca->epsilon;
    }
    out.sampleRate = train::sampleRate(c, input.trainSize);
    out.steps = c.totalSteps(input.trainSize);
    out.effectiveNoiseMultiplier = report.effectiveNoiseMultiplier;
    if (train::addsNoise(c)) {
      for (const auto& point : curve.points) {
        out.curve.emplace_back(point.epoch, point.epsilon);
        if (point.nominalEpsilon) out.nominalCurve.emplace_back(point.epoch, *point.nominalEpsilon);
      }
    }
    out.tprAtOnePercent =
        std::isfinite(out.epsilon) ? privacy::tprBound(out.epsilon, out.delta, 0.01) : 1.0;
    out.maxAdvantage =
        std::isfinite(out.epsilon) ? privacy::maxAdvantage(out.epsilon, out.delta) : 1.0;
    out.valid = true;
  } catch (const std::exception& e) {
    out.valid = false;
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

TargetCalibration calibrateForTarget(const train::ExperimentConfig& c,
                                     const train::RunPlanInput& input, double targetEpsilon,
                                     const std::atomic<bool>* cancel) {
  TargetCalibration out;
  try {
    out.sigma = train::calibrateNoise(c, input, targetEpsilon, kNoiseMultiplierDecimals, cancel)
                    .noiseMultiplier;
    out.pca = train::plannedPrivacy(c, input).pca;
  } catch (const std::exception& e) {
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

SweepCalibration calibrateSweepForTarget(std::vector<train::SweepPoint> points) {
  SweepCalibration out;
  try {
    train::calibrateSweep(
        points, [](const train::ExperimentConfig& c) { return train::planInput(c); },
        kNoiseMultiplierDecimals);
    out.points = std::move(points);
  } catch (const std::exception& e) {
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

QString samplingLine(const train::ExperimentConfig& c, long long trainSize) {
  return QObject::tr("sampling rate q = L/N = %1 · %2 steps per epoch")
      .arg(formatNumber(train::sampleRate(c, trainSize), 3))
      .arg(c.stepsPerEpoch(trainSize));
}

ModelSize modelSize(const train::ExperimentConfig& c, const data::DatasetInfo& info) {
  ModelSize size;
  try {
    size.parameterCount = train::modelParameterCount(c, info.shape, info.classCount);
  } catch (const std::exception& e) {
    size.problem = QString::fromUtf8(e.what());
  }
  return size;
}

}  // namespace epsilon::ui

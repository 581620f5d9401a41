// presetPoints (ui/preset_file.h): a preset's runs as sweep points.
#include <QString>
#include <cmath>

#include "base/io/preset_file.h"
#include "base/io/run_conversion.h"
#include "base/io/run_record.h"
#include "core/common/errors.h"
#include "core/privacy/calibration.h"
#include "core/train/run_planning.h"

namespace epsilon::ui {

namespace {

std::string shortNumber(double value) {
  return QString::number(value, 'g', 3).toStdString();
}

std::vector<train::SweepPoint> calibratedPoints(const Preset& preset,
                                                const train::ExperimentConfig& base,
                                                const train::RunPlanInput& input) {
  if (input.trainSize < 1)
    throw ConfigError(preset.name.toStdString() + ": calibration needs the training set size");
  // The smallest σ₀ whose planned run meets each target (the one calibration, run_planning.h).
  std::vector<train::SweepPoint> points;
  for (double target : preset.calibration.targetEpsilons) {
    const privacy::Calibration c = train::calibrateNoise(base, input, target);
    train::SweepPoint p;
    p.config = base;
    p.config.privacy.noise.initial = c.noiseMultiplier;
    p.index = static_cast<int>(points.size());
    p.values = {{"target_epsilon", shortNumber(target)}};
    p.label = "ε " + shortNumber(target) + ", σ " + shortNumber(c.noiseMultiplier);
    p.config.validate();
    points.push_back(std::move(p));
  }
  if (preset.calibration.baseline) {
    train::SweepPoint p;
    p.config = train::withoutPrivacy(base);
    p.index = static_cast<int>(points.size());
    p.values = {{"target_epsilon", "baseline"}};
    p.label = "no privacy";
    p.config.validate();
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace

std::vector<train::SweepPoint> presetPoints(const Preset& preset,
                                            const train::ExperimentConfig& base, bool quick,
                                            const train::RunPlanInput& input) {
  const std::string name = preset.name.toStdString();
  try {
    if (preset.kind == PresetKind::Calibrate) return calibratedPoints(preset, base, input);
    if (!preset.variants.empty()) {
      std::vector<train::SweepPoint> points;
      for (const PresetVariant& v : preset.variants) {
        train::SweepPoint p;
        p.config = applyExperimentPatch(base, v.experiment,
                                        QStringLiteral("variants.%1.experiment").arg(v.key));
        // --quick shortens every variant the same way, whatever the variant changed.
        if (quick)
          p.config = applyExperimentPatch(p.config, preset.quickExperiment,
                                          QStringLiteral("quick.experiment"));
        p.index = static_cast<int>(points.size());
        p.values = {{"variant", v.key.toStdString()}};
        p.label = v.label.toStdString();
        p.config.validate();
        points.push_back(std::move(p));
      }
      return points;
    }
    auto points = train::expandSweep(
        base, quick && !preset.quickSweep.empty() ? preset.quickSweep : preset.sweep);
    // A target_epsilon axis: each point's σ₀ for its own settings (N and P as the run's own).
    train::calibrateSweep(points,
                          [](const train::ExperimentConfig& c) { return train::planInput(c); });
    return points;
  } catch (const ConfigError& e) {
    throw ConfigError(name + ": " + e.what());
  } catch (const PrivacyError& e) {
    throw ConfigError(name + ": calibration: " + e.what());
  }
}

PresetPlan planPreset(const Preset& preset, const QString& dataset, bool quick) {
  PresetPlan plan;
  plan.base = presetBaseConfig(preset, quick, dataset);
  plan.input = train::planInput(plan.base);  // N and P decide q = L/N and a calibrated σ
  plan.points = presetPoints(preset, plan.base, quick, plan.input);
  return plan;
}

RunRecord accountantOnlyRecord(const train::SweepPoint& point, const train::RunPlanInput& input) {
  RunRecord record = recordFromResult(train::accountantOnlyRun(point.config, input),
                                      QString::fromStdString(point.label));
  record.privacyLabel += QStringLiteral(" · accountant only, no training");
  return record;
}

}  // namespace epsilon::ui

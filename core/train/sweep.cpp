#include "core/train/sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/train/experiment_schema.h"

namespace epsilon::train {

std::vector<std::string> sweepParameterNames() {
  std::vector<std::string> names;
  for (const auto& f : experimentFields())
    if (f.persisted) names.push_back(f.word);
  names.emplace_back(kTargetEpsilonParameter);
  return names;
}

bool isSweepParameter(const std::string& name) {
  return name == kTargetEpsilonParameter || fieldForWord(name) != nullptr;
}

// The schema's field of that word (or an older spelling, such as train_size for max_train).
void applySweepValue(ExperimentConfig& c, const std::string& p, const std::string& v) {
  const OldSpelling* old = nullptr;
  const ExperimentField* field = fieldForWord(p, &old);
  if (!field) {
    std::string list;
    for (const auto& n : sweepParameterNames()) list += (list.empty() ? "" : ", ") + n;
    throw ConfigError("sweep.parameter: expected one of " + list + ", got '" + clippedText(p) +
                      "'");
  }
  if (old && !old->value.empty())
    throw ConfigError("sweep." + clippedText(p) + ": an old switch; sweep " + field->word +
                      " instead");
  setField(c, *field, parseFieldText(*field, v, "sweep." + field->word));
}

namespace {

// A target ε as typed in a sweep: a finite number > 0.
double parseTargetEpsilon(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(value) || !(value > 0.0))
    throw ConfigError(std::string("sweep.") + kTargetEpsilonParameter +
                      ": expected a number > 0, got '" + clippedText(text) + "'");
  return value;
}

// Calibration sets σ₀ on every point: a sweep that also varies it, or a point without a
// privatizer, cannot be calibrated.
void checkCalibratedPoint(const SweepPoint& point, const std::vector<SweepAxis>& axes) {
  for (const auto& axis : axes) {
    const ExperimentField* field = fieldForWord(axis.parameter);
    if (field && field->name == "privacy.noise_multiplier")
      throw ConfigError(
          "sweep: noise_multiplier cannot be swept while σ is calibrated to a target ε (each "
          "point's σ is calibrated for its own settings); sweep target_epsilon instead, or "
          "turn calibration off");
  }
  if (point.config.privacy.privatizer.kind == privacy::PrivatizerKind::None)
    throw ConfigError("sweep point '" + clippedText(point.label) +
                      "': without a privatizer there is no σ to calibrate to a target ε");
}

}  // namespace

std::vector<SweepPoint> expandSweep(const ExperimentConfig& base,
                                    const std::vector<SweepAxis>& axes,
                                    std::optional<double> targetEpsilon) {
  if (axes.empty() || axes.size() > 2)
    throw ConfigError("sweep: expected one or two parameters, got " + std::to_string(axes.size()));
  if (axes.size() == 2 && axes[0].parameter == axes[1].parameter)
    throw ConfigError("sweep: parameter '" + clippedText(axes[0].parameter) + "' is given twice");
  for (const auto& axis : axes)
    if (axis.values.empty())
      throw ConfigError("sweep." + clippedText(axis.parameter) + ": expected at least one value");
  const std::size_t second = axes.size() == 2 ? axes[1].values.size() : 1;
  if (axes[0].values.size() > kMaxSweepRuns / second)  // the product, without overflow
    throw ConfigError("sweep: " + std::to_string(axes[0].values.size()) +
                      (axes.size() == 2 ? " × " + std::to_string(second) : std::string()) +
                      " values expand to more than " + std::to_string(kMaxSweepRuns) +
                      " runs, the most one sweep may start");
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < axes[0].values.size(); ++i) {
    for (std::size_t j = 0; j < second; ++j) {
      SweepPoint point;
      point.config = base;
      point.index = static_cast<int>(points.size());
      for (std::size_t a = 0; a < axes.size(); ++a) {
        const std::string& value = axes[a].values[a == 0 ? i : j];
        if (axes[a].parameter == kTargetEpsilonParameter)
          point.targetEpsilon = parseTargetEpsilon(value);
        else
          applySweepValue(point.config, axes[a].parameter, value);
        point.values.emplace_back(axes[a].parameter, value);
        point.label += (point.label.empty() ? "" : ", ") + axes[a].parameter + "=" + value;
      }
      if (!point.targetEpsilon) point.targetEpsilon = targetEpsilon;
      if (point.targetEpsilon) checkCalibratedPoint(point, axes);
      point.config.validate();
      points.push_back(std::move(point));
    }
  }
  return points;
}

void calibrateSweep(std::vector<SweepPoint>& points,
                    const std::function<RunPlanInput(const ExperimentConfig&)>& inputOf,
                    std::optional<int> roundUpDecimals) {
  for (SweepPoint& point : points) {
    if (!point.targetEpsilon) continue;
    try {
      point.config.privacy.noise.initial =
          calibrateNoise(point.config, inputOf(point.config), *point.targetEpsilon, roundUpDecimals)
              .noiseMultiplier;
    } catch (const PrivacyError& e) {
      throw PrivacyError("sweep point '" + clippedText(point.label) + "': " + e.what());
    } catch (const ConfigError& e) {
      throw ConfigError("sweep point '" + clippedText(point.label) + "': " + e.what());
    }
  }
}

std::vector<SweepPoint> shardOf(const std::vector<SweepPoint>& points, int k, int n) {
  if (n < 1 || k < 1 || k > n)
    throw ConfigError("--shard: expected K/N with 1 <= K <= N, got " + std::to_string(k) + "/" +
                      std::to_string(n));
  std::vector<SweepPoint> slice;
  for (const auto& p : points)
    if (p.index % n == k - 1) slice.push_back(p);
  return slice;
}

std::pair<int, int> parseShard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw ConfigError("--shard: expected K/N (e.g. 2/8), got '" + clippedText(text) + "'");
  int k = 0, n = 0;
  const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
  const auto ra = std::from_chars(a.data(), a.data() + a.size(), k);
  const auto rb = std::from_chars(b.data(), b.data() + b.size(), n);
  if (ra.ec != std::errc() || ra.ptr != a.data() + a.size() || rb.ec != std::errc() ||
      rb.ptr != b.data() + b.size() || n < 1 || k < 1 || k > n)
    throw ConfigError("--shard: expected K/N with 1 <= K <= N, got '" + clippedText(text) + "'");
  return {k, n};
}

}  // namespace epsilon::train

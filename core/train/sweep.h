// Sweeps: one or two parameters varied over lists of values, every combination a normal run.
// The parameters are named as users type them ("noise_multiplier", "clip_norm", ...); a
// sweep can be cut into N shards so a big one spreads over machines (--shard K/N).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/train/experiment_config.h"
#include "core/train/run_planning.h"

namespace epsilon::train {

struct SweepAxis {
  std::string parameter;            // see sweepParameterNames()
  std::vector<std::string> values;  // as typed: "0.5", "adam", "time"
};

struct SweepPoint {
  ExperimentConfig config;
  std::vector<std::pair<std::string, std::string>> values;  // (parameter, value) of this point
  std::string label;                                        // "noise_multiplier=0.5, clip_norm=4"
  int index = 0;  // position in the full sweep (0-based), stable across shards
  int of = 0;     // points the sweep has in all (its run files say so; 0 when not known)
  // The ε this point's σ₀ is calibrated to (its own settings, calibrateSweep), when the sweep
  // has a target: the target_epsilon axis, or one target for every point ("Fix ε").
  std::optional<double> targetEpsilon;
};

// The sweep parameter that is not a field of the experiment schema: the target ε each point's
// σ₀ is calibrated to for that point's own settings (train::calibrateNoise).
inline constexpr const char* kTargetEpsilonParameter = "target_epsilon";

// The most runs one sweep (or preset) may expand to: a hostile or mistyped file must not be able
// to ask for millions of runs. expandSweep, the preset reader and the CLI's `sweep` refuse more.
inline constexpr std::size_t kMaxSweepRuns = 10000;

// The word of every field of the experiment schema (experiment_schema.h): noise_multiplier,
// clip_norm, learning_rate, lot_size, max_train, ...; older spellings (train_size) still read;
// then target_epsilon (kTargetEpsilonParameter).
std::vector<std::string> sweepParameterNames();
// Whether `name` is a sweep parameter: a field's word or an older spelling of one.
bool isSweepParameter(const std::string& name);

// Sets one parameter of `config` from its text; throws ConfigError naming the parameter and
// the value when either is not understood.
void applySweepValue(ExperimentConfig& config, const std::string& parameter,
                     const std::string& value);

// Every combination of the axes' values (the first axis varies slowest), each validated.
// Throws ConfigError for an empty axis, more than two axes, a repeated parameter, or more than
// kMaxSweepRuns points (checked before any point is made). With `targetEpsilon` (calibration
// on) or a target_epsilon axis every point carries its target; such a sweep cannot also vary
// noise_multiplier (σ₀ is what calibration sets) and each point needs a privatizer: ConfigError
// saying why. σ₀ itself is set by calibrateSweep, which needs N and P.
std::vector<SweepPoint> expandSweep(const ExperimentConfig& base,
                                    const std::vector<SweepAxis>& axes,
                                    std::optional<double> targetEpsilon = std::nullopt);

// Sets σ₀ of every point that has a target ε to the one calibration for that point's own
// settings (train::calibrateNoise on `inputOf(point.config)`: its epochs, lot size, data set,
// network), rounded up onto `roundUpDecimals` when given, its ε still at most the target.
// Never one σ for all points. Throws PrivacyError or ConfigError naming the point's label.
void calibrateSweep(std::vector<SweepPoint>& points,
                    const std::function<RunPlanInput(const ExperimentConfig&)>& inputOf,
                    std::optional<int> roundUpDecimals = std::nullopt);

// The K-th of N slices (1 ≤ K ≤ N): points whose index ≡ K−1 (mod N), so shards are
// balanced and together cover the sweep exactly once. Throws ConfigError for bad K or N.
std::vector<SweepPoint> shardOf(const std::vector<SweepPoint>& points, int k, int n);

// Parses "K/N" (throws ConfigError naming "--shard").
std::pair<int, int> parseShard(const std::string& text);

}  // namespace epsilon::train

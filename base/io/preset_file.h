// Presets: named experiments taken from the seed documents (resources/presets/*.json, built
// in as Qt resources) — what each reproduces, what the document reported, the trend to
// expect — and the runs a preset expands to. Used by the CLI (presets, sweep, reproduce) and
// by the GUI's Presets menu and Sweep dialog. Qt Core and JSON only.
//
// File format ("format": "epsilonlab-preset", "version": 1), every key checked:
//   name, title, source, reproduces, document_says   strings (name: [a-z0-9-]+)
//   kind                  "train" | "accountant" (ε over epochs only) | "calibrate"
//   dataset_preference    ["fashion-mnist", "mnist-10k"]: the first installed one is used
//   experiment            a partial epsilonlab-experiment object over the defaults
//   sweep                 [{"parameter": "noise_multiplier", "values": [0.5, 1, 2]}, ≤ 1 more]
//   variants              [{"key", "label", "experiment": {partial}}] (instead of a sweep)
//   calibrate             {"target_epsilons": [0.5, 2, 8], "baseline": true} (kind calibrate)
//   quick                 {"experiment": {partial}, "sweep": [...]}: what --quick changes
//   expected_trend        [{"figure", "statement", "metric", "over", "order", ...}] (see
//                         PresetTrend), checked against the measured numbers
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

#include "base/io/run_record.h"
#include "core/train/experiment_config.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

inline constexpr const char* kPresetFormat = "epsilonlab-preset";
inline constexpr int kPresetVersion = 1;

enum class PresetKind { Train, Accountant, Calibrate };
QString presetKindName(PresetKind kind);  // "train", "accountant", "calibrate"

// One named configuration of a comparison (an optimizer with its own learning rate, a
// privatizer, a noise schedule): a partial experiment applied over the preset's.
struct PresetVariant {
  QString key;    // short, what trends refer to: "sgd", "tanh-c1", "baseline"
  QString label;  // shown in legends and tables
  QJsonObject experiment;
};

// A machine-checkable statement of what the document's figure shows.
//   metric: final_accuracy, best_accuracy, final_epsilon, nominal_epsilon, accuracy_jitter
//           (mean |Δ accuracy| between consecutive evaluations over the second half of a
//           run: how unstable it is), or epsilon (with over = "epoch": along each run).
//   over:   the swept parameter, "variant", "final_epsilon", or "epoch".
//   order:  increasing | decreasing (within `tolerance`, and the ends differ by more than
//           it) | highest_at / lowest_at (`at[0]` has the highest / lowest metric, within
//           `tolerance`) | highest_inside (the highest is at neither end, above both ends by
//           more than `tolerance`) | higher (every key in `at` above every key in `than`, by
//           more than `tolerance`) | flat (max − min ≤ `tolerance` over `at`, or all runs).
//   at / than: run keys — the swept parameter's value ("4"), the variant key, or for
//           calibrate presets the target ε ("0.5") or "baseline".
struct PresetTrend {
  QString figure;     // "Fig. 3"
  QString statement;  // in words, as the document puts it
  QString metric;
  QString over;
  QString order;
  QStringList at;
  QStringList than;
  double tolerance = 0.0;
};

struct PresetCalibration {
  std::vector<double> targetEpsilons;
  bool baseline = false;  // add the non-private run beside them
};

struct Preset {
  QString file;  // where it was read from (":/presets/x.json" for a built-in one)
  QString name;
  QString title;
  QString source;
  QString reproduces;
  QString documentSays;
  PresetKind kind = PresetKind::Train;
  QStringList datasetPreference;
  QJsonObject experiment;               // partial, over ExperimentConfig{}
  std::vector<train::SweepAxis> sweep;  // one or two axes, or none with variants/calibrate
  std::vector<PresetVariant> variants;
  PresetCalibration calibration;
  QJsonObject quickExperiment;               // applied last under --quick
  std::vector<train::SweepAxis> quickSweep;  // replaces `sweep` under --quick when set
  std::vector<PresetTrend> trends;
};

// Parses a preset; throws ConfigError "<file>: <key>: …" for an unknown key, a wrong type,
// a missing required key or an inconsistent combination (e.g. kind calibrate without
// "calibrate", both "sweep" and "variants").
Preset presetFromJson(const QJsonObject& json, const QString& file);
Preset readPresetFile(const QString& path);

// Every built-in preset, in file-name order (the built-in files are checked by the tests, so
// this does not throw for them).
const std::vector<Preset>& builtinPresets();
// A built-in preset by name, or a preset file by path; throws ConfigError listing the names.
Preset findPreset(const QString& nameOrPath);

// The data set a preset runs on: the first of its preferences that is installed (else the
// last preference). `note` explains a fallback ("fashion-mnist is not installed: ...").
QString chooseDataset(const Preset& preset, QString* note = nullptr);

// The preset's experiment over the defaults (then its quick overrides), on `dataset`.
// Throws ConfigError naming the preset and the field.
train::ExperimentConfig presetBaseConfig(const Preset& preset, bool quick, const QString& dataset);

// Every run of the preset as sweep points (index, label, values): the sweep's combinations,
// the variants (values = [("variant", key)]), or for calibrate the calibrated noise levels
// (σ₀ from train::calibrateNoise for each target ε, on N and P of `input`: every mechanism of
// the base config honoured; values = [("target_epsilon", "2")]) and the baseline
// (values = [("target_epsilon", "baseline")]). Accountant presets expand like train ones.
std::vector<train::SweepPoint> presetPoints(const Preset& preset,
                                            const train::ExperimentConfig& base, bool quick,
                                            const train::RunPlanInput& input);

// A preset ready to run on `dataset`: its base config, N and P of that config (the registry's
// description, or the data set loaded for a synthetic one or a folder), and its points.
struct PresetPlan {
  train::ExperimentConfig base;
  train::RunPlanInput input;
  std::vector<train::SweepPoint> points;
};
PresetPlan planPreset(const Preset& preset, const QString& dataset, bool quick);

// An accountant preset's point as a finished run: ε after step 0 and every epoch
// (train::accountantOnlyRun), labelled as accounted without training.
RunRecord accountantOnlyRecord(const train::SweepPoint& point, const train::RunPlanInput& input);

// The "sweep" array at `key` (one or two {"parameter", "values"} axes), as presets and lessons
// write it; throws ConfigError naming the key.
class JsonReader;
std::vector<train::SweepAxis> readSweepAxes(JsonReader& reader, const QString& key);

// The partial-experiment JSON `patch` over `config` (format and version may be omitted).
train::ExperimentConfig applyExperimentPatch(const train::ExperimentConfig& config,
                                             const QJsonObject& patch, const QString& where);

}  // namespace epsilon::ui

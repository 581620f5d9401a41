#include "base/io/preset_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <set>

#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "core/common/errors.h"
#include "core/data/registry.h"

// Q_INIT_RESOURCE must be called outside any namespace: the presets are compiled into the
// static epsilon_ui library, whose resource initialiser is otherwise never referenced.
static void epsilonInitPresetResources() {
  Q_INIT_RESOURCE(presets);
}

namespace epsilon::ui {

namespace {

using Reader = JsonReader;

// A hostile or mistyped file must not start millions of runs: a preset expands to at most
// train::kMaxSweepRuns (sweep.h), refused here naming the field.
void checkRunCount(const Reader& r, const QString& key, std::size_t runs) {
  if (runs > train::kMaxSweepRuns)
    r.fail(key, QStringLiteral("expands to %1 runs, expected at most %2")
                    .arg(static_cast<qulonglong>(runs))
                    .arg(static_cast<qulonglong>(train::kMaxSweepRuns)));
}

// A sweep value as typed: numbers in their shortest form ("0.5", "4"), strings as they are.
std::string valueText(const QJsonValue& v, const Reader& owner, const QString& key) {
  if (v.isString() && !v.toString().isEmpty()) return v.toString().toStdString();
  if (v.isDouble()) return QString::number(v.toDouble(), 'g', 12).toStdString();
  owner.expected(key, QStringLiteral("a number or a string"), v);
}

std::vector<train::SweepAxis> readSweep(Reader& r, const QString& key) {
  std::vector<train::SweepAxis> axes;
  const QJsonArray items = r.array(key, false);
  if (r.has(key) && (items.isEmpty() || items.size() > 2))
    r.fail(key, QStringLiteral("expected one or two axes, got %1").arg(items.size()));
  for (int i = 0; i < items.size(); ++i) {
    const QString where = QStringLiteral("%1[%2]").arg(r.path(key)).arg(i);
    if (!items[i].isObject())
      r.expected(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("an object"), items[i]);
    Reader a(items[i].toObject(), where);
    a.allowOnly({"parameter", "values"});
    train::SweepAxis axis;
    axis.parameter = a.string(QStringLiteral("parameter"), true).toStdString();
    if (!train::isSweepParameter(axis.parameter))
      a.fail(QStringLiteral("parameter"),
             QStringLiteral("unknown sweep parameter '%1'")
                 .arg(clipped(QString::fromStdString(axis.parameter))));
    const QJsonArray values = a.array(QStringLiteral("values"), true);
    if (values.isEmpty())
      a.fail(QStringLiteral("values"), QStringLiteral("expected at least one value"));
    for (int j = 0; j < values.size(); ++j)
      axis.values.push_back(valueText(values[j], a, QStringLiteral("values[%1]").arg(j)));
    a.finish();
    axes.push_back(std::move(axis));
  }
  std::size_t runs = axes.empty() ? 0 : 1;
  for (const auto& axis : axes) runs *= axis.values.size();  // ≤ 2 axes of < 2^20 values each
  checkRunCount(r, key, runs);
  return axes;
}

PresetKind parseKind(const QString& text, const Reader& r) {
  if (text == QLatin1String("train")) return PresetKind::Train;
  if (text == QLatin1String("accountant")) return PresetKind::Accountant;
  if (text == QLatin1String("calibrate")) return PresetKind::Calibrate;
  r.fail(QStringLiteral("kind"),
         QStringLiteral("expected one of train, accountant, calibrate, got \"%1\"").arg(text));
}

const QStringList& trendMetrics() {
  static const QStringList m{"final_accuracy",  "best_accuracy",   "final_epsilon",
                             "nominal_epsilon", "accuracy_jitter", "epsilon"};
  return m;
}
const QStringList& trendOrders() {
  static const QStringList o{"increasing",     "decreasing", "highest_at", "lowest_at",
                             "highest_inside", "higher",     "flat"};
  return o;
}

PresetTrend readTrend(const QJsonValue& value, const Reader& owner, int i) {
  const QString key = QStringLiteral("expected_trend[%1]").arg(i);
  if (!value.isObject()) owner.expected(key, QStringLiteral("an object"), value);
  Reader r(value.toObject(), owner.path(key));
  r.allowOnly({"figure", "statement", "metric", "over", "order", "at", "than", "tolerance"});
  PresetTrend t;
  t.figure = r.string(QStringLiteral("figure"), true);
  t.statement = r.string(QStringLiteral("statement"), true);
  t.metric = r.string(QStringLiteral("metric"), true);
  t.over = r.string(QStringLiteral("over"), true);
  t.order = r.string(QStringLiteral("order"), true);
  t.at = r.strings(QStringLiteral("at"), false);
  t.than = r.strings(QStringLiteral("than"), false);
  t.tolerance = r.number(QStringLiteral("tolerance"), false, 0.0);
  r.finish();
  if (!trendMetrics().contains(t.metric))
    r.fail(
        QStringLiteral("metric"),
        QStringLiteral("expected one of %1, got \"%2\"").arg(trendMetrics().join(", "), t.metric));
  if (!trendOrders().contains(t.order))
    r.fail(QStringLiteral("order"),
           QStringLiteral("expected one of %1, got \"%2\"").arg(trendOrders().join(", "), t.order));
  if ((t.order == "highest_at" || t.order == "lowest_at") && t.at.size() != 1)
    r.fail(QStringLiteral("at"),
           QStringLiteral("expected exactly one key for order %1").arg(t.order));
  if (t.order == "higher" && (t.at.isEmpty() || t.than.isEmpty()))
    r.fail(QStringLiteral("than"),
           QStringLiteral("order higher needs non-empty \"at\" and \"than\""));
  if ((t.metric == "epsilon") != (t.over == "epoch"))
    r.fail(QStringLiteral("over"),
           QStringLiteral("metric epsilon goes with over \"epoch\" (and only it)"));
  if (!(t.tolerance >= 0.0))
    r.fail(QStringLiteral("tolerance"), QStringLiteral("expected a number >= 0"));
  return t;
}

QStringList builtinPresetFiles() {
  epsilonInitPresetResources();
  QStringList files;
  const QDir dir(QStringLiteral(":/presets"));
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
    files << dir.filePath(name);
  return files;
}

}  // namespace

QString presetKindName(PresetKind kind) {
  switch (kind) {
    case PresetKind::Train:
      return QStringLiteral("train");
    case PresetKind::Accountant:
      return QStringLiteral("accountant");
    case PresetKind::Calibrate:
      return QStringLiteral("calibrate");
  }
  return QStringLiteral("train");
}

namespace {

// format, version, name and the descriptive strings.
void readPresetHeader(Reader& r, const QJsonObject& json, Preset& p) {
  if (r.string(QStringLiteral("format"), true) != QLatin1String(kPresetFormat))
    r.fail(QStringLiteral("format"), QStringLiteral("expected \"%1\", got %2")
                                         .arg(kPresetFormat, describeJson(json.value("format"))));
  if (r.number(QStringLiteral("version"), true, 0) != kPresetVersion)
    r.fail(QStringLiteral("version"), QStringLiteral("expected %1, got %2")
                                          .arg(kPresetVersion)
                                          .arg(describeJson(json.value("version"))));
  p.name = r.string(QStringLiteral("name"), true);
  if (!QRegularExpression(QStringLiteral("^[a-z0-9][a-z0-9-]*$")).match(p.name).hasMatch())
    r.fail(QStringLiteral("name"),
           QStringLiteral("expected lower-case letters, digits and '-', got \"%1\"").arg(p.name));
  p.title = r.string(QStringLiteral("title"), true);
  p.source = r.string(QStringLiteral("source"), true);
  p.reproduces = r.string(QStringLiteral("reproduces"), true);
  p.documentSays = r.string(QStringLiteral("document_says"), true);
}

std::vector<PresetVariant> readVariants(Reader& r) {
  const QJsonArray variants = r.array(QStringLiteral("variants"), false);
  checkRunCount(r, QStringLiteral("variants"), static_cast<std::size_t>(variants.size()));
  std::vector<PresetVariant> out;
  std::set<QString> keys;
  for (int i = 0; i < variants.size(); ++i) {
    const QString key = QStringLiteral("variants[%1]").arg(i);
    if (!variants[i].isObject()) r.expected(key, QStringLiteral("an object"), variants[i]);
    Reader v(variants[i].toObject(), key);
    v.allowOnly({"key", "label", "experiment"});
    PresetVariant variant;
    variant.key = v.string(QStringLiteral("key"), true);
    variant.label = v.string(QStringLiteral("label"), false, variant.key);
    variant.experiment = v.object(QStringLiteral("experiment"), false);
    v.finish();
    if (!keys.insert(variant.key).second)
      v.fail(QStringLiteral("key"), QStringLiteral("\"%1\" is used twice").arg(variant.key));
    out.push_back(std::move(variant));
  }
  return out;
}

PresetCalibration readCalibration(Reader& r) {
  PresetCalibration calibration;
  const QJsonObject calibrate = r.object(QStringLiteral("calibrate"), false);
  if (!r.has(QStringLiteral("calibrate"))) return calibration;
  Reader c(calibrate, QStringLiteral("calibrate"));
  c.allowOnly({"target_epsilons", "baseline"});
  const QJsonArray targets = c.array(QStringLiteral("target_epsilons"), true);
  checkRunCount(c, QStringLiteral("target_epsilons"), static_cast<std::size_t>(targets.size()));
  for (int i = 0; i < targets.size(); ++i) {
    if (!targets[i].isDouble() || !(targets[i].toDouble() > 0))
      c.expected(QStringLiteral("target_epsilons[%1]").arg(i), QStringLiteral("a number > 0"),
                 targets[i]);
    calibration.targetEpsilons.push_back(targets[i].toDouble());
  }
  if (calibration.targetEpsilons.empty())
    c.fail(QStringLiteral("target_epsilons"), QStringLiteral("expected at least one target"));
  calibration.baseline = c.boolean(QStringLiteral("baseline"), false);
  c.finish();
  return calibration;
}

// Exactly one way to make the runs, matching the kind; the partial experiments must parse
// (over the defaults) now, not when a run starts.
void checkPresetConsistency(const Reader& r, const Preset& p) {
  const int ways = (p.sweep.empty() ? 0 : 1) + (p.variants.empty() ? 0 : 1) +
                   (r.has(QStringLiteral("calibrate")) ? 1 : 0);
  if (ways != 1)
    r.fail(QStringLiteral("sweep"),
           QStringLiteral("expected exactly one of \"sweep\", \"variants\", \"calibrate\""));
  if ((p.kind == PresetKind::Calibrate) != r.has(QStringLiteral("calibrate")))
    r.fail(QStringLiteral("kind"),
           QStringLiteral("\"calibrate\" goes with kind calibrate (and only it)"));
  if (p.kind == PresetKind::Accountant && p.sweep.empty())
    r.fail(QStringLiteral("sweep"), QStringLiteral("an accountant preset needs a sweep"));
  if (!p.quickSweep.empty() && p.sweep.empty())
    r.fail(QStringLiteral("quick.sweep"), QStringLiteral("given without a \"sweep\" to replace"));
  applyExperimentPatch(applyExperimentPatch({}, p.experiment, QStringLiteral("experiment")),
                       p.quickExperiment, QStringLiteral("quick.experiment"));
  for (std::size_t i = 0; i < p.variants.size(); ++i)
    applyExperimentPatch({}, p.variants[i].experiment,
                         QStringLiteral("variants[%1].experiment").arg(i));
}

Preset readPreset(Reader& r, const QJsonObject& json) {
  Preset p;
  readPresetHeader(r, json, p);
  p.kind = parseKind(r.string(QStringLiteral("kind"), false, QStringLiteral("train")), r);
  p.datasetPreference = r.strings(QStringLiteral("dataset_preference"), false);
  p.experiment = r.object(QStringLiteral("experiment"), false);
  p.sweep = readSweep(r, QStringLiteral("sweep"));
  p.variants = readVariants(r);
  p.calibration = readCalibration(r);

  Reader q(r.object(QStringLiteral("quick"), false), QStringLiteral("quick"));
  q.allowOnly({"experiment", "sweep"});
  p.quickExperiment = q.object(QStringLiteral("experiment"), false);
  p.quickSweep = readSweep(q, QStringLiteral("sweep"));
  q.finish();

  const QJsonArray trends = r.array(QStringLiteral("expected_trend"), true);
  if (trends.isEmpty())
    r.fail(QStringLiteral("expected_trend"), QStringLiteral("expected at least one trend"));
  for (int i = 0; i < trends.size(); ++i) p.trends.push_back(readTrend(trends[i], r, i));
  r.finish();
  checkPresetConsistency(r, p);
  return p;
}

}  // namespace

Preset presetFromJson(const QJsonObject& json, const QString& file) {
  try {
    Reader r(json, QString());
    r.allowOnly({"format", "version", "name", "title", "source", "reproduces", "document_says",
                 "kind", "dataset_preference", "experiment", "sweep", "variants", "calibrate",
                 "quick", "expected_trend"});
    Preset p = readPreset(r, json);
    p.file = file;
    return p;
  } catch (const ConfigError& e) {
    throw ConfigError(file.toStdString() + ": " + e.what());
  }
}

std::vector<train::SweepAxis> readSweepAxes(JsonReader& reader, const QString& key) {
  return readSweep(reader, key);
}

Preset readPresetFile(const QString& path) {
  constexpr qint64 kMaxBytes = 1 << 20;  // a preset is a few kilobytes
  return presetFromJson(readJsonObjectFile(path, kMaxBytes, QStringLiteral("preset file")), path);
}

const std::vector<Preset>& builtinPresets() {
  static const std::vector<Preset> presets = [] {
    std::vector<Preset> all;
    for (const QString& file : builtinPresetFiles()) all.push_back(readPresetFile(file));
    return all;
  }();
  return presets;
}

Preset findPreset(const QString& nameOrPath) {
  for (const Preset& p : builtinPresets())
    if (p.name == nameOrPath) return p;
  if (nameOrPath.endsWith(QLatin1String(".json")) || nameOrPath.contains(QLatin1Char('/')))
    return readPresetFile(nameOrPath);
  QStringList names;
  for (const Preset& p : builtinPresets()) names << p.name;
  throw ConfigError(
      "unknown preset '" + nameOrPath.toStdString() +
      "'; expected a preset file or one of: " + names.join(QStringLiteral(", ")).toStdString());
}

QString chooseDataset(const Preset& preset, QString* note) {
  if (preset.datasetPreference.isEmpty()) return {};
  std::set<std::string> installed;
  for (const auto& info : data::listDatasets()) installed.insert(info.name);
  for (const QString& name : preset.datasetPreference) {
    if (installed.contains(name.toStdString()) || QDir(name).exists()) {
      if (note && name != preset.datasetPreference.first())
        *note = QStringLiteral("%1 is not installed; ran on %2 instead")
                    .arg(preset.datasetPreference.first(), name);
      return name;
    }
  }
  if (note)
    *note = QStringLiteral("none of %1 is installed").arg(preset.datasetPreference.join(", "));
  return preset.datasetPreference.last();
}

train::ExperimentConfig applyExperimentPatch(const train::ExperimentConfig& config,
                                             const QJsonObject& patch, const QString& where) {
  if (patch.isEmpty()) return config;
  QJsonObject full = patch;
  if (!full.contains(QLatin1String("format")))
    full.insert(QStringLiteral("format"), QString::fromLatin1(kExperimentFormat));
  if (!full.contains(QLatin1String("version")))
    full.insert(QStringLiteral("version"), kExperimentVersion);
  try {
    return experimentFromJson(full, config);
  } catch (const ConfigError& e) {
    throw ConfigError(where.toStdString() + "." + e.what());
  }
}

train::ExperimentConfig presetBaseConfig(const Preset& preset, bool quick, const QString& dataset) {
  train::ExperimentConfig config =
      applyExperimentPatch({}, preset.experiment, preset.name + QStringLiteral(": experiment"));
  if (!dataset.isEmpty()) config.dataset.name = dataset.toStdString();
  if (quick)
    config = applyExperimentPatch(config, preset.quickExperiment,
                                  preset.name + QStringLiteral(": quick.experiment"));
  return config;
}

}  // namespace epsilon::ui

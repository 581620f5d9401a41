#include "base/io/experiment_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <stdexcept>

#include "base/io/csv_writer.h"
#include "base/io/eval_point_json.h"
#include "base/io/json_reader.h"
#include "base/io/run_conversion.h"
#include "core/common/errors.h"
#include "core/privacy/dp_pca.h"
#include "core/train/experiment_schema.h"

namespace epsilon::ui {

namespace {

using train::ExperimentConfig;

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

// The sections of an experiment file, in the order it lists them.
const char* const kSections[] = {"dataset", "model", "privacy", "optimizer", "training"};

// One field of the schema (experiment_schema.h) from its section's reader: the value of the
// field's type, its range checked by setField (errors name "<section>.<key>").
void readField(JsonReader& r, const train::ExperimentField& f, ExperimentConfig& c) {
  using train::FieldType;
  const QString key = QString::fromStdString(f.key());
  const std::string where = r.path(key).toStdString();
  train::FieldValue value = f.get(c);
  switch (f.type) {
    case FieldType::Text:
    case FieldType::Choice:
      if (!r.has(key)) return r.allow({key});
      value = r.string(key, false, {}, true).toStdString();
      break;
    case FieldType::Integer: {
      const double low = f.low, high = f.high;
      value = r.integer(key, low, high, std::get<long long>(value));
      break;
    }
    case FieldType::Number:
      value = r.number(key, false, std::get<double>(value));
      break;
    case FieldType::OptionalNumber: {
      const auto old = std::holds_alternative<double>(value)
                           ? std::optional<double>(std::get<double>(value))
                           : std::nullopt;
      const auto read = r.optionalNumber(key, old);
      value = read ? train::FieldValue(*read) : train::FieldValue(std::monostate{});
      break;
    }
    case FieldType::Boolean:
      value = r.boolean(key, std::get<bool>(value));
      break;
    case FieldType::IntegerList: {
      const auto& widths = std::get<std::vector<long long>>(value);
      const std::vector<int> read =
          r.integers(key, static_cast<int>(f.low), static_cast<int>(f.high),
                     std::vector<int>(widths.begin(), widths.end()));
      value = std::vector<long long>(read.begin(), read.end());
      break;
    }
  }
  train::setField(c, f, value, where);
}

QJsonValue fieldToJson(const train::ExperimentField& f, const ExperimentConfig& c) {
  const train::FieldValue v = f.get(c);
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v);
  if (std::holds_alternative<long long>(v)) return static_cast<double>(std::get<long long>(v));
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::string>(v)) return text(std::get<std::string>(v));
  if (std::holds_alternative<std::vector<long long>>(v)) {
    QJsonArray list;
    for (long long n : std::get<std::vector<long long>>(v)) list.append(static_cast<double>(n));
    return list;
  }
  return QJsonValue(QJsonValue::Null);
}

}  // namespace

QJsonObject experimentToJson(const ExperimentConfig& c) {
  QJsonObject sections;
  for (const auto& f : train::experimentFields()) {
    if (!f.persisted) continue;
    const QString section = QString::fromStdString(f.section());
    QJsonObject object = sections.value(section).toObject();
    object.insert(QString::fromStdString(f.key()), fieldToJson(f, c));
    sections.insert(section, object);
  }
  QJsonObject json{{"format", kExperimentFormat}, {"version", kExperimentVersion}};
  for (auto it = sections.begin(); it != sections.end(); ++it) json.insert(it.key(), it.value());
  return json;
}

ExperimentConfig experimentFromJson(const QJsonObject& json, const ExperimentConfig& base) {
  ExperimentConfig c = base;
  JsonReader root(json, {});
  const QString expectedFormat = QString::fromLatin1(kExperimentFormat);
  const QString format = root.string(QStringLiteral("format"), false, {}, true);
  if (format != expectedFormat) {
    root.fail(QStringLiteral("format"),
              QStringLiteral("expected \"%1\", got %2")
                  .arg(expectedFormat, json.contains(QLatin1String("format"))
                                           ? QLatin1Char('"') + clipped(format) + QLatin1Char('"')
                                           : QStringLiteral("nothing")));
  }
  if (!json.contains(QLatin1String("version")))
    root.fail(QStringLiteral("version"), QStringLiteral("expected 1, got nothing"));
  const long long version = root.integer(QStringLiteral("version"), 0, 1e9, 0);
  if (version != kExperimentVersion) {
    root.fail(
        QStringLiteral("version"),
        QStringLiteral("expected %1, got %2%3")
            .arg(kExperimentVersion)
            .arg(version)
            .arg(version > kExperimentVersion ? QStringLiteral(" (written by a newer EpsilonLab)")
                                              : QString()));
  }
  root.allow({"dataset", "model", "privacy", "optimizer", "training"});
  root.finish();
  for (const char* section : kSections) {
    JsonReader reader = root.child(QString::fromLatin1(section));
    for (const auto& f : train::experimentFields())
      if (f.persisted && f.section() == section) readField(reader, f, c);
    reader.finish();
  }
  return c;
}

ExperimentConfig readExperimentFile(const QString& path, const ExperimentConfig& base,
                                    bool datasetGiven) {
  return experimentFromFileJson(
      readJsonObjectFile(path, kMaxExperimentFileBytes, QStringLiteral("experiment file")), path,
      base, datasetGiven);
}

ExperimentConfig experimentFromFileJson(const QJsonObject& json, const QString& path,
                                        const ExperimentConfig& base, bool datasetGiven) {
  try {
    ExperimentConfig c = experimentFromJson(json, base);
    if (!datasetGiven && !json.value(QLatin1String("dataset")).toObject().contains("name"))
      throw ConfigError(
          "dataset.name: missing; an experiment file must name its data set, e.g. \"dataset\": "
          "{\"name\": \"" +
          base.dataset.name + "\"} (or give --dataset)");
    return c;
  } catch (const ConfigError& e) {
    throw ConfigError(clipped(path).toStdString() + ": " + e.what());
  }
}

QJsonObject progressToJson(const train::ProgressEvent& e) {
  // The evaluation point's own schema, then what only a live event knows.
  QJsonObject o = evalPointToJson(toEvalPoint(e));
  o.insert("run", static_cast<double>(e.runId));
  o.insert("total_steps", static_cast<double>(e.totalSteps));
  insertStatement(o, e.privacy);  // readEvent reads its words back
  o.insert("gradient_sigma", numberToJson(e.gradientSigma));
  o.insert("learning_rate", numberToJson(e.learningRate));
  if (std::isfinite(e.countNoise)) o.insert("count_noise", e.countNoise);
  return o;
}

void insertStatement(QJsonObject& o, const privacy::PrivacyStatement& s) {
  o.insert("epsilon", numberToJson(s.epsilon));
  o.insert("delta", s.delta);
  o.insert("accountant", privacy::accountantKindName(s.accountant));
  o.insert("sampling", privacy::samplingWords(s.sampling));
  o.insert("privacy_status", privacy::statusWords(s.status));
  o.insert("epsilon_is_guarantee", s.isGuarantee());
  if (s.order) o.insert("rdp_order", *s.order);
  if (s.nominalEpsilon) {
    o.insert("nominal_epsilon", numberToJson(*s.nominalEpsilon));
    o.insert("nominal_label", privacy::kNominalLabel);
  }
  // The DP-PCA release that ε includes (Abadi et al. 2016, §5): "PCA: σ 7 on 10% of the data (…)".
  if (const auto& pca = s.pca)
    o.insert("pca_label", text(privacy::dpPcaLabel(pca->noiseMultiplier, pca->sampleFraction)));
  if (s.noiseRounded) o.insert("sigma_rounded_for_accounting", true);
}

QJsonObject runToJson(const train::RunResult& r) {
  QJsonArray history;
  for (const auto& e : r.history) history.append(progressToJson(e));
  return QJsonObject{
      {"format", "epsilonlab-run"},
      {"version", 1},
      {"status", text(train::runStatusName(r.status))},
      {"message", text(r.message)},
      {"experiment", experimentToJson(r.config)},
      {"history", history},
      {"model", QJsonObject{{"parameters", static_cast<double>(r.parameterCount)},
                            {"summary", text(r.modelSummary)}}},
      {"train_examples", static_cast<double>(r.trainSize)},
      {"test_examples", static_cast<double>(r.testSize)},
      {"elapsed_seconds", r.elapsedSeconds},
  };
}

const QStringList& progressCsvColumns() {
  static const QStringList columns =
      QStringList{"run", "total_steps"} + evalPointKeys() +
      QStringList{"delta",          "accountant",   "sampling", "epsilon_is_guarantee",
                  "gradient_sigma", "learning_rate"};
  return columns;
}

QByteArray historyToCsv(const std::vector<train::ProgressEvent>& history) {
  CsvWriter csv(progressCsvColumns());
  for (const auto& e : history) {
    const QJsonObject o = progressToJson(e);
    QStringList cells;
    for (const QString& column : progressCsvColumns()) cells << csvJson(o.value(column));
    csv.addRow(cells);
  }
  return csv.bytes();
}

}  // namespace epsilon::ui

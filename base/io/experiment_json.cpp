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

namespace epsilon::ui {

namespace {

using train::ExperimentConfig;

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

// A name parsed by `parse(text, field)`, which throws ConfigError naming the field.
template <class Value, class Parse>
void choice(JsonReader& r, const char* key, Value& out, Parse parse) {
  if (!r.has(QLatin1String(key))) return r.allow({QLatin1String(key)});
  out = parse(r.string(QLatin1String(key), false, {}, true).toStdString(),
              r.path(QLatin1String(key)).toStdString());
}

template <class Integer>
void integer(JsonReader& r, const char* key, Integer& out, double low, double high) {
  out = static_cast<Integer>(r.integer(QLatin1String(key), low, high, static_cast<long long>(out)));
}

void number(JsonReader& r, const char* key, double& out) {
  out = r.number(QLatin1String(key), false, out);
}
void boolean(JsonReader& r, const char* key, bool& out) {
  out = r.boolean(QLatin1String(key), out);
}

privacy::AccountantKind parseAccountant(const std::string& name, const std::string& field) {
  if (name == "rdp") return privacy::AccountantKind::Rdp;
  if (name == "pld") return privacy::AccountantKind::Pld;
  throw ConfigError(field + ": expected one of rdp, pld, got '" + name + "'");
}

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53: doubles hold every integer below

void readDataset(JsonReader s, train::DatasetConfig& d) {
  d.name =
      s.string(QStringLiteral("name"), false, QString::fromStdString(d.name), true).toStdString();
  number(s, "noise", d.options.noise);
  integer(s, "size", d.options.size, 0, 1e9);
  number(s, "train_fraction", d.options.trainFraction);
  integer(s, "seed", d.options.seed, 0, kMaxExactInteger);
  integer(s, "max_train", d.options.maxTrain, 0, 1e12);
  s.finish();
}

void readModel(JsonReader s, train::ModelConfig& m) {
  m.preset = s.string(QStringLiteral("preset"), false, QString::fromStdString(m.preset), true)
                 .toStdString();
  m.hiddenWidths = s.integers(QStringLiteral("hidden"), 1, 65536, m.hiddenWidths);
  // pca-mlp's projection; files written before it existed have none of these keys.
  integer(s, "pca_dims", m.pcaDims, 1, 65536);
  number(s, "pca_noise", m.pcaNoise);
  number(s, "pca_sample", m.pcaSampleFraction);
  s.finish();
}

void readPrivatizer(JsonReader& s, privacy::PrivatizerOptions& z) {
  choice(s, "privatizer", z.kind, [](const std::string& t, const std::string& f) {
    return privacy::parsePrivatizerKind(t, f);
  });
  number(s, "clip_norm", z.clipNorm);
  boolean(s, "per_layer_clip", z.perLayer);
  number(s, "tanh_c", z.tanhScale);
  number(s, "tanh_k", z.tanhActiveRange);
  number(s, "target_quantile", z.targetQuantile);
  number(s, "clip_learning_rate", z.clipLearningRate);
  choice(s, "clip_policy", z.clipPolicy,
         [](const std::string& t, const std::string& f) { return privacy::parseClipPolicy(t, f); });
  z.clipCountStddev = s.optionalNumber(QStringLiteral("clip_count_stddev"), z.clipCountStddev);
  z.fractionStddev = s.optionalNumber(QStringLiteral("fraction_stddev"), z.fractionStddev);
}

void readPrivacy(JsonReader s, train::PrivacyConfig& p) {
  readPrivatizer(s, p.privatizer);
  number(s, "noise_multiplier", p.noise.initial);
  choice(s, "noise_schedule", p.noise.decay,
         [](const std::string& t, const std::string& f) { return privacy::parseNoiseDecay(t, f); });
  number(s, "noise_decay_rate", p.noise.rate);
  integer(s, "microbatch_size", p.microbatchSize, 1, 1e9);
  number(s, "delta", p.delta);
  choice(s, "accountant", p.accountant, parseAccountant);
  choice(s, "sampling", p.sampling,
         [](const std::string& t, const std::string& f) { return train::parseSamplingKind(t, f); });
  p.secureNoise = s.boolean(QStringLiteral("secure_noise"), p.secureNoise);
  s.finish();
}

void readOptimizer(JsonReader s, train::OptimizerConfig& o) {
  choice(s, "name", o.options.kind, [](const std::string& t, const std::string& f) {
    return optim::parseOptimizerKind(t, f);
  });
  number(s, "learning_rate", o.learningRate);
  number(s, "momentum", o.options.momentum);
  boolean(s, "nesterov", o.options.nesterov);
  number(s, "beta1", o.options.beta1);
  number(s, "beta2", o.options.beta2);
  number(s, "rho", o.options.rho);
  number(s, "initial_accumulator", o.options.initialAccumulator);
  number(s, "epsilon", o.options.epsilon);
  choice(s, "lr_decay", o.lrDecay, [](const std::string& t, const std::string& f) {
    return optim::parseLearningRateDecay(t, f);
  });
  number(s, "lr_decay_rate", o.lrDecayRate);
  number(s, "lr_decay_epochs", o.lrDecayEpochs);
  s.finish();
}

void readTraining(JsonReader s, train::TrainingConfig& t) {
  integer(s, "lot_size", t.lotSize, 1, 1e9);
  number(s, "epochs", t.epochs);
  integer(s, "steps", t.steps, 0, 1e15);
  boolean(s, "eval_every_epoch", t.evalEveryEpoch);
  integer(s, "eval_every_steps", t.evalEverySteps, 0, 1e15);
  integer(s, "seed", t.seed, 0, kMaxExactInteger);
  boolean(s, "snapshots", t.snapshots);
  s.finish();
}

QJsonObject privacyToJson(const ExperimentConfig& c) {
  const auto& z = c.privacy.privatizer;
  const auto optional = [](const std::optional<double>& v) {
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
  };
  return QJsonObject{{"privatizer", text(privacy::privatizerName(z.kind))},
                     {"clip_norm", z.clipNorm},
                     {"per_layer_clip", z.perLayer},
                     {"tanh_c", z.tanhScale},
                     {"tanh_k", z.tanhActiveRange},
                     {"target_quantile", z.targetQuantile},
                     {"clip_learning_rate", z.clipLearningRate},
                     {"clip_policy", text(privacy::clipPolicyName(z.clipPolicy))},
                     {"clip_count_stddev", optional(z.clipCountStddev)},
                     {"fraction_stddev", optional(z.fractionStddev)},
                     {"noise_multiplier", c.privacy.noise.initial},
                     {"noise_schedule", text(privacy::noiseDecayName(c.privacy.noise.decay))},
                     {"noise_decay_rate", c.privacy.noise.rate},
                     {"microbatch_size", c.privacy.microbatchSize},
                     {"delta", c.privacy.delta},
                     {"accountant", privacy::accountantKindName(c.privacy.accountant)},
                     {"sampling", text(train::samplingName(c.privacy.sampling))},
                     {"secure_noise", c.privacy.secureNoise}};
}

QJsonObject optimizerToJson(const ExperimentConfig& c) {
  return QJsonObject{{"name", text(optim::optimizerName(c.optimizer.options.kind))},
                     {"learning_rate", c.optimizer.learningRate},
                     {"momentum", c.optimizer.options.momentum},
                     {"nesterov", c.optimizer.options.nesterov},
                     {"beta1", c.optimizer.options.beta1},
                     {"beta2", c.optimizer.options.beta2},
                     {"rho", c.optimizer.options.rho},
                     {"initial_accumulator", c.optimizer.options.initialAccumulator},
                     {"epsilon", c.optimizer.options.epsilon},
                     {"lr_decay", text(optim::learningRateDecayName(c.optimizer.lrDecay))},
                     {"lr_decay_rate", c.optimizer.lrDecayRate},
                     {"lr_decay_epochs", c.optimizer.lrDecayEpochs}};
}

}  // namespace

QJsonObject experimentToJson(const ExperimentConfig& c) {
  QJsonArray hidden;
  for (int w : c.model.hiddenWidths) hidden.append(w);
  return QJsonObject{
      {"format", kExperimentFormat},
      {"version", kExperimentVersion},
      {"dataset", QJsonObject{{"name", text(c.dataset.name)},
                              {"noise", c.dataset.options.noise},
                              {"size", c.dataset.options.size},
                              {"train_fraction", c.dataset.options.trainFraction},
                              {"seed", static_cast<double>(c.dataset.options.seed)},
                              {"max_train", static_cast<double>(c.dataset.options.maxTrain)}}},
      {"model", QJsonObject{{"preset", text(c.model.preset)},
                            {"hidden", hidden},
                            {"pca_dims", c.model.pcaDims},
                            {"pca_noise", c.model.pcaNoise},
                            {"pca_sample", c.model.pcaSampleFraction}}},
      {"privacy", privacyToJson(c)},
      {"optimizer", optimizerToJson(c)},
      {"training", QJsonObject{{"lot_size", c.training.lotSize},
                               {"epochs", c.training.epochs},
                               {"steps", static_cast<double>(c.training.steps)},
                               {"eval_every_epoch", c.training.evalEveryEpoch},
                               {"eval_every_steps", static_cast<double>(c.training.evalEverySteps)},
                               {"seed", static_cast<double>(c.training.seed)},
                               {"snapshots", c.training.snapshots}}},
  };
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
                                           ? QLatin1Char('"') + format + QLatin1Char('"')
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
  readDataset(root.child(QStringLiteral("dataset")), c.dataset);
  readModel(root.child(QStringLiteral("model")), c.model);
  readPrivacy(root.child(QStringLiteral("privacy")), c.privacy);
  readOptimizer(root.child(QStringLiteral("optimizer")), c.optimizer);
  readTraining(root.child(QStringLiteral("training")), c.training);
  return c;
}

ExperimentConfig readExperimentFile(const QString& path, const ExperimentConfig& base) {
  constexpr qint64 kMaxBytes = 16 << 20;  // an experiment is a few hundred bytes
  const QJsonObject json = readJsonObjectFile(path, kMaxBytes, QStringLiteral("experiment file"));
  try {
    return experimentFromJson(json, base);
  } catch (const ConfigError& e) {
    throw ConfigError(path.toStdString() + ": " + e.what());
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

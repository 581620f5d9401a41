#include "ui/experiment_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QFile>

#include <cmath>
#include <set>
#include <stdexcept>

#include "core/common/errors.h"

namespace epsilon::ui {

namespace {

using train::ExperimentConfig;

QJsonValue number(double value) { return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null); }
QString text(const std::string& s) { return QString::fromStdString(s); }

std::string describe(const QJsonValue& v) {
  switch (v.type()) {
    case QJsonValue::Null:
      return "null";
    case QJsonValue::Bool:
      return v.toBool() ? "true" : "false";
    case QJsonValue::Double:
      return QString::number(v.toDouble(), 'g', 12).toStdString();
    case QJsonValue::String:
      return "\"" + v.toString().toStdString() + "\"";
    case QJsonValue::Array:
      return "an array";
    case QJsonValue::Object:
      return "an object";
    case QJsonValue::Undefined:
      break;
  }
  return "nothing";
}

// One object of the file: typed readers that remember which keys they were asked for, so
// finish() can name any key nobody knows.
class Section {
 public:
  Section(const QJsonObject& object, std::string prefix) : m_object(object), m_prefix(std::move(prefix)) {}

  void number(const char* key, double& out) {
    if (const auto v = take(key)) {
      if (!v->isDouble() || !std::isfinite(v->toDouble())) fail(key, "a number", *v);
      out = v->toDouble();
    }
  }
  void optionalNumber(const char* key, std::optional<double>& out) {
    if (const auto v = take(key)) {
      if (v->isNull()) {
        out.reset();
        return;
      }
      if (!v->isDouble() || !std::isfinite(v->toDouble())) fail(key, "a number or null", *v);
      out = v->toDouble();
    }
  }
  template <class Integer>
  void integer(const char* key, Integer& out, double low, double high) {
    if (const auto v = take(key)) {
      const double d = v->toDouble();
      if (!v->isDouble() || d != std::floor(d) || d < low || d > high) {
        fail(key, "an integer in [" + QString::number(low, 'g', 17).toStdString() + ", " +
                      QString::number(high, 'g', 17).toStdString() + "]", *v);
      }
      out = static_cast<Integer>(d);
    }
  }
  void boolean(const char* key, bool& out) {
    if (const auto v = take(key)) {
      if (!v->isBool()) fail(key, "true or false", *v);
      out = v->toBool();
    }
  }
  void string(const char* key, std::string& out) {
    if (const auto v = take(key)) {
      if (!v->isString()) fail(key, "a string", *v);
      out = v->toString().toStdString();
    }
  }
  // A name parsed by `parse(text, field)`, which throws ConfigError naming the field.
  template <class Value, class Parse>
  void choice(const char* key, Value& out, Parse parse) {
    std::string name;
    if (!m_object.contains(QLatin1String(key))) {
      m_known.insert(key);
      return;
    }
    string(key, name);
    out = parse(name, field(key));
  }
  void intList(const char* key, std::vector<int>& out) {
    if (const auto v = take(key)) {
      if (!v->isArray()) fail(key, "an array of integers", *v);
      std::vector<int> values;
      for (const QJsonValue& item : v->toArray()) {
        const double d = item.toDouble();
        if (!item.isDouble() || d != std::floor(d) || d < 1 || d > 65536) fail(key, "integers in [1, 65536]", item);
        values.push_back(static_cast<int>(d));
      }
      out = values;
    }
  }
  // Marks a key as known without reading it (the root's sections).
  void allow(const char* key) { m_known.insert(key); }
  // Throws for the first key no reader asked for.
  void finish() const {
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
      if (!m_known.contains(it.key().toStdString())) {
        throw ConfigError(field(it.key().toStdString().c_str()) + ": unknown key");
      }
    }
  }
  std::string field(const char* key) const { return m_prefix.empty() ? key : m_prefix + "." + key; }

 private:
  std::optional<QJsonValue> take(const char* key) {
    m_known.insert(key);
    if (!m_object.contains(QLatin1String(key))) return std::nullopt;
    return m_object.value(QLatin1String(key));
  }
  [[noreturn]] void fail(const char* key, const std::string& expected, const QJsonValue& got) const {
    throw ConfigError(field(key) + ": expected " + expected + ", got " + describe(got));
  }

  QJsonObject m_object;
  std::string m_prefix;
  std::set<std::string> m_known;
};

QJsonObject sectionOf(const QJsonObject& root, const char* name) {
  const QJsonValue v = root.value(QLatin1String(name));
  if (v.isUndefined()) return {};
  if (!v.isObject()) throw ConfigError(std::string(name) + ": expected an object, got " + describe(v));
  return v.toObject();
}

privacy::AccountantKind parseAccountant(const std::string& name, const std::string& field) {
  if (name == "rdp") return privacy::AccountantKind::Rdp;
  if (name == "pld") return privacy::AccountantKind::Pld;
  throw ConfigError(field + ": expected one of rdp, pld, got '" + name + "'");
}

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53: doubles hold every integer below

void readDataset(const QJsonObject& root, train::DatasetConfig& d) {
  Section s(sectionOf(root, "dataset"), "dataset");
  s.string("name", d.name);
  s.number("noise", d.options.noise);
  s.integer("size", d.options.size, 0, 1e9);
  s.number("train_fraction", d.options.trainFraction);
  s.integer("seed", d.options.seed, 0, kMaxExactInteger);
  s.integer("max_train", d.options.maxTrain, 0, 1e12);
  s.finish();
}

void readModel(const QJsonObject& root, train::ModelConfig& m) {
  Section s(sectionOf(root, "model"), "model");
  s.string("preset", m.preset);
  s.intList("hidden", m.hiddenWidths);
  s.finish();
}

void readPrivacy(const QJsonObject& root, train::PrivacyConfig& p) {
  Section s(sectionOf(root, "privacy"), "privacy");
  auto& z = p.privatizer;
  s.choice("privatizer", z.kind, [](const std::string& t, const std::string& f) { return privacy::parsePrivatizerKind(t, f); });
  s.number("clip_norm", z.clipNorm);
  s.boolean("per_layer_clip", z.perLayer);
  s.number("tanh_c", z.tanhScale);
  s.number("tanh_k", z.tanhActiveRange);
  s.number("target_quantile", z.targetQuantile);
  s.number("clip_learning_rate", z.clipLearningRate);
  s.choice("clip_policy", z.clipPolicy, [](const std::string& t, const std::string& f) { return privacy::parseClipPolicy(t, f); });
  s.optionalNumber("clip_count_stddev", z.clipCountStddev);
  s.optionalNumber("fraction_stddev", z.fractionStddev);
  s.number("noise_multiplier", p.noise.initial);
  s.choice("noise_schedule", p.noise.decay, [](const std::string& t, const std::string& f) { return privacy::parseNoiseDecay(t, f); });
  s.number("noise_decay_rate", p.noise.rate);
  s.integer("microbatch_size", p.microbatchSize, 1, 1e9);
  s.number("delta", p.delta);
  s.choice("accountant", p.accountant, parseAccountant);
  s.choice("sampling", p.sampling, [](const std::string& t, const std::string& f) { return train::parseSamplingKind(t, f); });
  s.boolean("secure_noise", p.secureNoise);
  s.finish();
}

void readOptimizer(const QJsonObject& root, train::OptimizerConfig& o) {
  Section s(sectionOf(root, "optimizer"), "optimizer");
  s.choice("name", o.options.kind, [](const std::string& t, const std::string& f) { return optim::parseOptimizerKind(t, f); });
  s.number("learning_rate", o.learningRate);
  s.number("momentum", o.options.momentum);
  s.boolean("nesterov", o.options.nesterov);
  s.number("beta1", o.options.beta1);
  s.number("beta2", o.options.beta2);
  s.number("rho", o.options.rho);
  s.number("initial_accumulator", o.options.initialAccumulator);
  s.number("epsilon", o.options.epsilon);
  s.choice("lr_decay", o.lrDecay, [](const std::string& t, const std::string& f) { return optim::parseLearningRateDecay(t, f); });
  s.number("lr_decay_rate", o.lrDecayRate);
  s.number("lr_decay_epochs", o.lrDecayEpochs);
  s.finish();
}

void readTraining(const QJsonObject& root, train::TrainingConfig& t) {
  Section s(sectionOf(root, "training"), "training");
  s.integer("lot_size", t.lotSize, 1, 1e9);
  s.number("epochs", t.epochs);
  s.integer("steps", t.steps, 0, 1e15);
  s.boolean("eval_every_epoch", t.evalEveryEpoch);
  s.integer("eval_every_steps", t.evalEverySteps, 0, 1e15);
  s.integer("seed", t.seed, 0, kMaxExactInteger);
  s.boolean("snapshots", t.snapshots);
  s.finish();
}

}  // namespace

QJsonObject experimentToJson(const ExperimentConfig& c) {
  QJsonArray hidden;
  for (int w : c.model.hiddenWidths) hidden.append(w);
  const auto& z = c.privacy.privatizer;
  const auto optional = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
  return QJsonObject{
      {"format", kExperimentFormat},
      {"version", kExperimentVersion},
      {"dataset", QJsonObject{{"name", text(c.dataset.name)},
                              {"noise", c.dataset.options.noise},
                              {"size", c.dataset.options.size},
                              {"train_fraction", c.dataset.options.trainFraction},
                              {"seed", static_cast<double>(c.dataset.options.seed)},
                              {"max_train", static_cast<double>(c.dataset.options.maxTrain)}}},
      {"model", QJsonObject{{"preset", text(c.model.preset)}, {"hidden", hidden}}},
      {"privacy", QJsonObject{{"privatizer", text(privacy::privatizerName(z.kind))},
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
                              {"secure_noise", c.privacy.secureNoise}}},
      {"optimizer", QJsonObject{{"name", text(optim::optimizerName(c.optimizer.options.kind))},
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
                                {"lr_decay_epochs", c.optimizer.lrDecayEpochs}}},
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
  Section root(json, "");
  std::string format;
  if (!json.contains(QLatin1String("format"))) throw ConfigError(std::string("format: expected \"") + kExperimentFormat + "\", got nothing");
  root.string("format", format);
  if (format != kExperimentFormat) {
    throw ConfigError(std::string("format: expected \"") + kExperimentFormat + "\", got \"" + format + "\"");
  }
  int version = 0;
  if (!json.contains(QLatin1String("version"))) throw ConfigError("version: expected 1, got nothing");
  root.integer("version", version, 0, 1e9);
  if (version != kExperimentVersion) {
    throw ConfigError("version: expected " + std::to_string(kExperimentVersion) + ", got " + std::to_string(version) +
                      (version > kExperimentVersion ? " (written by a newer EpsilonLab)" : ""));
  }
  for (const char* section : {"dataset", "model", "privacy", "optimizer", "training"}) root.allow(section);
  root.finish();
  readDataset(json, c.dataset);
  readModel(json, c.model);
  readPrivacy(json, c.privacy);
  readOptimizer(json, c.optimizer);
  readTraining(json, c.training);
  return c;
}

ExperimentConfig readExperimentFile(const QString& path, const ExperimentConfig& base) {
  const std::string where = path.toStdString();
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    throw ConfigError(where + ": cannot open the experiment file (" + file.errorString().toStdString() + ")");
  }
  constexpr qint64 kMaxBytes = 16 << 20;  // an experiment is a few hundred bytes
  if (file.size() > kMaxBytes) {
    throw ConfigError(where + ": expected an experiment file of at most 16 MiB, found " + std::to_string(file.size()) + " bytes");
  }
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError) {
    throw ConfigError(where + ": not valid JSON at offset " + std::to_string(error.offset) + " (" +
                      error.errorString().toStdString() + ")");
  }
  if (!document.isObject()) throw ConfigError(where + ": expected a JSON object at the top level");
  try {
    return experimentFromJson(document.object(), base);
  } catch (const ConfigError& e) {
    throw ConfigError(where + ": " + e.what());
  }
}

QJsonObject progressToJson(const train::ProgressEvent& e) {
  QJsonObject o{
      {"run", static_cast<double>(e.runId)},
      {"epoch", e.epoch},
      {"step", static_cast<double>(e.step)},
      {"total_steps", static_cast<double>(e.totalSteps)},
      {"train_loss", number(e.trainLoss)},
      {"test_accuracy", number(e.testAccuracy)},
      {"test_loss", number(e.testLoss)},
      {"epsilon", number(e.privacy.epsilon)},
      {"delta", e.privacy.delta},
      {"accountant", text(e.privacy.accountant)},
      {"sampling", text(e.privacy.sampling)},
      {"privacy_status", text(e.privacy.status)},
      {"epsilon_is_guarantee", e.privacy.isGuarantee},
      {"sigma", number(e.sigma)},
      {"gradient_sigma", number(e.gradientSigma)},
      {"clip_norm", number(e.clipNorm)},
      {"learning_rate", number(e.learningRate)},
      {"fraction_clipped", number(e.fractionClipped)},
      {"mean_grad_norm", number(e.meanGradientNorm)},
      {"elapsed_s", e.elapsedSeconds},
  };
  if (std::isfinite(e.privacy.order)) o.insert("rdp_order", e.privacy.order);
  if (!e.privacy.nominalLabel.empty()) {
    o.insert("nominal_epsilon", number(e.privacy.nominalEpsilon));
    o.insert("nominal_label", text(e.privacy.nominalLabel));
  }
  if (std::isfinite(e.countNoise)) o.insert("count_noise", e.countNoise);
  if (e.privacy.noiseRounded) o.insert("sigma_rounded_for_accounting", true);
  return o;
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
      {"model", QJsonObject{{"parameters", static_cast<double>(r.parameterCount)}, {"summary", text(r.modelSummary)}}},
      {"train_examples", static_cast<double>(r.trainSize)},
      {"test_examples", static_cast<double>(r.testSize)},
      {"elapsed_s", r.elapsedSeconds},
  };
}

QByteArray historyToCsv(const std::vector<train::ProgressEvent>& history) {
  static const char* const columns[] = {"run", "epoch", "step", "total_steps", "train_loss", "test_accuracy", "test_loss",
                                        "epsilon", "nominal_epsilon", "delta", "accountant", "sampling", "epsilon_is_guarantee",
                                        "sigma", "gradient_sigma", "clip_norm", "learning_rate", "fraction_clipped",
                                        "mean_grad_norm", "elapsed_s"};
  QByteArray csv;
  for (const char* column : columns) csv += QByteArray(column) + (column == columns[std::size(columns) - 1] ? "\n" : ",");
  for (const auto& e : history) {
    const QJsonObject o = progressToJson(e);
    QStringList cells;
    for (const char* column : columns) {
      const QJsonValue v = o.value(QLatin1String(column));
      if (v.isDouble()) {
        cells << QString::number(v.toDouble(), 'g', 10);
      } else if (v.isBool()) {
        cells << (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
      } else if (v.isString()) {
        QString cell = v.toString();
        if (cell.contains(',') || cell.contains('"')) cell = '"' + cell.replace('"', QStringLiteral("\"\"")) + '"';
        cells << cell;
      } else {
        cells << QString();
      }
    }
    csv += cells.join(',').toUtf8() + "\n";
  }
  return csv;
}

}  // namespace epsilon::ui

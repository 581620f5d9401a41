#include "core/train/experiment_schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/nn/model.h"

namespace epsilon::train {

namespace {

using C = ExperimentConfig;
using Type = FieldType;

constexpr double kExactIntegers = 9007199254740992.0;  // 2^53: doubles (JSON) hold all below
constexpr double kNoRange[2] = {1, 0};                 // low > high: no range

// What every row gives: names, range, unit, value name, help.
struct Row {
  const char* name;
  const char* word;
  std::vector<OldSpelling> old;
  double low, high;
  const char* unit;
  const char* valueName;
  const char* help;
};

ExperimentField base(const Row& r, Type type) {
  ExperimentField f;
  f.name = r.name;
  f.word = r.word;
  f.old = r.old;
  f.type = type;
  f.low = r.low;
  f.high = r.high;
  f.unit = r.unit;
  f.valueName = r.valueName;
  f.help = r.help;
  return f;
}

// `ref` is a generic lambda returning a reference to the member, const or not.
template <class Ref>
ExperimentField number(const Row& r, Ref ref) {
  ExperimentField f = base(r, Type::Number);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<double>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) { ref(c) = std::get<double>(v); };
  return f;
}

template <class Ref>
ExperimentField optionalNumber(const Row& r, Ref ref) {
  ExperimentField f = base(r, Type::OptionalNumber);
  f.get = [ref](const C& c) -> FieldValue {
    if (!ref(c)) return std::monostate{};
    return *ref(c);
  };
  f.set = [ref](C& c, const FieldValue& v) {
    if (std::holds_alternative<double>(v))
      ref(c) = std::get<double>(v);
    else
      ref(c).reset();
  };
  return f;
}

template <class Ref>
ExperimentField integer(const Row& r, Ref ref) {
  ExperimentField f = base(r, Type::Integer);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<long long>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) {
    using T = std::remove_reference_t<decltype(ref(c))>;
    ref(c) = static_cast<T>(std::get<long long>(v));
  };
  return f;
}

template <class Ref>
ExperimentField boolean(const Row& r, Ref ref) {
  ExperimentField f = base(r, Type::Boolean);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<bool>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) { ref(c) = std::get<bool>(v); };
  return f;
}

template <class Ref>
ExperimentField text(const Row& r, Ref ref) {
  ExperimentField f = base(r, Type::Text);
  f.get = [ref](const C& c) -> FieldValue { return std::string(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) { ref(c) = std::get<std::string>(v); };
  return f;
}

// A choice between names; `name` and `parse` convert the member (parse sees a listed name).
template <class Ref, class Name, class Parse>
ExperimentField choice(const Row& r, std::vector<std::string> (*names)(), Ref ref, Name name,
                       Parse parse) {
  ExperimentField f = base(r, Type::Choice);
  f.choices = names;
  f.get = [ref, name](const C& c) -> FieldValue { return std::string(name(ref(c))); };
  const std::string field = r.name;
  f.set = [ref, parse, field](C& c, const FieldValue& v) {
    ref(c) = parse(std::get<std::string>(v), field);
  };
  return f;
}

std::vector<std::string> accountantNames() {
  return {"rdp", "pld"};
}
std::vector<std::string> samplingNames() {
  return {"poisson", "shuffle"};
}
std::vector<std::string> clipPolicyNames() {
  return {"linear", "geometric"};
}

#define FIELD(expr) [](auto& c) -> auto& { return c.expr; }

void addDataset(std::vector<ExperimentField>& t) {
  t.push_back(text({"dataset.name", "dataset", {}, 1, 0, "", "NAME",
                    "Data set name (see `datasets`) or folder."},
                   FIELD(dataset.name)));
  t.push_back(number({"dataset.noise", "data_noise", {}, 1, 0, "", "X",
                      "Synthetic sets: label noise in [0, 1]."},
                     FIELD(dataset.options.noise)));
  t.push_back(integer({"dataset.size", "data_size", {}, 0, 1e9, "points", "N",
                       "Synthetic sets: number of points."},
                      FIELD(dataset.options.size)));
  t.push_back(number({"dataset.train_fraction", "train_fraction", {}, 1, 0, "", "X",
                      "Synthetic sets: share of points used for training."},
                     FIELD(dataset.options.trainFraction)));
  t.push_back(integer({"dataset.seed", "data_seed", {}, 0, kExactIntegers, "", "N",
                       "Synthetic sets: generator seed."},
                      FIELD(dataset.options.seed)));
  t.push_back(integer({"dataset.max_train", "max_train", {{"train_size", ""}}, 0, 1e12, "examples",
                       "N", "Keep only the first N training examples (0 = all)."},
                      FIELD(dataset.options.maxTrain)));
}

void addModel(std::vector<ExperimentField>& t) {
  t.push_back(choice({"model.preset", "model", {}, 1, 0, "", "PRESET", "The network."},
                     nn::presetNames, FIELD(model.preset),
                     [](const std::string& s) { return s; },
                     [](const std::string& s, const std::string&) { return s; }));
  ExperimentField hidden =
      base({"model.hidden", "hidden", {}, 1, 65536, "units", "W[,W...]",
            "mlp hidden layer widths, e.g. 256 or 128,64 (128/64 in a sweep's list)."},
           Type::IntegerList);
  hidden.get = [](const C& c) -> FieldValue {
    return std::vector<long long>(c.model.hiddenWidths.begin(), c.model.hiddenWidths.end());
  };
  hidden.set = [](C& c, const FieldValue& v) {
    const auto& widths = std::get<std::vector<long long>>(v);
    c.model.hiddenWidths.assign(widths.begin(), widths.end());
  };
  t.push_back(std::move(hidden));
  // pca-mlp's DP-PCA projection (Abadi et al. 2016, §5); its release is composed into ε.
  t.push_back(integer({"model.pca_dims", "pca_dims", {}, 1, 65536, "directions", "K",
                       "pca-mlp: principal directions the DP-PCA projection keeps."},
                      FIELD(model.pcaDims)));
  t.push_back(number({"model.pca_noise", "pca_noise", {}, 1, 0, "", "S",
                      "pca-mlp: noise multiplier sigma_pca on the covariance (0 = not private); "
                      "its epsilon is composed with the steps'."},
                     FIELD(model.pcaNoise)));
  t.push_back(number({"model.pca_sample", "pca_sample", {}, 1, 0, "", "F",
                      "pca-mlp: share of the training set the projection is formed from, in "
                      "(0, 1] (no amplification by it is claimed)."},
                     FIELD(model.pcaSampleFraction)));
}

void addPrivatizer(std::vector<ExperimentField>& t) {
  t.push_back(choice({"privacy.privatizer", "privatizer", {}, 1, 0, "", "NAME",
                      "How each gradient is bounded."},
                     privacy::privatizerNames, FIELD(privacy.privatizer.kind),
                     privacy::privatizerName, privacy::parsePrivatizerKind));
  t.push_back(number({"privacy.clip_norm", "clip_norm", {}, 1, 0, "", "C",
                      "L2 clip norm C > 0 (the initial C for adaptive)."},
                     FIELD(privacy.privatizer.clipNorm)));
  t.push_back(boolean({"privacy.per_layer_clip", "per_layer_clip", {}, 1, 0, "", "",
                       "Clip each layer to C/sqrt(layers) instead of all at once."},
                      FIELD(privacy.privatizer.perLayer)));
  t.push_back(number({"privacy.tanh_c", "tanh_c", {}, 1, 0, "", "C",
                      "tanh filter output range factor c: g -> c*tanh(g/k)."},
                     FIELD(privacy.privatizer.tanhScale)));
  t.push_back(number(
      {"privacy.tanh_k", "tanh_k", {}, 1, 0, "", "K", "tanh filter active-range factor k."},
      FIELD(privacy.privatizer.tanhActiveRange)));
  t.push_back(number({"privacy.target_quantile", "target_quantile", {}, 1, 0, "", "G",
                      "Adaptive clipping: target unclipped quantile in (0, 1)."},
                     FIELD(privacy.privatizer.targetQuantile)));
  t.push_back(number({"privacy.clip_learning_rate", "clip_learning_rate", {{"clip_lr", ""}}, 1, 0,
                      "", "ETA", "Adaptive clipping: learning rate of the clip norm."},
                     FIELD(privacy.privatizer.clipLearningRate)));
  t.push_back(choice({"privacy.clip_policy", "clip_policy", {}, 1, 0, "", "NAME",
                      "Adaptive clipping's update of C."},
                     clipPolicyNames, FIELD(privacy.privatizer.clipPolicy),
                     privacy::clipPolicyName, privacy::parseClipPolicy));
  t.push_back(optionalNumber({"privacy.clip_count_stddev", "clip_count_stddev", {}, 1, 0, "", "S",
                              "Adaptive clipping: noise sigma_b on the unclipped count."},
                             FIELD(privacy.privatizer.clipCountStddev)));
  t.push_back(optionalNumber({"privacy.fraction_stddev", "fraction_stddev", {}, 1, 0, "", "S",
                              "Adaptive clipping: MindArmour's fraction_stddev (sigma_b / lot)."},
                             FIELD(privacy.privatizer.fractionStddev)));
}

void addNoise(std::vector<ExperimentField>& t) {
  t.push_back(number({"privacy.noise_multiplier", "noise_multiplier", {}, 1, 0, "", "SIGMA",
                      "Noise multiplier sigma >= 0 (the initial one with a schedule)."},
                     FIELD(privacy.noise.initial)));
  t.push_back(choice({"privacy.noise_schedule", "noise_schedule", {}, 1, 0, "", "NAME",
                      "Decay of sigma over the steps."},
                     privacy::noiseDecayNames, FIELD(privacy.noise.decay),
                     privacy::noiseDecayName, privacy::parseNoiseDecay));
  t.push_back(number({"privacy.noise_decay_rate", "noise_decay_rate", {{"noise_decay", ""}}, 1, 0,
                      "", "RHO", "Decay rate rho of the noise schedule."},
                     FIELD(privacy.noise.rate)));
  t.push_back(integer({"privacy.microbatch_size", "microbatch_size", {}, 1, 1e9, "examples", "M",
                       "Examples averaged per privatized unit (1 = per example)."},
                      FIELD(privacy.microbatchSize)));
  t.push_back(number(
      {"privacy.delta", "delta", {}, 1, 0, "", "D", "Target delta in (0, 1), well below 1/N."},
      FIELD(privacy.delta)));
  t.push_back(choice(
      {"privacy.accountant", "accountant", {}, 1, 0, "", "NAME", "The privacy accountant."},
      accountantNames, FIELD(privacy.accountant),
      [](privacy::AccountantKind k) { return std::string(privacy::accountantKindName(k)); },
      [](const std::string& s, const std::string&) { return privacy::parseAccountantKind(s); }));
  t.push_back(choice({"privacy.sampling", "sampling", {}, 1, 0, "", "NAME",
                      "How lots are drawn (the accountants assume poisson)."},
                     samplingNames, FIELD(privacy.sampling), samplingName, parseSamplingKind));
  t.push_back(boolean({"privacy.secure_noise", "secure_noise", {}, 1, 0, "", "",
                       "Draw the DP noise from the OS CSPRNG instead of the seeded stream: not "
                       "reproducible."},
                      FIELD(privacy.secureNoise)));
}

void addOptimizer(std::vector<ExperimentField>& t) {
  t.push_back(choice({"optimizer.name", "optimizer", {}, 1, 0, "", "NAME", "The optimizer."},
                     optim::optimizerNames, FIELD(optimizer.options.kind), optim::optimizerName,
                     optim::parseOptimizerKind));
  t.push_back(number({"optimizer.learning_rate", "learning_rate", {{"lr", ""}}, 1, 0, "", "ETA",
                      "Learning rate > 0."},
                     FIELD(optimizer.learningRate)));
  t.push_back(number({"optimizer.momentum", "momentum", {}, 1, 0, "", "MU", "Momentum mu in [0, 1)."},
                     FIELD(optimizer.options.momentum)));
  t.push_back(boolean({"optimizer.nesterov", "nesterov", {}, 1, 0, "", "", "Nesterov momentum."},
                      FIELD(optimizer.options.nesterov)));
  t.push_back(number({"optimizer.beta1", "beta1", {}, 1, 0, "", "B", "Adam beta1."},
                     FIELD(optimizer.options.beta1)));
  t.push_back(number({"optimizer.beta2", "beta2", {}, 1, 0, "", "B", "Adam beta2."},
                     FIELD(optimizer.options.beta2)));
  t.push_back(number({"optimizer.rho", "rho", {}, 1, 0, "", "R", "RMSprop decay rho."},
                     FIELD(optimizer.options.rho)));
  t.push_back(number({"optimizer.initial_accumulator", "initial_accumulator", {}, 1, 0, "", "A",
                      "Adagrad initial accumulator."},
                     FIELD(optimizer.options.initialAccumulator)));
  t.push_back(number({"optimizer.epsilon", "optimizer_epsilon", {}, 1, 0, "", "E",
                      "Adam/Adagrad/RMSprop denominator epsilon (not the privacy budget)."},
                     FIELD(optimizer.options.epsilon)));
  t.push_back(choice({"optimizer.lr_decay", "lr_decay", {}, 1, 0, "", "NAME",
                      "Learning-rate decay."},
                     optim::learningRateDecayNames, FIELD(optimizer.lrDecay),
                     optim::learningRateDecayName, optim::parseLearningRateDecay));
  t.push_back(number({"optimizer.lr_decay_rate", "lr_decay_rate", {}, 1, 0, "", "R",
                      "Learning-rate decay factor per period, in (0, 1]."},
                     FIELD(optimizer.lrDecayRate)));
  t.push_back(number({"optimizer.lr_decay_epochs", "lr_decay_epochs", {}, 1, 0, "epochs", "E",
                      "Learning-rate decay period."},
                     FIELD(optimizer.lrDecayEpochs)));
}

void addTraining(std::vector<ExperimentField>& t) {
  t.push_back(integer({"training.lot_size", "lot_size", {{"batch_size", ""}}, 1, 1e9, "examples",
                       "L", "Lot size L (expected, with Poisson sampling)."},
                      FIELD(training.lotSize)));
  t.push_back(number({"training.epochs", "epochs", {}, 1, 0, "epochs", "E",
                      "Epochs to train, in (0, 1e6] (may be fractional)."},
                     FIELD(training.epochs)));
  t.push_back(integer({"training.steps", "steps", {}, 0, 1e15, "steps", "T",
                       "Steps to train (0 = use epochs; overrides epochs)."},
                      FIELD(training.steps)));
  t.push_back(boolean({"training.eval_every_epoch", "eval_every_epoch", {{"no_epoch_eval", "false"}},
                       1, 0, "", "", "Evaluate at every epoch's end."},
                      FIELD(training.evalEveryEpoch)));
  t.push_back(integer({"training.eval_every_steps", "eval_every_steps", {{"eval_every", ""}}, 0,
                       1e15, "steps", "K", "Also evaluate every K steps (0 = only at epoch ends)."},
                      FIELD(training.evalEverySteps)));
  t.push_back(integer({"training.seed", "seed", {}, 0, kExactIntegers, "", "N",
                       "Seed of sampling, initialisation and noise."},
                      FIELD(training.seed)));
  t.push_back(boolean({"training.snapshots", "snapshots", {}, 1, 0, "", "",
                       "Attach a copy of the model to every evaluation."},
                      FIELD(training.snapshots)));
  // Run-time settings of the GUI: compared, never written to a file.
  ExperimentField stepEvents = boolean({"training.step_events", "step_events", {}, 1, 0, "", "",
                                        "Report every step's lot loss."},
                                       FIELD(training.stepEvents));
  ExperimentField norms = boolean({"training.gradient_norms", "gradient_norms", {}, 1, 0, "", "",
                                   "Report every step's pre-clip gradient norms."},
                                  FIELD(training.gradientNorms));
  ExperimentField pace = number({"training.pace_seconds", "pace_seconds", {}, 0, kMaxPaceSeconds,
                                 "seconds", "S", "Spread the steps over at least S seconds."},
                                FIELD(training.paceSeconds));
  for (ExperimentField* f : {&stepEvents, &norms, &pace}) {
    f->persisted = false;
    t.push_back(std::move(*f));
  }
}

#undef FIELD

std::vector<ExperimentField> makeTable() {
  std::vector<ExperimentField> t;
  addDataset(t);
  addModel(t);
  addPrivatizer(t);
  addNoise(t);
  addOptimizer(t);
  addTraining(t);
  return t;
}

std::string rangeNumber(double v) {
  if (v == kExactIntegers) return "2^53";
  return shortNumber(v);
}

[[noreturn]] void bad(const std::string& where, const std::string& expected,
                      const std::string& got) {
  throw ConfigError(where + ": expected " + expected + ", got " + got);
}

std::string quoted(const std::string& text) {
  return "'" + clippedText(text) + "'";
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::optional<double> toNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<long long> toInteger(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string valueText(const FieldValue& v) {
  if (std::holds_alternative<long long>(v)) return std::to_string(std::get<long long>(v));
  if (std::holds_alternative<double>(v)) return shortNumber(std::get<double>(v));
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? "true" : "false";
  if (std::holds_alternative<std::string>(v)) return quoted(std::get<std::string>(v));
  if (std::holds_alternative<std::vector<long long>>(v)) {
    std::string list;
    for (long long n : std::get<std::vector<long long>>(v))
      list += (list.empty() ? "" : ",") + std::to_string(n);
    return "[" + list + "]";
  }
  return "nothing";
}

bool inRange(const ExperimentField& f, double v) {
  return !f.hasRange() || (v >= f.low && v <= f.high);
}

// The value's type and range; throws naming `where`.
void check(const ExperimentField& f, const FieldValue& v, const std::string& where) {
  const auto wrong = [&] { bad(where, describeAccepted(f), valueText(v)); };
  switch (f.type) {
    case Type::Text:
      if (!std::holds_alternative<std::string>(v)) wrong();
      if (std::get<std::string>(v).empty()) bad(where, "a name", "nothing");
      return;
    case Type::Choice: {
      if (!std::holds_alternative<std::string>(v)) wrong();
      const auto names = f.choices();
      if (std::find(names.begin(), names.end(), std::get<std::string>(v)) == names.end()) wrong();
      return;
    }
    case Type::Integer:
      if (!std::holds_alternative<long long>(v) ||
          !inRange(f, static_cast<double>(std::get<long long>(v))))
        wrong();
      return;
    case Type::OptionalNumber:
      if (std::holds_alternative<std::monostate>(v)) return;
      [[fallthrough]];
    case Type::Number:
      if (!std::holds_alternative<double>(v) || !std::isfinite(std::get<double>(v)) ||
          !inRange(f, std::get<double>(v)))
        wrong();
      return;
    case Type::Boolean:
      if (!std::holds_alternative<bool>(v)) wrong();
      return;
    case Type::IntegerList:
      if (!std::holds_alternative<std::vector<long long>>(v)) wrong();
      for (long long n : std::get<std::vector<long long>>(v))
        if (!inRange(f, static_cast<double>(n))) wrong();
      return;
  }
}

}  // namespace

std::string ExperimentField::section() const {
  return name.substr(0, name.find('.'));
}
std::string ExperimentField::key() const {
  return name.substr(name.find('.') + 1);
}
std::string ExperimentField::flag() const {
  return flagOf(word);
}

std::string flagOf(const std::string& word) {
  std::string flag = word;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

const std::vector<ExperimentField>& experimentFields() {
  static const std::vector<ExperimentField> table = makeTable();
  return table;
}

const ExperimentField* fieldNamed(const std::string& name) {
  for (const auto& f : experimentFields())
    if (f.name == name) return &f;
  return nullptr;
}

const ExperimentField* fieldForWord(const std::string& word, const OldSpelling** old) {
  if (old) *old = nullptr;
  for (const auto& f : experimentFields()) {
    if (!f.persisted) continue;
    if (f.word == word) return &f;
    for (const auto& o : f.old) {
      if (o.word != word) continue;
      if (old) *old = &o;
      return &f;
    }
  }
  return nullptr;
}

std::string describeAccepted(const ExperimentField& f) {
  const std::string range =
      f.hasRange() ? " in [" + rangeNumber(f.low) + ", " + rangeNumber(f.high) + "]" : "";
  switch (f.type) {
    case Type::Text:
      return "a name";
    case Type::Choice:
      return "one of " + joined(f.choices());
    case Type::Integer:
      return "an integer" + range;
    case Type::Number:
      return "a finite number" + range;
    case Type::OptionalNumber:
      return "a finite number or none";
    case Type::Boolean:
      return "true or false";
    case Type::IntegerList:
      return "integers" + range + " separated by commas";
  }
  return {};
}

FieldValue parseFieldText(const ExperimentField& f, const std::string& text,
                          const std::string& where) {
  const auto wrong = [&]() -> FieldValue { bad(where, describeAccepted(f), quoted(text)); };
  FieldValue value;
  switch (f.type) {
    case Type::Text:
    case Type::Choice:
      value = text;
      break;
    case Type::Integer:
      if (const auto n = toInteger(text)) value = *n;
      else return wrong();
      break;
    case Type::OptionalNumber:
      if (text == "none") return std::monostate{};
      [[fallthrough]];
    case Type::Number:
      if (const auto d = toNumber(text)) value = *d;
      else return wrong();
      break;
    case Type::Boolean:
      if (text == "true" || text == "1") value = true;
      else if (text == "false" || text == "0") value = false;
      else return wrong();
      break;
    case Type::IntegerList: {
      std::vector<long long> list;
      std::size_t start = 0;
      while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.find('/', start));
        const std::string part = text.substr(start, end - start);
        if (!part.empty()) {
          const auto n = toInteger(part);
          if (!n) return wrong();
          list.push_back(*n);
        }
        if (end == std::string::npos) break;
        start = end + 1;
      }
      if (list.empty()) return wrong();
      value = list;
      break;
    }
  }
  check(f, value, where);
  return value;
}

std::string fieldText(const ExperimentField& f, const FieldValue& v) {
  if (std::holds_alternative<std::monostate>(v)) return "none";
  if (std::holds_alternative<double>(v)) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", std::get<double>(v));
    return buffer;
  }
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  if (std::holds_alternative<std::vector<long long>>(v)) {
    std::string list;
    for (long long n : std::get<std::vector<long long>>(v))
      list += (list.empty() ? "" : ",") + std::to_string(n);
    return list;
  }
  (void)f;
  return valueText(v);
}

void setField(ExperimentConfig& config, const ExperimentField& f, const FieldValue& value,
              const std::string& where) {
  check(f, value, where.empty() ? f.name : where);
  f.set(config, value);
}

void checkFieldRanges(const ExperimentConfig& config) {
  for (const auto& f : experimentFields()) {
    const bool ranged = f.type == Type::Integer || f.type == Type::IntegerList ||
                        (f.type == Type::Number && f.hasRange());
    if (ranged) check(f, f.get(config), f.name);
  }
}

}  // namespace epsilon::train

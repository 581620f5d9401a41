// The rows of the experiment schema (experiment_schema.h): one per ExperimentConfig field, in
// the order files and --help list them. A row names the field ("section.key"), its accessor,
// and what differs from the defaults: its word when it is not the key, older spellings, the
// range always accepted, the unit, the value's name in --help and a one-line help.
#include <utility>

#include "core/nn/model.h"
#include "core/train/experiment_schema.h"

namespace epsilon::train {

namespace {

using C = ExperimentConfig;
using Type = FieldType;

constexpr double kExactIntegers = 9007199254740992.0;  // 2^53: doubles (JSON) hold all below

// Fills in a row pushed onto the table; each setter returns the row for the next.
class Row {
 public:
  explicit Row(ExperimentField& field) : m_field(field) {}
  Row& word(const char* word) {
    m_field.word = word;
    return *this;
  }
  Row& old(const char* word, const char* value = "") {
    m_field.old.push_back({word, value});
    return *this;
  }
  Row& range(double low, double high) {
    m_field.low = low;
    m_field.high = high;
    return *this;
  }
  Row& unit(const char* unit) {
    m_field.unit = unit;
    return *this;
  }
  Row& value(const char* name) {
    m_field.valueName = name;
    return *this;
  }
  Row& symbol(const char* symbol) {
    m_field.symbol = symbol;
    return *this;
  }
  Row& help(const char* help) {
    m_field.help = help;
    return *this;
  }
  Row& runtime() {
    m_field.persisted = false;
    return *this;
  }

 private:
  ExperimentField& m_field;
};

Row add(std::vector<ExperimentField>& table, ExperimentField field) {
  field.word = field.key();
  table.push_back(std::move(field));
  return Row(table.back());
}

ExperimentField base(const char* name, Type type) {
  ExperimentField f;
  f.name = name;
  f.type = type;
  f.low = 1;  // no range until one is given
  f.high = 0;
  return f;
}

// `ref` is a generic lambda returning a reference to the member, const or not.
template <class Ref>
ExperimentField number(const char* name, Ref ref) {
  ExperimentField f = base(name, Type::Number);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<double>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) { ref(c) = std::get<double>(v); };
  return f;
}

template <class Ref>
ExperimentField optionalNumber(const char* name, Ref ref) {
  ExperimentField f = base(name, Type::OptionalNumber);
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
ExperimentField integer(const char* name, Ref ref) {
  ExperimentField f = base(name, Type::Integer);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<long long>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) {
    using T = std::remove_reference_t<decltype(ref(c))>;
    ref(c) = static_cast<T>(std::get<long long>(v));
  };
  return f;
}

template <class Ref>
ExperimentField boolean(const char* name, Ref ref) {
  ExperimentField f = base(name, Type::Boolean);
  f.get = [ref](const C& c) -> FieldValue { return static_cast<bool>(ref(c)); };
  f.set = [ref](C& c, const FieldValue& v) { ref(c) = std::get<bool>(v); };
  return f;
}

// A choice between names; `toName` and `parse` convert the member (parse sees a listed name).
template <class Ref, class ToName, class Parse>
ExperimentField choice(const char* name, std::vector<std::string> (*names)(), Ref ref,
                       ToName toName, Parse parse) {
  ExperimentField f = base(name, Type::Choice);
  f.choices = names;
  f.get = [ref, toName](const C& c) -> FieldValue { return std::string(toName(ref(c))); };
  const std::string field = name;
  f.set = [ref, parse, field](C& c, const FieldValue& v) {
    ref(c) = parse(std::get<std::string>(v), field);
  };
  return f;
}

ExperimentField text(const char* name) {
  ExperimentField f = base(name, Type::Text);
  f.get = [](const C& c) -> FieldValue { return c.dataset.name; };
  f.set = [](C& c, const FieldValue& v) { c.dataset.name = std::get<std::string>(v); };
  return f;
}

ExperimentField widths(const char* name) {
  ExperimentField f = base(name, Type::IntegerList);
  f.get = [](const C& c) -> FieldValue {
    return std::vector<long long>(c.model.hiddenWidths.begin(), c.model.hiddenWidths.end());
  };
  f.set = [](C& c, const FieldValue& v) {
    const auto& list = std::get<std::vector<long long>>(v);
    c.model.hiddenWidths.assign(list.begin(), list.end());
  };
  return f;
}

std::string same(const std::string& s) {
  return s;
}
std::string sameName(const std::string& s, const std::string&) {
  return s;
}
std::vector<std::string> accountantNames() {
  return {"rdp", "pld"};
}
std::string accountantName(privacy::AccountantKind kind) {
  return privacy::accountantKindName(kind);
}
privacy::AccountantKind parseAccountant(const std::string& text, const std::string&) {
  return privacy::parseAccountantKind(text);
}
std::vector<std::string> samplingNames() {
  return {"poisson", "shuffle"};
}
std::vector<std::string> clipPolicyNames() {
  return {"linear", "geometric"};
}

#define FIELD(expr)      \
  [](auto& c) -> auto& { \
    return c.expr;       \
  }

void addDataset(std::vector<ExperimentField>& t) {
  add(t, text("dataset.name"))
      .word("dataset")
      .value("NAME")
      .help("Data set name (see `datasets`) or folder.");
  add(t, number("dataset.noise", FIELD(dataset.options.noise)))
      .word("data_noise")
      .value("X")
      .help("Synthetic sets: label noise in [0, 1].");
  add(t, integer("dataset.size", FIELD(dataset.options.size)))
      .word("data_size")
      .range(0, 1e9)
      .unit("points")
      .value("N")
      .help("Synthetic sets: number of points.");
  add(t, number("dataset.train_fraction", FIELD(dataset.options.trainFraction)))
      .value("X")
      .help("Synthetic sets: share of points used for training.");
  add(t, integer("dataset.seed", FIELD(dataset.options.seed)))
      .word("data_seed")
      .range(0, kExactIntegers)
      .value("N")
      .help("Synthetic sets: generator seed.");
  add(t, integer("dataset.max_train", FIELD(dataset.options.maxTrain)))
      .old("train_size")
      .range(0, 1e12)
      .unit("examples")
      .value("N")
      .symbol("N")
      .help("Keep only the first N training examples (0 = all).");
  add(t, integer("dataset.minority_class", FIELD(dataset.options.minorityClass)))
      .range(-1, 65535)
      .value("K")
      .help("Unbalanced training set: the class thinned by --minority-keep (-1 = none).");
  add(t, number("dataset.minority_keep", FIELD(dataset.options.minorityKeep)))
      .range(0, 1)
      .value("X")
      .help("Share of the minority class's training examples kept (the first ones).");
}

// The network; pca-mlp's DP-PCA projection (Abadi et al. 2016, §5) is composed into ε.
void addModel(std::vector<ExperimentField>& t) {
  add(t, choice("model.preset", nn::presetNames, FIELD(model.preset), same, sameName))
      .word("model")
      .value("PRESET")
      .help("The network.");
  add(t, widths("model.hidden"))
      .range(1, 65536)
      .unit("units")
      .value("W[,W...]")
      .help("mlp hidden layer widths, e.g. 256 or 128,64 (128/64 in a sweep's list).");
  add(t, integer("model.pca_dims", FIELD(model.pcaDims)))
      .range(1, 65536)
      .unit("directions")
      .value("K")
      .help("pca-mlp: principal directions the DP-PCA projection keeps.");
  add(t, number("model.pca_noise", FIELD(model.pcaNoise)))
      .value("S")
      .help(
          "pca-mlp: noise multiplier sigma_pca on the covariance (0 = not private); its "
          "epsilon is composed with the steps'.");
  add(t, number("model.pca_sample", FIELD(model.pcaSampleFraction)))
      .value("F")
      .help(
          "pca-mlp: share of the training set the projection is formed from, in (0, 1] (no "
          "amplification by it is claimed).");
}

void addPrivatizer(std::vector<ExperimentField>& t) {
  add(t, choice("privacy.privatizer", privacy::privatizerNames, FIELD(privacy.privatizer.kind),
                privacy::privatizerName, privacy::parsePrivatizerKind))
      .value("NAME")
      .help("How each gradient is bounded.");
  add(t, number("privacy.clip_norm", FIELD(privacy.privatizer.clipNorm)))
      .value("C")
      .symbol("C")
      .help("L2 clip norm C > 0 (the initial C for adaptive).");
  add(t, boolean("privacy.per_layer_clip", FIELD(privacy.privatizer.perLayer)))
      .help("Clip each layer to C/sqrt(layers) instead of all at once.");
  add(t, number("privacy.tanh_c", FIELD(privacy.privatizer.tanhScale)))
      .value("C")
      .symbol("c")
      .help("tanh filter output range factor c: g -> c*tanh(g/k).");
  add(t, number("privacy.tanh_k", FIELD(privacy.privatizer.tanhActiveRange)))
      .value("K")
      .symbol("k")
      .help("tanh filter active-range factor k.");
}

// Adaptive clipping (Andrew et al. 2021).
void addAdaptive(std::vector<ExperimentField>& t) {
  add(t, number("privacy.target_quantile", FIELD(privacy.privatizer.targetQuantile)))
      .value("G")
      .help("Adaptive clipping: target unclipped quantile in (0, 1).");
  add(t, number("privacy.clip_learning_rate", FIELD(privacy.privatizer.clipLearningRate)))
      .old("clip_lr")
      .value("ETA")
      .help("Adaptive clipping: learning rate of the clip norm.");
  add(t, choice("privacy.clip_policy", clipPolicyNames, FIELD(privacy.privatizer.clipPolicy),
                privacy::clipPolicyName, privacy::parseClipPolicy))
      .value("NAME")
      .help("Adaptive clipping's update of C.");
  add(t, optionalNumber("privacy.clip_count_stddev", FIELD(privacy.privatizer.clipCountStddev)))
      .value("S")
      .help("Adaptive clipping: noise sigma_b on the unclipped count.");
  add(t, optionalNumber("privacy.fraction_stddev", FIELD(privacy.privatizer.fractionStddev)))
      .value("S")
      .help("Adaptive clipping: MindArmour's fraction_stddev (sigma_b / lot).");
}

void addNoise(std::vector<ExperimentField>& t) {
  add(t, number("privacy.noise_multiplier", FIELD(privacy.noise.initial)))
      .value("SIGMA")
      .symbol("σ")
      .help("Noise multiplier sigma >= 0 (the initial one with a schedule).");
  add(t, choice("privacy.noise_schedule", privacy::noiseDecayNames, FIELD(privacy.noise.decay),
                privacy::noiseDecayName, privacy::parseNoiseDecay))
      .value("NAME")
      .help("Decay of sigma over the steps.");
  add(t, number("privacy.noise_decay_rate", FIELD(privacy.noise.rate)))
      .old("noise_decay")
      .value("RHO")
      .help("Decay rate rho of the noise schedule.");
  add(t, integer("privacy.microbatch_size", FIELD(privacy.microbatchSize)))
      .range(1, 1e9)
      .unit("examples")
      .value("M")
      .symbol("m")
      .help("Examples averaged per privatized unit (1 = per example).");
  add(t, number("privacy.delta", FIELD(privacy.delta)))
      .value("D")
      .help("Target delta in (0, 1), well below 1/N.");
  add(t, choice("privacy.accountant", accountantNames, FIELD(privacy.accountant), accountantName,
                parseAccountant))
      .value("NAME")
      .help("The privacy accountant.");
  add(t, choice("privacy.sampling", samplingNames, FIELD(privacy.sampling), samplingName,
                parseSamplingKind))
      .value("NAME")
      .help("How lots are drawn (the accountants assume poisson).");
  add(t, boolean("privacy.secure_noise", FIELD(privacy.secureNoise)))
      .help(
          "Draw the DP noise from the OS CSPRNG instead of the seeded stream: not "
          "reproducible.");
}

void addOptimizer(std::vector<ExperimentField>& t) {
  add(t, choice("optimizer.name", optim::optimizerNames, FIELD(optimizer.options.kind),
                optim::optimizerName, optim::parseOptimizerKind))
      .word("optimizer")
      .value("NAME")
      .help("The optimizer.");
  add(t, number("optimizer.learning_rate", FIELD(optimizer.learningRate)))
      .old("lr")
      .value("ETA")
      .symbol("lr")
      .help("Learning rate > 0.");
  add(t, number("optimizer.momentum", FIELD(optimizer.options.momentum)))
      .value("MU")
      .help("Momentum mu in [0, 1).");
  add(t, boolean("optimizer.nesterov", FIELD(optimizer.options.nesterov)))
      .help("Nesterov momentum.");
  add(t, number("optimizer.beta1", FIELD(optimizer.options.beta1))).value("B").help("Adam beta1.");
  add(t, number("optimizer.beta2", FIELD(optimizer.options.beta2))).value("B").help("Adam beta2.");
  add(t, number("optimizer.rho", FIELD(optimizer.options.rho))).value("R").help("RMSprop rho.");
  add(t, number("optimizer.initial_accumulator", FIELD(optimizer.options.initialAccumulator)))
      .value("A")
      .help("Adagrad initial accumulator.");
  add(t, number("optimizer.epsilon", FIELD(optimizer.options.epsilon)))
      .word("optimizer_epsilon")
      .value("E")
      .help("Adam/Adagrad/RMSprop denominator epsilon (not the privacy budget).");
  add(t, choice("optimizer.lr_decay", optim::learningRateDecayNames, FIELD(optimizer.lrDecay),
                optim::learningRateDecayName, optim::parseLearningRateDecay))
      .value("NAME")
      .help("Learning-rate decay.");
  add(t, number("optimizer.lr_decay_rate", FIELD(optimizer.lrDecayRate)))
      .value("R")
      .help("Learning-rate decay factor per period, in (0, 1].");
  add(t, number("optimizer.lr_decay_epochs", FIELD(optimizer.lrDecayEpochs)))
      .unit("epochs")
      .value("E")
      .help("Learning-rate decay period.");
}

void addTraining(std::vector<ExperimentField>& t) {
  add(t, integer("training.lot_size", FIELD(training.lotSize)))
      .old("batch_size")
      .range(1, 1e9)
      .unit("examples")
      .value("L")
      .symbol("L")
      .help("Lot size L (expected, with Poisson sampling).");
  add(t, number("training.epochs", FIELD(training.epochs)))
      .unit("epochs")
      .value("E")
      .help("Epochs to train, in (0, 1e6] (may be fractional).");
  add(t, integer("training.steps", FIELD(training.steps)))
      .range(0, 1e15)
      .unit("steps")
      .value("T")
      .help("Steps to train (0 = use epochs; overrides epochs).");
  add(t, boolean("training.eval_every_epoch", FIELD(training.evalEveryEpoch)))
      .old("no_epoch_eval", "false")
      .help("Evaluate at every epoch's end.");
  add(t, integer("training.eval_every_steps", FIELD(training.evalEverySteps)))
      .old("eval_every")
      .range(0, 1e15)
      .unit("steps")
      .value("K")
      .help("Also evaluate every K steps (0 = only at epoch ends).");
  add(t, integer("training.seed", FIELD(training.seed)))
      .range(0, kExactIntegers)
      .value("N")
      .help("Seed of sampling, initialisation and noise.");
  add(t, boolean("training.snapshots", FIELD(training.snapshots)))
      .help("Attach a copy of the model to every evaluation.");
  // Run-time settings of the GUI: compared, never in a file, a flag or a sweep.
  add(t, boolean("training.step_events", FIELD(training.stepEvents)))
      .runtime()
      .help("Report every step's lot loss.");
  add(t, boolean("training.gradient_norms", FIELD(training.gradientNorms)))
      .runtime()
      .help("Report every step's pre-clip gradient norms.");
  add(t, number("training.pace_seconds", FIELD(training.paceSeconds)))
      .runtime()
      .range(0, kMaxPaceSeconds)
      .unit("seconds")
      .help("Spread the steps over at least this many seconds of wall time.");
}

#undef FIELD

}  // namespace

std::vector<ExperimentField> makeExperimentFields() {
  std::vector<ExperimentField> table;
  for (auto group :
       {addDataset, addModel, addPrivatizer, addAdaptive, addNoise, addOptimizer, addTraining})
    group(table);
  return table;
}

}  // namespace epsilon::train

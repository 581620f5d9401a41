#include "train_flags.h"

#include <QStringList>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "base/io/json_reader.h"
#include "cli_command.h"
#include "core/common/errors.h"

namespace epsilon::cli {

namespace {

using train::ExperimentConfig;
using Apply = std::function<void(const QString& flag, const QString& value, ExperimentConfig&)>;

struct Flag {
  const char* name;
  const char* field;      // the config field it sets (JSON path), for error messages
  const char* valueName;  // empty: a switch without a value
  const char* help;
  Apply apply;
};

double toDouble(const QString& flag, const QString& value) {
  bool ok = false;
  const double d = value.toDouble(&ok);
  if (!ok || !std::isfinite(d))
    throw UsageError(
        ("--" + flag + ": expected a number, got '" + ui::clipped(value) + "'").toStdString());
  return d;
}

long long toInteger(const QString& flag, const QString& value) {
  bool ok = false;
  const long long n = value.toLongLong(&ok);
  if (!ok)
    throw UsageError(
        ("--" + flag + ": expected an integer, got '" + ui::clipped(value) + "'").toStdString());
  return n;
}

int toInt(const QString& flag, const QString& value) {
  const long long n = toInteger(flag, value);
  if (n < -2147483647LL || n > 2147483647LL)
    throw UsageError(("--" + flag + ": " + ui::clipped(value) + " is out of range").toStdString());
  return static_cast<int>(n);
}

std::string name(const QString& flag) {
  return ("--" + flag).toStdString();
}

// The data set and the network.
std::vector<Flag> networkFlags() {
  return {
      {"dataset", "dataset.name", "NAME", "Data set name (see `datasets`) or folder.",
       [](auto&, const QString& v, ExperimentConfig& c) { c.dataset.name = v.toStdString(); }},
      {"data-noise", "dataset.noise", "X", "Synthetic sets: label noise in [0, 1].",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.dataset.options.noise = toDouble(f, v);
       }},
      {"data-size", "dataset.size", "N", "Synthetic sets: number of points.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.dataset.options.size = toInt(f, v);
       }},
      {"train-fraction", "dataset.train_fraction", "X",
       "Synthetic sets: share of points used for training.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.dataset.options.trainFraction = toDouble(f, v);
       }},
      {"data-seed", "dataset.seed", "N", "Synthetic sets: generator seed.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.dataset.options.seed = static_cast<std::uint64_t>(toInteger(f, v));
       }},
      {"max-train", "dataset.max_train", "N", "Keep only the first N training examples (0 = all).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.dataset.options.maxTrain = toInteger(f, v);
       }},
      {"model", "model.preset", "PRESET",
       "Network: logistic, mlp, tfp-cnn, tfp-cnn-tanh, lenet5, scatter-linear, scatter-cnn, "
       "pca-mlp.",
       [](auto&, const QString& v, ExperimentConfig& c) { c.model.preset = v.toStdString(); }},
      {"hidden", "model.hidden", "W[,W...]", "mlp hidden layer widths, e.g. 256 or 128,64.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.model.hiddenWidths.clear();
         for (const QString& part : v.split(',', Qt::SkipEmptyParts))
           c.model.hiddenWidths.push_back(toInt(f, part.trimmed()));
       }},
  };
}

// pca-mlp's DP-PCA projection (Abadi et al. 2016, §5); its release is composed into ε.
std::vector<Flag> pcaFlags() {
  return {
      {"pca-dims", "model.pca_dims", "K",
       "pca-mlp: principal directions the DP-PCA projection keeps (default 60).",
       [](auto& f, const QString& v, ExperimentConfig& c) { c.model.pcaDims = toInt(f, v); }},
      {"pca-noise", "model.pca_noise", "S",
       "pca-mlp: noise multiplier sigma_pca on the sample's covariance (default 7; 0 = not "
       "private). "
       "The projection costs privacy: its epsilon is composed with the steps'.",
       [](auto& f, const QString& v, ExperimentConfig& c) { c.model.pcaNoise = toDouble(f, v); }},
      {"pca-sample", "model.pca_sample", "F",
       "pca-mlp: share of the training set the projection is formed from, in (0, 1] (default 0.1; "
       "no amplification by this sample is claimed).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.model.pcaSampleFraction = toDouble(f, v);
       }},
  };
}

// The privatizer: clipping, the tanh filter or adaptive clipping.
std::vector<Flag> privatizerFlags() {
  return {
      {"privatizer", "privacy.privatizer", "NAME", "clip (default), tanh, adaptive or none.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.kind = privacy::parsePrivatizerKind(v.toStdString(), name(f));
       }},
      {"clip-norm", "privacy.clip_norm", "C", "L2 clip norm C (the initial C for adaptive).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.clipNorm = toDouble(f, v);
       }},
      {"per-layer-clip", "privacy.per_layer_clip", "",
       "Clip each layer to C/sqrt(layers) instead of all at once.",
       [](auto&, const QString&, ExperimentConfig& c) { c.privacy.privatizer.perLayer = true; }},
      {"tanh-c", "privacy.tanh_c", "C", "tanh filter output range factor c: g -> c*tanh(g/k).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.tanhScale = toDouble(f, v);
       }},
      {"tanh-k", "privacy.tanh_k", "K", "tanh filter active-range factor k.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.tanhActiveRange = toDouble(f, v);
       }},
      {"target-quantile", "privacy.target_quantile", "G",
       "Adaptive clipping: target unclipped quantile in (0, 1).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.targetQuantile = toDouble(f, v);
       }},
      {"clip-lr", "privacy.clip_learning_rate", "ETA",
       "Adaptive clipping: learning rate of the clip norm.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.clipLearningRate = toDouble(f, v);
       }},
      {"clip-policy", "privacy.clip_policy", "NAME",
       "Adaptive clipping update: geometric (default) or linear.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.clipPolicy = privacy::parseClipPolicy(v.toStdString(), name(f));
       }},
      {"clip-count-stddev", "privacy.clip_count_stddev", "S",
       "Adaptive clipping: noise sigma_b on the unclipped count.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.clipCountStddev = toDouble(f, v);
       }},
      {"fraction-stddev", "privacy.fraction_stddev", "S",
       "Adaptive clipping: MindArmour's fraction_stddev (sigma_b / lot).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.privatizer.fractionStddev = toDouble(f, v);
       }},
  };
}

// Noise, its schedule and the accountant.
std::vector<Flag> noiseFlags() {
  return {
      {"noise-multiplier", "privacy.noise_multiplier", "SIGMA",
       "Noise multiplier sigma (the initial one with a schedule).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.noise.initial = toDouble(f, v);
       }},
      {"noise-schedule", "privacy.noise_schedule", "NAME",
       "constant (default), time, step or exp decay of sigma.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.noise.decay = privacy::parseNoiseDecay(v.toStdString(), name(f));
       }},
      {"noise-decay", "privacy.noise_decay_rate", "RHO", "Decay rate rho of the noise schedule.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.noise.rate = toDouble(f, v);
       }},
      {"microbatch-size", "privacy.microbatch_size", "M",
       "Examples averaged per privatized unit (1 = per example).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.microbatchSize = toInt(f, v);
       }},
      {"delta", "privacy.delta", "D", "Target delta in (0, 1).",
       [](auto& f, const QString& v, ExperimentConfig& c) { c.privacy.delta = toDouble(f, v); }},
      {"secure-noise", "privacy.secure_noise", "",
       "Draw the DP noise from the OS CSPRNG (getrandom) instead of the seeded stream: not "
       "reproducible.",
       [](auto&, const QString&, ExperimentConfig& c) { c.privacy.secureNoise = true; }},
      {"accountant", "privacy.accountant", "NAME", "rdp (default) or pld.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         if (v == "rdp")
           c.privacy.accountant = privacy::AccountantKind::Rdp;
         else if (v == "pld")
           c.privacy.accountant = privacy::AccountantKind::Pld;
         else
           throw UsageError(("--" + f + ": expected one of rdp, pld, got '" + ui::clipped(v) + "'")
                                .toStdString());
       }},
      {"sampling", "privacy.sampling", "NAME",
       "poisson (default; what the accountants assume) or shuffle.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.privacy.sampling = train::parseSamplingKind(v.toStdString(), name(f));
       }},
  };
}

// The optimizer and its learning rate.
std::vector<Flag> optimizerFlags() {
  return {
      {"optimizer", "optimizer.name", "NAME", "sgd (default), momentum, adam, adagrad or rmsprop.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.kind = optim::parseOptimizerKind(v.toStdString(), name(f));
       }},
      {"lr", "optimizer.learning_rate", "ETA", "Learning rate.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.learningRate = toDouble(f, v);
       }},
      {"momentum", "optimizer.momentum", "MU", "Momentum mu in [0, 1).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.momentum = toDouble(f, v);
       }},
      {"nesterov", "optimizer.nesterov", "", "Nesterov momentum.",
       [](auto&, const QString&, ExperimentConfig& c) { c.optimizer.options.nesterov = true; }},
      {"beta1", "optimizer.beta1", "B", "Adam beta1.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.beta1 = toDouble(f, v);
       }},
      {"beta2", "optimizer.beta2", "B", "Adam beta2.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.beta2 = toDouble(f, v);
       }},
      {"rho", "optimizer.rho", "R", "RMSprop decay rho.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.rho = toDouble(f, v);
       }},
      {"initial-accumulator", "optimizer.initial_accumulator", "A", "Adagrad initial accumulator.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.initialAccumulator = toDouble(f, v);
       }},
      {"optimizer-epsilon", "optimizer.epsilon", "E", "Adam/Adagrad/RMSprop denominator epsilon.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.options.epsilon = toDouble(f, v);
       }},
      {"lr-decay", "optimizer.lr_decay", "NAME",
       "constant (default), step or exp learning-rate decay.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.lrDecay = optim::parseLearningRateDecay(v.toStdString(), name(f));
       }},
      {"lr-decay-rate", "optimizer.lr_decay_rate", "R", "Learning-rate decay factor per period.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.lrDecayRate = toDouble(f, v);
       }},
      {"lr-decay-epochs", "optimizer.lr_decay_epochs", "E",
       "Learning-rate decay period, in epochs.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.optimizer.lrDecayEpochs = toDouble(f, v);
       }},
  };
}

// Length, evaluation and seed of the run.
std::vector<Flag> trainingFlags() {
  return {
      {"batch-size", "training.lot_size", "L", "Lot size L (expected, with Poisson sampling).",
       [](auto& f, const QString& v, ExperimentConfig& c) { c.training.lotSize = toInt(f, v); }},
      {"epochs", "training.epochs", "E", "Epochs to train (may be fractional).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.training.epochs = toDouble(f, v);
         c.training.steps = 0;
       }},
      {"steps", "training.steps", "T", "Steps to train (overrides --epochs).",
       [](auto& f, const QString& v, ExperimentConfig& c) { c.training.steps = toInteger(f, v); }},
      {"eval-every", "training.eval_every_steps", "K",
       "Also evaluate every K steps (0 = only at epoch ends).",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         c.training.evalEverySteps = toInteger(f, v);
       }},
      {"no-epoch-eval", "training.eval_every_epoch", "", "Do not evaluate at every epoch's end.",
       [](auto&, const QString&, ExperimentConfig& c) { c.training.evalEveryEpoch = false; }},
      {"seed", "training.seed", "N", "Seed of sampling, initialisation and noise.",
       [](auto& f, const QString& v, ExperimentConfig& c) {
         const long long seed = toInteger(f, v);
         if (seed < 0)
           throw UsageError(("--" + f + ": expected an integer >= 0, got '" + ui::clipped(v) + "'")
                                .toStdString());
         c.training.seed = static_cast<std::uint64_t>(seed);
       }},
  };
}

// Each flag's parser and setter, in the order they apply (--steps after --epochs, so
// --steps wins); parse functions of core name the flag in their errors.
const std::vector<Flag>& flags() {
  static const std::vector<Flag> table = [] {
    std::vector<Flag> all;
    for (auto group :
         {networkFlags, pcaFlags, privatizerFlags, noiseFlags, optimizerFlags, trainingFlags})
      for (Flag& f : group()) all.push_back(std::move(f));
    return all;
  }();
  return table;
}

}  // namespace

void addExperimentFlags(QCommandLineParser& parser) {
  for (const Flag& f : flags()) {
    if (*f.valueName) {
      parser.addOption({QString::fromLatin1(f.name), QString::fromLatin1(f.help),
                        QString::fromLatin1(f.valueName)});
    } else {
      parser.addOption({QString::fromLatin1(f.name), QString::fromLatin1(f.help)});
    }
  }
}

void applyExperimentFlags(const QCommandLineParser& parser, ExperimentConfig& config) {
  for (const Flag& f : flags()) {
    const QString flag = QString::fromLatin1(f.name);
    if (!parser.isSet(flag)) continue;
    if (*f.valueName && parser.values(flag).size() > 1) {
      throw UsageError(("--" + flag + " given more than once").toStdString());
    }
    f.apply(flag, *f.valueName ? parser.value(flag) : QString(), config);
  }
  // --epochs resets the file's steps and --steps comes later in the table, so --steps wins
  // when both are given.
  // A projection flag on a network without one would be silently ignored: say so instead.
  for (const char* flag : {"pca-dims", "pca-noise", "pca-sample"}) {
    if (parser.isSet(QLatin1String(flag)) && !config.model.usesPca()) {
      throw UsageError(std::string("--") + flag + ": only for --model pca-mlp (the network is '" +
                       config.model.preset + "')");
    }
  }
}

QString flagForField(const std::string& field) {
  for (const Flag& f : flags()) {
    if (field == f.field) return QStringLiteral("--") + QString::fromLatin1(f.name);
  }
  return {};
}

}  // namespace epsilon::cli

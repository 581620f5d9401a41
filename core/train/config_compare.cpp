#include "core/train/config_compare.h"

namespace epsilon::train {

namespace {

// Collects the names of the fields that differ; `count` says how many were compared.
struct FieldDiff {
  std::vector<std::string> fields;
  int count = 0;

  template <class T>
  void check(const char* name, const T& a, const T& b) {
    ++count;
    if (!(a == b)) fields.emplace_back(name);
  }
};

void compareDataset(FieldDiff& d, const DatasetConfig& a, const DatasetConfig& b) {
  d.check("dataset.name", a.name, b.name);
  d.check("dataset.noise", a.options.noise, b.options.noise);
  d.check("dataset.size", a.options.size, b.options.size);
  d.check("dataset.train_fraction", a.options.trainFraction, b.options.trainFraction);
  d.check("dataset.seed", a.options.seed, b.options.seed);
  d.check("dataset.max_train", a.options.maxTrain, b.options.maxTrain);
}

void compareModel(FieldDiff& d, const ModelConfig& a, const ModelConfig& b) {
  d.check("model.preset", a.preset, b.preset);
  d.check("model.hidden", a.hiddenWidths, b.hiddenWidths);
  d.check("model.pca_dims", a.pcaDims, b.pcaDims);
  d.check("model.pca_noise", a.pcaNoise, b.pcaNoise);
  d.check("model.pca_sample", a.pcaSampleFraction, b.pcaSampleFraction);
}

void comparePrivatizer(FieldDiff& d, const privacy::PrivatizerOptions& a,
                       const privacy::PrivatizerOptions& b) {
  d.check("privacy.privatizer", a.kind, b.kind);
  d.check("privacy.clip_norm", a.clipNorm, b.clipNorm);
  d.check("privacy.per_layer_clip", a.perLayer, b.perLayer);
  d.check("privacy.tanh_c", a.tanhScale, b.tanhScale);
  d.check("privacy.tanh_k", a.tanhActiveRange, b.tanhActiveRange);
  d.check("privacy.target_quantile", a.targetQuantile, b.targetQuantile);
  d.check("privacy.clip_learning_rate", a.clipLearningRate, b.clipLearningRate);
  d.check("privacy.clip_policy", a.clipPolicy, b.clipPolicy);
  d.check("privacy.clip_count_stddev", a.clipCountStddev, b.clipCountStddev);
  d.check("privacy.fraction_stddev", a.fractionStddev, b.fractionStddev);
}

void comparePrivacy(FieldDiff& d, const PrivacyConfig& a, const PrivacyConfig& b) {
  comparePrivatizer(d, a.privatizer, b.privatizer);
  d.check("privacy.noise_multiplier", a.noise.initial, b.noise.initial);
  d.check("privacy.noise_schedule", a.noise.decay, b.noise.decay);
  d.check("privacy.noise_decay_rate", a.noise.rate, b.noise.rate);
  d.check("privacy.microbatch_size", a.microbatchSize, b.microbatchSize);
  d.check("privacy.delta", a.delta, b.delta);
  d.check("privacy.accountant", a.accountant, b.accountant);
  d.check("privacy.sampling", a.sampling, b.sampling);
  d.check("privacy.secure_noise", a.secureNoise, b.secureNoise);
}

void compareOptimizer(FieldDiff& d, const OptimizerConfig& a, const OptimizerConfig& b) {
  d.check("optimizer.name", a.options.kind, b.options.kind);
  d.check("optimizer.learning_rate", a.learningRate, b.learningRate);
  d.check("optimizer.momentum", a.options.momentum, b.options.momentum);
  d.check("optimizer.nesterov", a.options.nesterov, b.options.nesterov);
  d.check("optimizer.beta1", a.options.beta1, b.options.beta1);
  d.check("optimizer.beta2", a.options.beta2, b.options.beta2);
  d.check("optimizer.rho", a.options.rho, b.options.rho);
  d.check("optimizer.initial_accumulator", a.options.initialAccumulator,
          b.options.initialAccumulator);
  d.check("optimizer.epsilon", a.options.epsilon, b.options.epsilon);
  d.check("optimizer.lr_decay", a.lrDecay, b.lrDecay);
  d.check("optimizer.lr_decay_rate", a.lrDecayRate, b.lrDecayRate);
  d.check("optimizer.lr_decay_epochs", a.lrDecayEpochs, b.lrDecayEpochs);
}

void compareTraining(FieldDiff& d, const TrainingConfig& a, const TrainingConfig& b) {
  d.check("training.lot_size", a.lotSize, b.lotSize);
  d.check("training.epochs", a.epochs, b.epochs);
  d.check("training.steps", a.steps, b.steps);
  d.check("training.eval_every_epoch", a.evalEveryEpoch, b.evalEveryEpoch);
  d.check("training.eval_every_steps", a.evalEverySteps, b.evalEverySteps);
  d.check("training.seed", a.seed, b.seed);
  d.check("training.snapshots", a.snapshots, b.snapshots);
  d.check("training.step_events", a.stepEvents, b.stepEvents);
  d.check("training.gradient_norms", a.gradientNorms, b.gradientNorms);
  d.check("training.pace_seconds", a.paceSeconds, b.paceSeconds);
}

FieldDiff compare(const ExperimentConfig& a, const ExperimentConfig& b) {
  FieldDiff d;
  compareDataset(d, a.dataset, b.dataset);
  compareModel(d, a.model, b.model);
  comparePrivacy(d, a.privacy, b.privacy);
  compareOptimizer(d, a.optimizer, b.optimizer);
  compareTraining(d, a.training, b.training);
  return d;
}

}  // namespace

std::vector<std::string> differingFields(const ExperimentConfig& a, const ExperimentConfig& b) {
  return compare(a, b).fields;
}

std::string describeDifferences(const ExperimentConfig& a, const ExperimentConfig& b) {
  std::string text;
  for (const std::string& field : differingFields(a, b)) text += (text.empty() ? "" : ", ") + field;
  return text.empty() ? "none" : text;
}

int comparedFieldCount() {
  return compare({}, {}).count;
}

bool operator==(const ExperimentConfig& a, const ExperimentConfig& b) {
  return differingFields(a, b).empty();
}

}  // namespace epsilon::train

#include "core/train/trainer.h"

#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/optim/learning_rate.h"
#include "core/optim/optimizer.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/privatizer.h"
#include "core/train/evaluation.h"
#include "core/train/feature_cache.h"
#include "core/train/memory_estimate.h"
#include "core/train/privacy_tracker.h"
#include "core/train/private_gradient.h"
#include "core/train/run_planning.h"
#include "core/train/sampler.h"

namespace epsilon::train {

namespace {

using Clock = std::chrono::steady_clock;

// Statistics of the steps since the last evaluation.
struct Window {
  double lossSum = 0.0;
  long long examples = 0;
  privacy::PrivatizeStats stats;
  void add(const StepGradient& g) {
    lossSum += g.lossSum;
    examples += g.examples;
    stats.merge(g.stats);
  }
};

// Everything one run owns while it trains.
class Run {
 public:
  Run(const ExperimentConfig& config, std::shared_ptr<const data::Dataset> dataset, RunId id,
      const ProgressCallback& onProgress, const std::atomic<bool>* cancel)
      : m_config(config),
        m_dataset(std::move(dataset)),
        m_id(id),
        m_onProgress(onProgress),
        m_cancel(cancel),
        m_start(Clock::now()) {}

  void execute(RunResult& result);
  // Hands the history and the final model over to the result.
  void finish(RunResult& result) {
    result.history = std::move(m_history);
    if (m_model) result.model = std::make_shared<const nn::Model<float>>(std::move(*m_model));
  }

 private:
  bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }
  void emit(ProgressEvent event) {
    event.runId = m_id;
    event.elapsedSeconds = elapsed();
    if (m_onProgress) m_onProgress(event);
    if (event.kind == EventKind::Evaluation) {
      event.snapshot.reset();  // snapshots are for live display; the result keeps the final model
      m_history.push_back(std::move(event));
    }
  }
  ProgressEvent evaluationEvent(long long step, const Window& window);
  void setUp();
  bool trainStep(long long step, RunResult& result);
  void reportStep(long long done);
  void pace(Clock::time_point trainingStart, long long done) const;
  bool prepareFeatures();

  ExperimentConfig m_config;
  std::shared_ptr<const data::Dataset> m_dataset;
  RunId m_id;
  const ProgressCallback& m_onProgress;
  const std::atomic<bool>* m_cancel;
  Clock::time_point m_start;
  std::vector<ProgressEvent> m_history;

  std::unique_ptr<nn::Model<float>> m_model;
  std::unique_ptr<Sampler> m_sampler;
  std::unique_ptr<privacy::Privatizer> m_privatizer;
  std::unique_ptr<optim::Optimizer> m_optimizer;
  std::unique_ptr<PrivacyTracker> m_tracker;
  std::unique_ptr<PrivateGradient> m_gradient;
  optim::LearningRateSchedule m_learningRate;
  long long m_stepsPerEpoch = 1;
  long long m_totalSteps = 0;
  bool m_private = true;
  StepGradient m_last;
  Eigen::VectorXf m_gradientBuffer;
  Eigen::VectorXf m_previous;
  double m_lastSigma = kNotMeasured;
  double m_lastLearningRate = kNotMeasured;
};

void Run::setUp() {
  if (!m_dataset) {
    m_dataset = std::make_shared<const data::Dataset>(
        data::loadDataset(m_config.dataset.name, m_config.dataset.options));
  }
  const data::SampleShape inputShape = m_dataset->shape;
  if (nn::usesScatteringFeatures(m_config.model.preset) && !prepareFeatures()) return;
  const data::Dataset& data = *m_dataset;
  m_config.validateFor(data);
  const long long n = data.train.size();
  m_stepsPerEpoch = m_config.stepsPerEpoch(n);
  m_totalSteps = m_config.totalSteps(n);
  nn::PresetOptions presetOptions = train::presetOptions(m_config);  // (its memory: validateFor)
  if (m_config.model.usesPca()) {
    // Abadi et al. 2016, §5: the projection is computed once, here, before the first step;
    // the tracker below accounts its release.
    emit({.kind = EventKind::Status,
          .status = RunStatus::Running,
          .message = "computing the DP-PCA projection"});
    const privacy::DpPcaOptions pca{m_config.model.pcaDims, m_config.model.pcaNoise,
                                    m_config.model.pcaSampleFraction, m_config.training.seed};
    presetOptions.projectionDims = pca.dims;
    const privacy::DpPcaResult projection = privacy::dpPca(data.train.features, pca);
    presetOptions.projection = std::make_shared<const Eigen::MatrixXd>(projection.projection);
  }
  m_model = std::make_unique<nn::Model<float>>(nn::buildPreset<float>(
      m_config.model.preset, inputShape, data.classCount(), m_config.training.seed, presetOptions));

  const PrivacyConfig& p = m_config.privacy;
  m_private = p.privatizer.kind != privacy::PrivatizerKind::None;
  std::vector<privacy::ParameterSlice> slices;
  for (const auto& group : m_model->parameterGroups()) slices.push_back({group.offset, group.size});
  const double expectedUnits = m_config.expectedUnitsPerLot();
  m_privatizer = privacy::makePrivatizer(p.privatizer, slices, expectedUnits);
  m_sampler = makeSampler(p.sampling, n, m_config.training.lotSize, m_config.training.seed);
  m_optimizer = optim::makeOptimizer(m_config.optimizer.options, m_model->parameterCount());
  m_learningRate = {m_config.optimizer.learningRate, m_config.optimizer.lrDecay,
                    m_config.optimizer.lrDecayRate,
                    m_config.optimizer.lrDecayEpochs * static_cast<double>(m_stepsPerEpoch)};
  m_learningRate.validate();

  // The ledger starts from the planned description (q, P, σ_b, δ, accountant, the PCA release),
  // so the trained run's statement is the preview's for the same steps.
  m_tracker = std::make_unique<PrivacyTracker>(
      privacyDescription(m_config, {n, m_model->parameterCount()}));
  m_gradient = std::make_unique<PrivateGradient>(*m_model, *m_privatizer, p.microbatchSize,
                                                 m_config.microbatchSlots(), expectedUnits,
                                                 m_config.training.seed, p.secureNoise);
  m_gradient->setRecordNorms(m_config.training.gradientNorms);
}

// The scattering presets train on fixed features of the data set, computed once (then
// taken from the memory or disk cache) and reported as status events, about every 5 %.
// False when the run was cancelled meanwhile (polled every 64 images).
bool Run::prepareFeatures() {
  struct Cancelled {};
  std::mutex mutex;
  long long reported = -1;
  try {
    m_dataset = scatteringFeatures(*m_dataset, {}, {}, [&](long long done, long long total) {
      if (cancelled()) throw Cancelled{};  // oneTBB stops the loop and rethrows it here
      std::lock_guard lock(mutex);         // progress arrives from the transform's workers
      const long long twentieth = done * 20 / std::max(1LL, total);
      if (twentieth == reported) return;
      reported = twentieth;
      ProgressEvent e;
      e.status = RunStatus::Running;
      e.message = "preparing scattering features: " + std::to_string(done) + " of " +
                  std::to_string(total) + " images";
      emit(std::move(e));
    });
  } catch (const Cancelled&) {
    return false;
  }
  return true;
}

ProgressEvent Run::evaluationEvent(long long step, const Window& window) {
  ProgressEvent e;
  e.kind = EventKind::Evaluation;
  e.status = RunStatus::Running;
  e.step = step;
  e.totalSteps = m_totalSteps;
  e.epoch = static_cast<double>(step) / static_cast<double>(m_stepsPerEpoch);
  if (window.examples > 0) e.trainLoss = window.lossSum / static_cast<double>(window.examples);
  const Evaluation test = evaluate(*m_model, m_dataset->test);
  e.testAccuracy = test.accuracy;
  e.testLoss = test.loss;
  e.classAccuracy = test.classAccuracy;
  e.privacy = m_tracker->statement();
  if (m_config.training.snapshots) e.snapshot = std::make_shared<const nn::Model<float>>(*m_model);
  e.learningRate = step > 0 ? m_lastLearningRate : m_learningRate.at(0);
  if (m_private) {
    e.sigma = step > 0 ? m_lastSigma : m_config.privacy.noise.sigmaAt(0);
    e.gradientSigma =
        step > 0 ? m_last.gradientSigma : m_privatizer->gradientNoiseMultiplier(e.sigma);
    e.clipNorm = m_privatizer->clipNorm();
    if (m_privatizer->kind() == privacy::PrivatizerKind::Adaptive)
      e.countNoise = m_privatizer->countNoiseStddev();
    if (window.stats.units > 0) {
      e.fractionClipped =
          static_cast<double>(window.stats.clipped) / static_cast<double>(window.stats.units);
      e.meanGradientNorm = window.stats.normSum / static_cast<double>(window.stats.units);
    }
  }
  return e;
}

void Run::execute(RunResult& result) {
  emit({.kind = EventKind::Status, .status = RunStatus::Running, .message = "preparing"});
  setUp();
  if (!m_model) {  // cancelled before the model was built (while computing features)
    result.config = m_config;
    result.status = RunStatus::Cancelled;
    result.message = "cancelled while preparing scattering features";
    return;
  }
  result.parameterCount = m_model->parameterCount();
  result.modelSummary = m_model->summary();
  result.trainSize = m_dataset->train.size();
  result.testSize = m_dataset->test.size();
  result.config = m_config;

  Window window;
  emit(evaluationEvent(0, window));
  result.status = RunStatus::Done;
  const Clock::time_point trainingStart = Clock::now();
  for (long long step = 0; step < m_totalSteps; ++step) {
    if (cancelled()) {
      result.status = RunStatus::Cancelled;
      result.message = "cancelled after step " + std::to_string(step);
      break;
    }
    if (!trainStep(step, result)) break;
    window.add(m_last);
    const long long done = step + 1;
    reportStep(done);
    const bool epochEnd = m_config.training.evalEveryEpoch && done % m_stepsPerEpoch == 0;
    const bool periodic =
        m_config.training.evalEverySteps > 0 && done % m_config.training.evalEverySteps == 0;
    if (epochEnd || periodic || done == m_totalSteps) {
      emit(evaluationEvent(done, window));
      window = {};
    }
    pace(trainingStart, done);
  }
}

// One DP-SGD step: sample, privatized gradient, optimizer update, accounting. False when the
// run diverged (its status and message are then set in `result`).
bool Run::trainStep(long long step, RunResult& result) {
  const std::vector<int> lot = m_sampler->lot(step);
  m_lastSigma = m_private ? m_config.privacy.noise.sigmaAt(step) : 0.0;
  m_last = m_gradient->compute(m_dataset->train, lot, step, m_lastSigma, m_gradientBuffer);
  const std::string at = " at step " + std::to_string(step + 1);
  result.status = RunStatus::Diverged;
  if (!std::isfinite(m_last.lossSum)) {
    result.message =
        std::string("loss became ") + (std::isnan(m_last.lossSum) ? "NaN" : "Inf") + at;
    return false;
  }
  if (!m_gradientBuffer.allFinite()) {
    result.message = "gradient became NaN or Inf" + at;
    return false;
  }
  m_lastLearningRate = m_learningRate.at(step);
  m_previous = m_model->parameters();
  m_optimizer->step(m_model->parameters(), m_gradientBuffer,
                    static_cast<float>(m_lastLearningRate));
  if (!m_model->parameters().allFinite()) {
    m_model->parameters() = m_previous;  // keep the last finite model for the user to inspect
    result.message = "parameters became NaN or Inf" + at;
    return false;
  }
  m_tracker->recordStep(m_last.gradientSigma);
  result.status = RunStatus::Done;
  return true;
}

// The Step event (lot loss, and the lot's gradient norms when asked for).
void Run::reportStep(long long done) {
  const TrainingConfig& t = m_config.training;
  if (!(t.stepEvents || t.gradientNorms) || m_last.examples == 0) return;
  ProgressEvent e{.kind = EventKind::Step,
                  .status = RunStatus::Running,
                  .message = {},
                  .step = done,
                  .totalSteps = m_totalSteps,
                  .epoch = static_cast<double>(done) / static_cast<double>(m_stepsPerEpoch),
                  .trainLoss = m_last.lossSum / static_cast<double>(m_last.examples)};
  if (t.gradientNorms) {
    auto sample = std::make_shared<GradientNormSample>();
    sample->step = done;
    sample->privatizer = m_privatizer->kind();
    sample->clipNorm = m_private ? m_last.clipNorm : kNotMeasured;
    const long long units = m_last.stats.units;
    sample->fractionClipped =
        units > 0 ? static_cast<double>(m_last.stats.clipped) / static_cast<double>(units) : 0.0;
    sample->norms = std::move(m_last.unitNorms);
    e.gradientNorms = std::move(sample);
  }
  emit(std::move(e));
}

// training.paceSeconds: step `done` may not end before pace·done/total seconds of training,
// so the whole run lasts at least the pace. Sleeps in short slices to stay cancellable;
// nothing computed depends on time, so results are unchanged.
void Run::pace(Clock::time_point trainingStart, long long done) const {
  const double paceSeconds = m_config.training.paceSeconds;
  if (paceSeconds <= 0.0) return;
  const auto target =
      trainingStart +
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
          paceSeconds * static_cast<double>(done) / static_cast<double>(m_totalSteps)));
  constexpr auto kSlice = std::chrono::milliseconds(20);
  for (auto now = Clock::now(); now < target && !cancelled(); now = Clock::now()) {
    std::this_thread::sleep_for(std::min<Clock::duration>(target - now, kSlice));
  }
}

}  // namespace

Trainer::Trainer(ExperimentConfig config, std::shared_ptr<const data::Dataset> dataset)
    : m_config(std::move(config)), m_dataset(std::move(dataset)) {}

RunResult Trainer::run(const ProgressCallback& onProgress, const std::atomic<bool>* cancel,
                       RunId id) {
  RunResult result;
  result.runId = id;
  result.config = m_config;
  Run run(m_config, m_dataset, id, onProgress, cancel);
  const auto start = Clock::now();
  try {
    run.execute(result);
  } catch (const Error& e) {
    result.status = RunStatus::Failed;
    result.message = e.what();
    result.inputError = true;
  } catch (const std::exception& e) {
    result.status = RunStatus::Failed;
    result.message = e.what();
  }
  result.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  run.finish(result);
  ProgressEvent last{
      .runId = id, .kind = EventKind::Status, .status = result.status, .message = result.message};
  if (!result.history.empty()) {
    last.step = result.history.back().step;
    last.totalSteps = result.history.back().totalSteps;
    last.epoch = result.history.back().epoch;
    last.privacy = result.history.back().privacy;
  }
  last.elapsedSeconds = result.elapsedSeconds;
  if (onProgress) {
    try {
      onProgress(last);
    } catch (...) {
      // The run is over; a listener failing on its last event cannot change the result.
    }
  }
  return result;
}

bool failedOnInput(const RunResult& result) {
  return result.status == RunStatus::Failed && result.inputError;
}

}  // namespace epsilon::train

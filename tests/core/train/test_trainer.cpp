// The Trainer end to end on small data: a DP run that must learn, every privatizer, schedule,
// optimizer and sampler running through the same loop, divergence with its step, cancellation
// within one step, and the privacy figures each event carries.
#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <iterator>

#include "core/data/registry.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

// Two-class "circle" (TensorFlow Playground's), 1200 points, an MLP 2-16-2.
ExperimentConfig circleConfig() {
  ExperimentConfig c;
  c.dataset.name = "circle";
  c.dataset.options.size = 1200;
  c.dataset.options.noise = 0.05;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {16};
  c.training.lotSize = 48;
  c.training.epochs = 8;
  c.training.seed = 3;
  c.privacy.noise.initial = 1.0;
  c.privacy.privatizer.clipNorm = 1.0;
  c.optimizer.options.kind = optim::OptimizerKind::Momentum;
  c.optimizer.learningRate = 0.1;
  return c;
}

std::shared_ptr<const data::Dataset> circle() {
  static const auto dataset = std::make_shared<const data::Dataset>(
      data::loadDataset("circle", circleConfig().dataset.options));
  return dataset;
}

RunResult runOnCircle(const ExperimentConfig& config, const ProgressCallback& onProgress = {},
                      const std::atomic<bool>* cancel = nullptr) {
  return Trainer(config, circle()).run(onProgress, cancel);
}

}  // namespace

class TestTrainer : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void dpTrainingLearnsCircle() {
    // σ = 1, C = 1, q = 48/960 = 0.05, 160 steps: the DP-SGD MLP separates the circle from
    // its ring (a constant classifier scores 50%).
    const RunResult result = runOnCircle(circleConfig());
    QCOMPARE(runStatusName(result.status), std::string("done"));
    QCOMPARE(result.history.size(), std::size_t(9));  // step 0 and the end of each of 8 epochs
    const ProgressEvent& last = result.history.back();
    QCOMPARE(last.step, 160LL);
    QCOMPARE(last.epoch, 8.0);
    QVERIFY2(last.testAccuracy >= 0.9, qPrintable(QString::number(last.testAccuracy)));
    QVERIFY(last.trainLoss < result.history[1].trainLoss);
    // ε grows with every evaluation and is a finite guarantee under Poisson sampling.
    for (std::size_t i = 1; i < result.history.size(); ++i) {
      QVERIFY(result.history[i].privacy.epsilon > result.history[i - 1].privacy.epsilon);
    }
    QVERIFY(std::isfinite(last.privacy.epsilon) && last.privacy.isGuarantee());
    QCOMPARE(last.privacy.accountant, privacy::AccountantKind::Rdp);
    QCOMPARE(last.privacy.delta, 1e-5);
    QCOMPARE(last.sigma, 1.0);
    QCOMPARE(last.clipNorm, 1.0);
    QVERIFY(last.fractionClipped >= 0.0 && last.fractionClipped <= 1.0);
    QVERIFY(last.meanGradientNorm > 0.0);
    QVERIFY(result.model != nullptr);
    QCOMPARE(result.model->parameterCount(), result.parameterCount);
  }

  void everyEvaluationRecordsAccuracyPerClass() {
    // Per class, in label order; weighted by each class's test examples they give back the
    // overall test accuracy, at every evaluation (step 0 too).
    ExperimentConfig c = circleConfig();
    c.training.epochs = 2;
    const RunResult result = runOnCircle(c);
    const std::vector<int>& labels = circle()->test.labels;
    std::vector<double> count(2, 0.0);
    for (int label : labels) count[static_cast<std::size_t>(label)] += 1;
    QVERIFY(count[0] > 0 && count[1] > 0);
    for (const ProgressEvent& e : result.history) {
      QCOMPARE(e.classAccuracy.size(), std::size_t(2));
      double weighted = 0;
      for (std::size_t k = 0; k < 2; ++k) {
        QVERIFY(e.classAccuracy[k] >= 0 && e.classAccuracy[k] <= 1);
        weighted += e.classAccuracy[k] * count[k];
      }
      QVERIFY(std::abs(weighted / static_cast<double>(labels.size()) - e.testAccuracy) < 1e-12);
    }
  }

  void everyVariantRunsThroughTheSameLoop_data() {
    QTest::addColumn<int>("variant");
    const char* names[] = {"per-layer clip",
                           "tanh",
                           "adaptive linear",
                           "adaptive geometric, fraction_stddev",
                           "micro-batches of 4",
                           "shuffle",
                           "time decay",
                           "step decay",
                           "exp decay",
                           "sgd",
                           "nesterov",
                           "adam",
                           "adagrad",
                           "rmsprop",
                           "step lr decay",
                           "exp lr decay",
                           "pld"};
    for (int i = 0; i < static_cast<int>(std::size(names)); ++i) QTest::newRow(names[i]) << i;
  }
  void everyVariantRunsThroughTheSameLoop() {
    QFETCH(int, variant);
    ExperimentConfig c = circleConfig();
    c.training.epochs = 3;
    auto& z = c.privacy.privatizer;
    switch (variant) {
      case 0:
        z.perLayer = true;
        break;
      case 1:
        z.kind = privacy::PrivatizerKind::Tanh;
        z.tanhScale = 0.1;
        z.tanhActiveRange = 0.5;
        break;
      case 2:
        z.kind = privacy::PrivatizerKind::Adaptive;
        z.clipPolicy = privacy::ClipUpdatePolicy::Linear;
        z.clipLearningRate = 0.05;
        break;
      case 3:
        z.kind = privacy::PrivatizerKind::Adaptive;
        z.fractionStddev = 0.05;
        break;
      case 4:
        c.privacy.microbatchSize = 4;
        break;
      case 5:
        c.privacy.sampling = SamplingKind::Shuffle;
        break;
      case 6:
        c.privacy.noise = {.initial = 2.0, .decay = privacy::NoiseDecay::Time, .rate = 0.01};
        break;
      case 7:
        c.privacy.noise = {.initial = 2.0, .decay = privacy::NoiseDecay::Step, .rate = 0.01};
        break;
      case 8:
        c.privacy.noise = {.initial = 2.0, .decay = privacy::NoiseDecay::Exp, .rate = 0.01};
        break;
      case 9:
        c.optimizer.options.kind = optim::OptimizerKind::Sgd;
        c.optimizer.learningRate = 0.5;
        break;
      case 10:
        c.optimizer.options.nesterov = true;
        break;
      case 11:
        c.optimizer.options.kind = optim::OptimizerKind::Adam;
        c.optimizer.learningRate = 0.01;
        break;
      case 12:
        c.optimizer.options.kind = optim::OptimizerKind::Adagrad;
        c.optimizer.learningRate = 0.1;
        break;
      case 13:
        c.optimizer.options.kind = optim::OptimizerKind::RmsProp;
        c.optimizer.learningRate = 0.01;
        break;
      case 14:
        c.optimizer.lrDecay = optim::LearningRateDecay::Step;
        c.optimizer.lrDecayEpochs = 1;
        break;
      case 15:
        c.optimizer.lrDecay = optim::LearningRateDecay::Exponential;
        c.optimizer.lrDecayEpochs = 1;
        break;
      case 16:
        c.privacy.accountant = privacy::AccountantKind::Pld;
        break;
      default:
        break;
    }
    const RunResult result = runOnCircle(c);
    QVERIFY2(result.status == RunStatus::Done, result.message.c_str());
    QCOMPARE(result.history.back().step, 60LL);
    const ProgressEvent& last = result.history.back();
    QVERIFY2(last.testAccuracy > 0.6, qPrintable(QString::number(last.testAccuracy)));
    QVERIFY(std::isfinite(last.privacy.epsilon) && last.privacy.epsilon > 0);
    switch (variant) {
      case 1:  // honest ε (sensitivity c·√P) far above the nominal one, which is labelled
        QVERIFY(last.privacy.nominalEpsilon && *last.privacy.nominalEpsilon < last.privacy.epsilon);
        QVERIFY(std::isnan(last.clipNorm));
        break;
      case 2:
      case 3:  // C moved; σ_b reported; the gradient's σ_Δ exceeds the step's σ
        QVERIFY(last.clipNorm != 1.0);
        QVERIFY(last.countNoise > 0);
        QVERIFY(last.gradientSigma > last.sigma);
        break;
      case 5:  // shuffled batches: ε assumes Poisson sampling, so it is not a guarantee
        QVERIFY(!last.privacy.isGuarantee());
        QCOMPARE(last.privacy.status, privacy::GuaranteeStatus::AssumesPoisson);
        break;
      case 6:  // σ_t of the last step, t = 59
        QCOMPARE(last.sigma, 2.0 / (1.0 + 0.01 * 59));
        break;
      case 7:
        QCOMPARE(last.sigma, 2.0 * std::pow(0.99, 59));
        break;
      case 8:
        QCOMPARE(last.sigma, 2.0 * std::exp(-0.01 * 59));
        break;
      case 14:  // 0.1·0.5^⌊59/20⌋
        QCOMPARE(last.learningRate, 0.1 * 0.25);
        break;
      case 16: {  // the tight accountant never reports more than RDP for the same run
        ExperimentConfig rdp = c;
        rdp.privacy.accountant = privacy::AccountantKind::Rdp;
        const double rdpEpsilon = runOnCircle(rdp).history.back().privacy.epsilon;
        QVERIFY(last.privacy.epsilon < rdpEpsilon);
        QCOMPARE(last.privacy.accountant, privacy::AccountantKind::Pld);
        break;
      }
      default:
        break;
    }
  }

  void decayingNoiseCostsMorePrivacy() {
    // The same σ₀ with an exponential decay spends more ε than constant noise (seed 002).
    ExperimentConfig constant = circleConfig();
    constant.training.epochs = 3;
    ExperimentConfig decaying = constant;
    decaying.privacy.noise = {.initial = 1.0, .decay = privacy::NoiseDecay::Exp, .rate = 0.01};
    QVERIFY(runOnCircle(decaying).history.back().privacy.epsilon >
            runOnCircle(constant).history.back().privacy.epsilon);
  }

  void nonPrivateBaselineHasNoGuarantee() {
    ExperimentConfig c = circleConfig();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    const RunResult result = runOnCircle(c);
    const ProgressEvent& last = result.history.back();
    QVERIFY(std::isinf(last.privacy.epsilon));
    QVERIFY(!last.privacy.isGuarantee());
    QCOMPARE(last.privacy.status, privacy::GuaranteeStatus::NoPrivacy);
    QVERIFY(std::isnan(last.sigma) && std::isnan(last.fractionClipped));
    QVERIFY(last.testAccuracy >= 0.95);
  }

  void divergenceIsReportedWithItsStep() {
    ExperimentConfig c = circleConfig();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    c.optimizer.options.kind = optim::OptimizerKind::Sgd;
    c.optimizer.learningRate = 1e30;
    const RunResult result = runOnCircle(c);
    QCOMPARE(result.status, RunStatus::Diverged);
    const QString message = QString::fromStdString(result.message);
    QVERIFY2(QRegularExpression(
                 "^(loss|gradient|parameters) became (NaN|Inf|NaN or Inf) at step [0-9]+$")
                 .match(message)
                 .hasMatch(),
             qPrintable(message));
    QVERIFY(result.model &&
            result.model->parameters().allFinite());  // the last finite model is kept
  }

  void snapshotsWhenAsked() {
    ExperimentConfig c = circleConfig();
    c.training.epochs = 2;
    std::vector<std::shared_ptr<const nn::Model<float>>> snapshots;
    Trainer(c, circle()).run([&](const ProgressEvent& e) {
      if (e.kind == EventKind::Evaluation) snapshots.push_back(e.snapshot);
    });
    QVERIFY(std::all_of(snapshots.begin(), snapshots.end(),
                        [](const auto& s) { return s == nullptr; }));
    c.training.snapshots = true;
    snapshots.clear();
    const RunResult result = Trainer(c, circle()).run([&](const ProgressEvent& e) {
      if (e.kind == EventKind::Evaluation) snapshots.push_back(e.snapshot);
    });
    QCOMPARE(snapshots.size(), std::size_t(3));
    QVERIFY(snapshots[0] && snapshots[2]);
    QVERIFY(snapshots[0]->parameters() != snapshots[2]->parameters());  // taken at different points
    QVERIFY(snapshots[2]->parameters() ==
            result.model->parameters());  // the last one is the final model
  }

  void stepEventsWhenAsked() {
    ExperimentConfig c = circleConfig();
    c.training.epochs = 2;
    long long steps = 0;
    Trainer(c, circle()).run([&](const ProgressEvent& e) { steps += e.kind == EventKind::Step; });
    QCOMPARE(steps, 0LL);
    c.training.stepEvents = true;
    std::vector<ProgressEvent> events;
    const RunResult result = Trainer(c, circle()).run([&](const ProgressEvent& e) {
      if (e.kind == EventKind::Step) events.push_back(e);
    });
    QCOMPARE(static_cast<long long>(events.size()), c.totalSteps(circle()->train.size()));
    for (std::size_t i = 0; i < events.size(); ++i) {
      QCOMPARE(events[i].step, static_cast<long long>(i + 1));
      QVERIFY(std::isfinite(events[i].trainLoss) && events[i].trainLoss > 0);
    }
    // The history keeps evaluations only.
    QVERIFY(std::all_of(result.history.begin(), result.history.end(),
                        [](const ProgressEvent& e) { return e.kind == EventKind::Evaluation; }));
  }

  void cancellationBeforeTheFirstStep() {
    std::atomic<bool> cancel{true};
    const RunResult result = runOnCircle(circleConfig(), {}, &cancel);
    QCOMPARE(result.status, RunStatus::Cancelled);
    QCOMPARE(result.history.size(), std::size_t(1));  // only the step-0 evaluation
  }

  void evaluationCadence() {
    // Every 7 steps and at the end of each of the 2 epochs (20 steps each): 0, 7, 14, 20, 21, 28,
    // 35, 40.
    ExperimentConfig c = circleConfig();
    c.training.epochs = 2;
    c.training.evalEverySteps = 7;
    const RunResult result = runOnCircle(c);
    std::vector<long long> steps;
    for (const auto& e : result.history) steps.push_back(e.step);
    QCOMPARE(steps, (std::vector<long long>{0, 7, 14, 20, 21, 28, 35, 40}));
    QCOMPARE(result.history[3].epoch, 1.0);
  }

  void learnsUciDigits() {
    // DP-SGD (σ = 1, C = 1, L = 64, momentum 0.9, lr 0.1) on the UCI 8×8 digits, 15 epochs:
    // an MLP 64-64-10 reaches at least 85% test accuracy (non-private: about 97%).
    ExperimentConfig c;
    c.dataset.name = "uci-digits";
    c.model.hiddenWidths = {64};
    c.training.lotSize = 64;
    c.training.epochs = 15;
    c.privacy.noise.initial = 1.0;
    c.optimizer.options.kind = optim::OptimizerKind::Momentum;
    c.optimizer.learningRate = 0.1;
    const RunResult result = Trainer(c).run();
    QVERIFY2(result.status == RunStatus::Done, result.message.c_str());
    QVERIFY2(result.history.back().testAccuracy >= 0.85,
             qPrintable(QString::number(result.history.back().testAccuracy)));
    QVERIFY(result.history.back().privacy.epsilon < 10.0);
  }

  void badInputFailsWithTheField() {
    ExperimentConfig c = circleConfig();
    c.privacy.noise.initial = -1.0;
    const RunResult result = runOnCircle(c);
    QCOMPARE(result.status, RunStatus::Failed);
    QVERIFY(failedOnInput(result));
    QVERIFY(QString::fromStdString(result.message).startsWith("privacy.noise_multiplier:"));
    ExperimentConfig missing = circleConfig();
    missing.dataset.name = "no-such-data-set";
    const RunResult notFound = Trainer(missing).run();
    QCOMPARE(notFound.status, RunStatus::Failed);
    QVERIFY(failedOnInput(notFound));
  }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"

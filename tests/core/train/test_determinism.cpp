// Same config and seed → bit-identical history and final parameters with 1 thread and with
// 2 (docs/ARCHITECTURE.md, "Determinism"), for the fast clipping path on a CNN, the materialised
// tanh path, and adaptive clipping with micro-batches and shuffled batches; directly in task arenas
// and through the JobRunner.
#include <tbb/task_arena.h>

#include <QTest>
#include <atomic>
#include <chrono>
#include <cstring>

#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/train/job_runner.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

// mnist-10k cut to 1024 training and 300 test images, so a run takes a fraction of a second.
std::shared_ptr<const data::Dataset> smallMnist() {
  static const auto dataset = [] {
    data::Dataset d = data::loadDataset("mnist-10k");
    d.train.features.conservativeResize(1024, Eigen::NoChange);
    d.train.labels.resize(1024);
    d.test.features.conservativeResize(300, Eigen::NoChange);
    d.test.labels.resize(300);
    return std::make_shared<const data::Dataset>(std::move(d));
  }();
  return dataset;
}

ExperimentConfig baseConfig() {
  ExperimentConfig c;
  c.dataset.name = "mnist-10k";
  c.model.preset = "tfp-cnn";
  c.training.lotSize = 64;
  c.training.steps = 6;
  c.training.evalEverySteps = 3;
  c.training.seed = 11;
  c.privacy.noise.initial = 1.1;
  c.optimizer.learningRate = 0.15;
  return c;
}

bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Every field of every event except the wall-clock time, bit for bit.
QString historyDifference(const RunResult& a, const RunResult& b) {
  if (a.history.size() != b.history.size()) return "history lengths differ";
  for (std::size_t i = 0; i < a.history.size(); ++i) {
    const ProgressEvent& x = a.history[i];
    const ProgressEvent& y = b.history[i];
    const std::pair<double, double> fields[] = {{x.trainLoss, y.trainLoss},
                                                {x.testAccuracy, y.testAccuracy},
                                                {x.testLoss, y.testLoss},
                                                {x.privacy.epsilon, y.privacy.epsilon},
                                                {x.sigma, y.sigma},
                                                {x.clipNorm, y.clipNorm},
                                                {x.fractionClipped, y.fractionClipped},
                                                {x.meanGradientNorm, y.meanGradientNorm},
                                                {x.epoch, y.epoch}};
    for (const auto& [u, v] : fields) {
      if (!sameBits(u, v))
        return QString("event %1: %2 vs %3").arg(i).arg(u, 0, 'g', 17).arg(v, 0, 'g', 17);
    }
    if (x.step != y.step) return QString("event %1: step").arg(i);
  }
  const auto& p = a.model->parameters();
  const auto& q = b.model->parameters();
  if (p.size() != q.size() ||
      std::memcmp(p.data(), q.data(), sizeof(float) * static_cast<std::size_t>(p.size())) != 0) {
    return "final parameters differ";
  }
  return {};
}

RunResult runIn(int threads, const ExperimentConfig& config) {
  RunResult result;
  tbb::task_arena(threads).execute([&] { result = Trainer(config, smallMnist()).run(); });
  return result;
}

}  // namespace

class TestDeterminism : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void oneThreadEqualsTwo_data() {
    QTest::addColumn<int>("variant");
    QTest::newRow("clip, tfp-cnn, Poisson") << 0;
    QTest::newRow("tanh, mlp, momentum") << 1;
    QTest::newRow("adaptive, micro-batches of 4, shuffle, adam") << 2;
    QTest::newRow("per-layer clip, exp noise decay, rmsprop") << 3;
    QTest::newRow("clip, tfp-cnn, lots of 256 in chunks of 16") << 4;
  }
  void oneThreadEqualsTwo() {
    QFETCH(int, variant);
    ExperimentConfig c = baseConfig();
    if (variant == 1) {
      c.model.preset = "mlp";
      c.model.hiddenWidths = {64};
      c.privacy.privatizer.kind = privacy::PrivatizerKind::Tanh;
      c.privacy.privatizer.tanhScale = 0.01;
      c.optimizer.options.kind = optim::OptimizerKind::Momentum;
    } else if (variant == 2) {
      c.privacy.privatizer.kind = privacy::PrivatizerKind::Adaptive;
      c.privacy.microbatchSize = 4;
      c.privacy.sampling = SamplingKind::Shuffle;
      c.optimizer.options.kind = optim::OptimizerKind::Adam;
      c.optimizer.learningRate = 0.001;
    } else if (variant == 3) {
      c.privacy.privatizer.perLayer = true;
      c.privacy.noise.decay = privacy::NoiseDecay::Exp;
      c.privacy.noise.rate = 0.05;
      c.optimizer.options.kind = optim::OptimizerKind::RmsProp;
      c.optimizer.learningRate = 0.001;
    } else if (variant == 4) {
      c.training.lotSize = 256;
      QVERIFY(nn::Model<float>::chunkSize(256) < nn::Model<float>::chunkSize(64));
    }
    const RunResult one = runIn(1, c);
    const RunResult two = runIn(2, c);
    QCOMPARE(runStatusName(one.status), std::string("done"));
    QVERIFY(one.history.size() >= 3);  // lots of 256: an epoch of 4 steps adds an evaluation
    const QString difference = historyDifference(one, two);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
  }

  void jobRunnerWithOneAndTwoThreads() {
    const ExperimentConfig c = baseConfig();
    JobRunner single({.threads = 1});
    JobRunner dual({.threads = 2});
    const RunResult a = single.wait(single.submit(c, {}, smallMnist()));
    const RunResult b = dual.wait(dual.submit(c, {}, smallMnist()));
    QCOMPARE(single.threads(), 1);
    QCOMPARE(dual.threads(), 2);
    const QString difference = historyDifference(a, b);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // …and equal to a run straight on this thread.
    QVERIFY(historyDifference(a, runIn(2, c)).isEmpty());
  }

  void paceAndNormRecordingChangeNoResult_data() {
    QTest::addColumn<int>("privatizer");
    QTest::newRow("clip") << int(privacy::PrivatizerKind::Clip);
    QTest::newRow("none") << int(privacy::PrivatizerKind::None);
  }
  void paceAndNormRecordingChangeNoResult() {
    // A paced run with the gradient-norm view on computes exactly what a plain run computes,
    // and lasts at least the pace.
    QFETCH(int, privatizer);
    ExperimentConfig plain = baseConfig();
    plain.privacy.privatizer.kind = static_cast<privacy::PrivatizerKind>(privatizer);
    ExperimentConfig paced = plain;
    paced.training.paceSeconds = 0.6;
    paced.training.gradientNorms = true;
    long long normEvents = 0;
    const RunResult a = Trainer(plain, smallMnist()).run();
    const RunResult b = Trainer(paced, smallMnist()).run([&](const ProgressEvent& e) {
      if (e.gradientNorms) ++normEvents;
    });
    QCOMPARE(runStatusName(b.status), std::string("done"));
    QCOMPARE(normEvents, plain.training.steps);
    const QString difference = historyDifference(a, b);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY2(b.elapsedSeconds >= 0.6, qPrintable(QString::number(b.elapsedSeconds)));
  }

  void pacedRunStaysCancellable() {
    // A 10 s pace over 6 steps pauses until 1.67 s after step 1; cancelled at step 1's event
    // (just before that pause), the run ends well before the pause would.
    ExperimentConfig c = baseConfig();
    c.training.paceSeconds = kMaxPaceSeconds;
    c.training.stepEvents = true;
    // Timed from the cancelling event, not from the start: under a sanitizer or on a loaded
    // machine the steps before it may take longer than the whole pause.
    std::atomic<bool> cancel{false};
    std::chrono::steady_clock::time_point cancelledAt;
    const RunResult r = Trainer(c, smallMnist())
                            .run(
                                [&](const ProgressEvent& e) {
                                  if (e.kind != EventKind::Step || cancel) return;
                                  cancelledAt = std::chrono::steady_clock::now();
                                  cancel = true;
                                },
                                &cancel);
    const std::chrono::duration<double> afterCancel =
        std::chrono::steady_clock::now() - cancelledAt;
    QCOMPARE(runStatusName(r.status), std::string("cancelled"));
    QCOMPARE(r.message, std::string("cancelled after step 1"));
    QVERIFY2(afterCancel.count() < 1.0, qPrintable(QString::number(afterCancel.count())));
  }

  void paceBeyondTheCapIsRefused() {
    ExperimentConfig c = baseConfig();
    c.training.paceSeconds = kMaxPaceSeconds + 1;
    const RunResult r = Trainer(c, smallMnist()).run();
    QCOMPARE(runStatusName(r.status), std::string("failed"));
    QVERIFY(failedOnInput(r));
    QVERIFY2(r.message.find("training.pace_seconds") != std::string::npos, r.message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestDeterminism)
#include "test_determinism.moc"

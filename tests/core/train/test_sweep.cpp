// Sweeps expand to every combination, name bad parameters and values, and shard exactly.
#include <QTest>
#include <set>
#include <string>
#include <vector>

#include "core/common/errors.h"
#include "core/train/sweep.h"

using namespace epsilon;
using namespace epsilon::train;

class TestSweep : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void twoAxesGiveEveryCombination() {
    ExperimentConfig base;
    base.dataset.name = "circle";
    const auto points = expandSweep(
        base, {{"noise_multiplier", {"0.5", "1", "2"}}, {"optimizer", {"sgd", "adam"}}});
    QCOMPARE(points.size(), std::size_t{6});
    QCOMPARE(points[0].config.privacy.noise.initial, 0.5);
    QCOMPARE(points[1].config.optimizer.options.kind, optim::OptimizerKind::Adam);
    QCOMPARE(points[5].config.privacy.noise.initial, 2.0);
    QCOMPARE(points[3].label, std::string("noise_multiplier=1, optimizer=adam"));
    for (int i = 0; i < 6; ++i) QCOMPARE(points[static_cast<std::size_t>(i)].index, i);
  }
  void everyParameterApplies() {
    ExperimentConfig c;
    applySweepValue(c, "clip_norm", "4");
    applySweepValue(c, "learning_rate", "0.08");
    applySweepValue(c, "lot_size", "128");
    applySweepValue(c, "tanh_k", "8");
    applySweepValue(c, "noise_schedule", "time");
    applySweepValue(c, "train_size", "1000");
    QCOMPARE(c.privacy.privatizer.clipNorm, 4.0);
    QCOMPARE(c.optimizer.learningRate, 0.08);
    QCOMPARE(c.training.lotSize, 128);
    QCOMPARE(c.privacy.privatizer.tanhActiveRange, 8.0);
    QCOMPARE(c.privacy.noise.decay, privacy::NoiseDecay::Time);
    QCOMPARE(c.dataset.options.maxTrain, 1000L);
  }
  void badInputIsNamed() {
    ExperimentConfig c;
    try {
      applySweepValue(c, "clip_norm", "big");
      QFAIL("accepted a non-number");
    } catch (const ConfigError& e) {
      QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("sweep.clip_norm")));
    }
    QVERIFY_THROWS_EXCEPTION(ConfigError, applySweepValue(c, "colour", "red"));
    QVERIFY_THROWS_EXCEPTION(ConfigError, expandSweep(c, {}));
    QVERIFY_THROWS_EXCEPTION(ConfigError, expandSweep(c, {{"seed", {}}}));
    QVERIFY_THROWS_EXCEPTION(ConfigError, expandSweep(c, {{"seed", {"1"}}, {"seed", {"2"}}}));
    // A value that makes the config invalid is refused when expanding, naming the field.
    QVERIFY_THROWS_EXCEPTION(ConfigError, expandSweep(c, {{"noise_multiplier", {"-1"}}}));
  }
  // kMaxSweepRuns (10,000) points are made; one more is refused before any point is made.
  void sweepSizeIsLimited() {
    const auto values = [](int n) {
      std::vector<std::string> v;
      for (int i = 1; i <= n; ++i) v.push_back(std::to_string(i));
      return v;
    };
    ExperimentConfig c;
    QCOMPARE(expandSweep(c, {{"seed", values(100)}, {"epochs", values(100)}}).size(),
             kMaxSweepRuns);
    try {
      expandSweep(c, {{"seed", values(101)}, {"epochs", values(100)}});
      QFAIL("a sweep of 10,100 runs was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(
                   "sweep: 101 × 100 values expand to more than 10000 runs"),
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(ConfigError, expandSweep(c, {{"seed", values(10001)}}));
  }
  void shardsCoverTheSweepOnce() {
    ExperimentConfig base;
    const auto points = expandSweep(base, {{"seed", {"1", "2", "3", "4", "5", "6", "7"}}});
    std::multiset<int> seen;
    for (int k = 1; k <= 3; ++k)
      for (const auto& p : shardOf(points, k, 3)) seen.insert(p.index);
    QCOMPARE(seen.size(), std::size_t{7});
    QCOMPARE(std::set<int>(seen.begin(), seen.end()).size(), std::size_t{7});
    QCOMPARE(shardOf(points, 2, 3).size(), std::size_t{2});
    QCOMPARE(parseShard("2/8"), std::make_pair(2, 8));
    QVERIFY_THROWS_EXCEPTION(ConfigError, parseShard("9/8"));
    QVERIFY_THROWS_EXCEPTION(ConfigError, parseShard("x"));
  }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "test_sweep.moc"

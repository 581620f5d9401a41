// Sweeps expand to every combination, name bad parameters and values, and shard exactly.
#include <QTest>
#include <cmath>
#include <optional>
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
  // "Fix ε" over a sweep: each point's σ₀ for its own epochs, never one σ for all, each
  // planned ε at most its target and within 1% of it (σ rounded up onto 3 decimals).
  void targetEpsilonCalibratesEachPoint() {
    ExperimentConfig base;
    base.dataset.name = "circle";
    base.training.lotSize = 64;
    auto points = expandSweep(base, {{"epochs", {"1", "4", "16"}}}, 2.0);
    QCOMPARE(points.size(), std::size_t{3});
    for (const auto& p : points) QCOMPARE(p.targetEpsilon, std::optional<double>(2.0));
    const RunPlanInput input{1000, 100};
    calibrateSweep(
        points, [&](const ExperimentConfig&) { return input; }, 3);
    std::set<double> sigmas;
    for (const auto& p : points) {
      const double eps = plannedPrivacy(p.config, input).epsilon;
      QVERIFY2(eps <= 2.0 && eps >= 0.99 * 2.0, qPrintable(QString::number(eps, 'g', 9)));
      const double thousandths = p.config.privacy.noise.initial * 1000;
      QVERIFY(std::fabs(thousandths - std::round(thousandths)) < 1e-6);
      sigmas.insert(p.config.privacy.noise.initial);
    }
    QCOMPARE(sigmas.size(), std::size_t{3});
    QVERIFY(points[0].config.privacy.noise.initial < points[2].config.privacy.noise.initial);
    // A target_epsilon axis gives each point its own target.
    auto axis = expandSweep(base, {{"target_epsilon", {"0.5", "4"}}, {"epochs", {"1", "2"}}});
    QCOMPARE(axis.size(), std::size_t{4});
    QCOMPARE(axis[0].targetEpsilon, std::optional<double>(0.5));
    QCOMPARE(axis[3].targetEpsilon, std::optional<double>(4.0));
    QVERIFY(isSweepParameter("target_epsilon"));
    // Without a target nothing is calibrated.
    auto plain = expandSweep(base, {{"epochs", {"1", "2"}}});
    QVERIFY(!plain[0].targetEpsilon);
    calibrateSweep(plain, [&](const ExperimentConfig&) { return input; });
    QCOMPARE(plain[1].config.privacy.noise.initial, base.privacy.noise.initial);
  }
  void targetEpsilonRefusesWhatCannotBeCalibrated() {
    ExperimentConfig base;
    const auto refused = [&](std::vector<SweepAxis> axes, std::optional<double> target,
                             const char* words) {
      try {
        expandSweep(base, axes, target);
      } catch (const ConfigError& e) {
        return std::string(e.what()).find(words) != std::string::npos;
      }
      return false;
    };
    QVERIFY(refused({{"noise_multiplier", {"1", "2"}}}, 2.0, "noise_multiplier cannot be swept"));
    QVERIFY(refused({{"privatizer", {"clip", "none"}}}, 2.0, "no σ to calibrate"));
    QVERIFY(refused({{"target_epsilon", {"0"}}}, std::nullopt, "expected a number > 0, got '0'"));
    QVERIFY(refused({{"target_epsilon", {"nan"}}}, std::nullopt, "got 'nan'"));
    // A target the PCA-free run cannot reach names the point.
    auto points = expandSweep(base, {{"epochs", {"1"}}}, 1e-9);
    try {
      calibrateSweep(points, [](const ExperimentConfig&) { return RunPlanInput{1000, 1}; });
      QFAIL("an unreachable target was accepted");
    } catch (const PrivacyError& e) {
      QVERIFY2(std::string(e.what()).find("sweep point 'epochs=1'") != std::string::npos, e.what());
    }
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

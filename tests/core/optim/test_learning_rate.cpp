// Learning-rate schedules against values worked out by hand.
#include <QTest>

#include "core/common/errors.h"
#include "core/optim/learning_rate.h"

using namespace epsilon::optim;

class TestLearningRate : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void constant() {
    const LearningRateSchedule s{.initial = 0.15};
    QCOMPARE(s.at(0), 0.15);
    QCOMPARE(s.at(100000), 0.15);
  }

  void stepDecay() {
    // Halve every 10 steps: 0.2 for steps 0-9, 0.1 for 10-19, 0.05 from 20.
    const LearningRateSchedule s{
        .initial = 0.2, .decay = LearningRateDecay::Step, .decayRate = 0.5, .decaySteps = 10};
    QCOMPARE(s.at(0), 0.2);
    QCOMPARE(s.at(9), 0.2);
    QCOMPARE(s.at(10), 0.1);
    QCOMPARE(s.at(25), 0.05);
  }

  void exponentialDecay() {
    // 0.2·0.5^(t/10): 0.2·2^(−0.5) at t = 5.
    const LearningRateSchedule s{.initial = 0.2,
                                 .decay = LearningRateDecay::Exponential,
                                 .decayRate = 0.5,
                                 .decaySteps = 10};
    QVERIFY(qFuzzyCompare(s.at(5), 0.14142135623730950));
    QVERIFY(qFuzzyCompare(s.at(20), 0.05));
  }

  void linearDecay() {
    // Abadi et al. 2016, §5.1: 0.1 falling linearly to 0.052 over 10 epochs, then held.
    const LearningRateSchedule s{
        .initial = 0.1, .decay = LearningRateDecay::Linear, .decayRate = 0.52, .decaySteps = 100};
    QVERIFY(qFuzzyCompare(s.at(0), 0.1));
    QVERIFY(qFuzzyCompare(s.at(50), 0.076));
    QVERIFY(qFuzzyCompare(s.at(100), 0.052));
    QVERIFY(qFuzzyCompare(s.at(1000), 0.052));
    QCOMPARE(parseLearningRateDecay("linear"), LearningRateDecay::Linear);
    QCOMPARE(learningRateDecayName(LearningRateDecay::Linear), std::string("linear"));
  }

  void validation() {
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError,
                             (LearningRateSchedule{.initial = -1}.validate()));
    QVERIFY_THROWS_EXCEPTION(
        epsilon::ConfigError,
        (LearningRateSchedule{.decay = LearningRateDecay::Step, .decayRate = 1.5}.validate()));
    QCOMPARE(parseLearningRateDecay("exp"), LearningRateDecay::Exponential);
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, parseLearningRateDecay("cosine"));
  }
};

QTEST_APPLESS_MAIN(TestLearningRate)
#include "test_learning_rate.moc"

// Comparing ExperimentConfigs: equal configs compare equal, and each change is named by its
// experiment-file key, exactly (a rounded number differs).
#include <QTest>

#include "core/train/config_compare.h"

using namespace epsilon::train;

class TestConfigCompare : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void equalConfigsAreEqual() {
    QVERIFY(ExperimentConfig{} == ExperimentConfig{});
    QVERIFY(differingFields({}, {}).empty());
    QVERIFY(comparedFieldCount() >= 50);
  }

  void eachChangeIsNamed() {
    const ExperimentConfig base;
    ExperimentConfig c = base;
    c.privacy.noise.initial = 1.1000000001;  // a rounding away
    c.optimizer.options.beta2 = 0.99;
    c.training.paceSeconds = 2.0;  // not in the file, compared all the same
    const std::vector<std::string> expected{"privacy.noise_multiplier", "optimizer.beta2",
                                            "training.pace_seconds"};
    QCOMPARE(differingFields(base, c), expected);
    QVERIFY(!(base == c));
    c.privacy.privatizer.fractionStddev = 0.1;  // an optional that is set vs one that is not
    QCOMPARE(differingFields(base, c).size(), std::size_t{4});
    QCOMPARE(differingFields(base, c).front(),
             std::string("privacy.fraction_stddev"));  // declaration order
  }
};

QTEST_APPLESS_MAIN(TestConfigCompare)
#include "test_config_compare.moc"

// σ_t of each noise schedule against values worked out by hand (σ₀ = 2, ρ = 0.1).
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/privacy/noise_schedule.h"

using namespace epsilon::privacy;

class TestNoiseSchedule : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void constant() {
    const NoiseSchedule s{.initial = 1.1};
    QCOMPARE(s.sigmaAt(0), 1.1);
    QCOMPARE(s.sigmaAt(14000), 1.1);
    QVERIFY(s.isConstant());
  }

  void time() {
    // σ₀/(1 + ρt): 2/(1 + 1) = 1 at t = 10, 2/3.5 at t = 25.
    const NoiseSchedule s{.initial = 2.0, .decay = NoiseDecay::Time, .rate = 0.1};
    QCOMPARE(s.sigmaAt(0), 2.0);
    QCOMPARE(s.sigmaAt(10), 1.0);
    QVERIFY(qFuzzyCompare(s.sigmaAt(25), 2.0 / 3.5));
    QVERIFY(!s.isConstant());
  }

  void step() {
    // σ₀(1 − ρ)^t: 2·0.9 = 1.8, 2·0.81 = 1.62, 2·0.9^10 = 0.6973568802.
    const NoiseSchedule s{.initial = 2.0, .decay = NoiseDecay::Step, .rate = 0.1};
    QVERIFY(qFuzzyCompare(s.sigmaAt(1), 1.8));
    QVERIFY(qFuzzyCompare(s.sigmaAt(2), 1.62));
    QVERIFY(qFuzzyCompare(s.sigmaAt(10), 0.6973568802));
  }

  void exponential() {
    // σ₀e^(−ρt): 2/e = 0.7357588823 at t = 10, 2e^(−0.05) = 1.9024588490 at t = 0.5/ρ... t = 1:
    // 2e^(−0.1).
    const NoiseSchedule s{.initial = 2.0, .decay = NoiseDecay::Exp, .rate = 0.1};
    QVERIFY(qFuzzyCompare(s.sigmaAt(10), 0.7357588823428847));
    QVERIFY(qFuzzyCompare(s.sigmaAt(1), 1.8096748360719193));
  }

  void validation() {
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, (NoiseSchedule{.initial = -1.0}.validate()));
    try {
      NoiseSchedule{.initial = 1.0, .decay = NoiseDecay::Step, .rate = 1.0}.validate();
      QFAIL("step decay with ρ = 1 accepted");
    } catch (const epsilon::ConfigError& e) {
      QVERIFY(QString(e.what()).contains("privacy.noise_decay_rate"));
    }
    QCOMPARE(parseNoiseDecay("time"), NoiseDecay::Time);
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, parseNoiseDecay("linear"));
  }
};

QTEST_APPLESS_MAIN(TestNoiseSchedule)
#include "test_noise_schedule.moc"

// Calibrating the length of a run for a target ε at fixed σ (calibrateSteps): the answer is
// the boundary (ε(T) ≤ target < ε(T + 1)) for both accountants, is consistent with noise
// calibration, and bad arguments are refused with a message naming them.
#include <QTest>

#include "core/common/errors.h"
#include "core/privacy/dp_event.h"
#include "core/privacy/step_calibration.h"
#include "dp_sgd_run.h"

using namespace epsilon;
using namespace epsilon::privacy;
using epsilon::privacy::test::calibrateDpSgd;

namespace {

double epsilonAfter(AccountantKind kind, double q, double sigma, long long steps, double delta) {
  const auto accountant = makeAccountant(kind);
  accountant->compose(dpSgdStepEvent(q, sigma), steps);
  return accountant->epsilon(delta);
}

}  // namespace

class TestPrivacyStepCalibration : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void findsTheLastStepWithinBudget_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("target");
    // Fashion-MNIST, lot 8192 of 60000, as Tramèr & Boneh's ScatterNet runs at ε = 3.
    QTest::newRow("rdp lot 8192") << int(AccountantKind::Rdp) << 8192.0 / 60000 << 5.67 << 3.0;
    QTest::newRow("rdp lot 256") << int(AccountantKind::Rdp) << 256.0 / 60000 << 1.1 << 2.0;
    QTest::newRow("pld lot 2048") << int(AccountantKind::Pld) << 2048.0 / 60000 << 2.0 << 3.0;
  }
  void findsTheLastStepWithinBudget() {
    QFETCH(int, kind);
    QFETCH(double, q);
    QFETCH(double, sigma);
    QFETCH(double, target);
    const auto k = AccountantKind(kind);
    const StepCalibration c = calibrateSteps(k, q, sigma, 1e-5, target);
    QVERIFY(c.steps > 1);
    QVERIFY(c.epsilon <= target);
    QCOMPARE(c.epsilon, epsilonAfter(k, q, sigma, c.steps, 1e-5));
    QVERIFY(epsilonAfter(k, q, sigma, c.steps + 1, 1e-5) > target);
    QVERIFY(c.evaluations < 64);  // doubling then bisection, not a scan
  }

  // Noise calibration for that many steps gives back (at most) the σ we started from.
  void agreesWithNoiseCalibration() {
    const double q = 4096.0 / 60000, sigma = 3.0;
    const StepCalibration c = calibrateSteps(AccountantKind::Rdp, q, sigma, 1e-5, 3.0);
    const Calibration back = calibrateDpSgd(AccountantKind::Rdp, q, c.steps, 1e-5, 3.0);
    QVERIFY(back.noiseMultiplier <= sigma * (1 + 1e-3));
    const Calibration longer = calibrateDpSgd(AccountantKind::Rdp, q, c.steps + 1, 1e-5, 3.0);
    QVERIFY(longer.noiseMultiplier > sigma * (1 - 1e-3));
  }

  void edgesAndRefusals() {
    // Even one step at σ 0.3 with q = 1 costs far more than ε 0.1.
    QCOMPARE(calibrateSteps(AccountantKind::Rdp, 1.0, 0.3, 1e-5, 0.1).steps, 0LL);
    // A budget that never runs out within the cap returns the cap.
    QCOMPARE(calibrateSteps(AccountantKind::Rdp, 0.001, 50.0, 1e-5, 10.0, 1000).steps, 1000LL);
    try {
      calibrateSteps(AccountantKind::Rdp, 0.01, -1.0, 1e-5, 3.0);
      QFAIL("expected a PrivacyError");
    } catch (const PrivacyError& e) {
      QVERIFY2(QString(e.what()).contains("noise multiplier") && QString(e.what()).contains("-1"),
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateSteps(AccountantKind::Rdp, 0.0, 1.0, 1e-5, 3));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateSteps(AccountantKind::Rdp, 0.1, 1.0, 2.0, 3));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateSteps(AccountantKind::Rdp, 0.1, 1.0, 1e-5, 0));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyStepCalibration)
#include "test_privacy_step_calibration.moc"

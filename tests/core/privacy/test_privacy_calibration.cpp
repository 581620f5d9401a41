// Noise calibration: the σ found meets the target and a 1e-4 smaller one does not, for both
// accountants; impossible targets are explicit errors.
#include <QTest>
#include <atomic>
#include <cmath>

#include "core/common/errors.h"
#include "core/privacy/calibration.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"
#include "dp_sgd_run.h"

using namespace epsilon;
using namespace epsilon::privacy;
using epsilon::privacy::test::calibrateDpSgd;

namespace {

double epsilonAt(AccountantKind kind, double q, long long steps, double sigma, double delta) {
  const auto accountant = makeAccountant(kind);
  accountant->compose(dpSgdStepEvent(q, sigma), steps);
  return accountant->epsilon(delta);
}

}  // namespace

class TestPrivacyCalibration : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void invertsEpsilon_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("q");
    QTest::addColumn<int>("steps");
    QTest::addColumn<double>("target");
    QTest::newRow("rdp tutorial") << 0 << 256.0 / 60000.0 << 14063 << 3.0;
    QTest::newRow("rdp small eps") << 0 << 0.01 << 1000 << 0.5;
    QTest::newRow("rdp large q") << 0 << 0.5 << 10 << 8.0;
    QTest::newRow("pld abadi") << 1 << 0.01 << 10000 << 1.0;
    QTest::newRow("pld few steps") << 1 << 0.05 << 20 << 2.0;
  }

  void invertsEpsilon() {
    QFETCH(int, kind);
    QFETCH(double, q);
    QFETCH(int, steps);
    QFETCH(double, target);
    const auto accountantKind = static_cast<AccountantKind>(kind);
    const Calibration result = calibrateDpSgd(accountantKind, q, steps, 1e-5, target);
    QVERIFY(result.epsilon <= target);
    QCOMPARE(result.epsilon, epsilonAt(accountantKind, q, steps, result.noiseMultiplier, 1e-5));
    // Smallest: 1e-4 relatively less noise breaks the budget.
    const double tighter = result.noiseMultiplier * (1.0 - 1.5e-4);
    QVERIFY2(epsilonAt(accountantKind, q, steps, tighter, 1e-5) > target,
             qPrintable(QString::number(result.noiseMultiplier, 'g', 10)));
  }

  void knownNoiseForTheTutorial() {
    // The TF Privacy tutorial's σ = 1.1 gives ε ≈ 2.597 (RDP, improved): calibrating to
    // that ε must give σ ≈ 1.1 back.
    const Calibration result =
        calibrateDpSgd(AccountantKind::Rdp, 256.0 / 60000.0, 14063, 1e-5, 2.5966);
    QVERIFY2(std::fabs(result.noiseMultiplier - 1.1) < 1e-3,
             qPrintable(QString::number(result.noiseMultiplier, 'g', 10)));
  }

  void pldNeedsLessNoise() {
    const Calibration rdp = calibrateDpSgd(AccountantKind::Rdp, 0.01, 10000, 1e-5, 1.0);
    const Calibration pld = calibrateDpSgd(AccountantKind::Pld, 0.01, 10000, 1e-5, 1.0);
    QVERIFY(pld.noiseMultiplier < rdp.noiseMultiplier);
  }

  void unreachableTargetsAreErrors() {
    for (double target : {0.0, -1.0, 1e-9}) {
      try {
        calibrateDpSgd(AccountantKind::Rdp, 0.5, 100000, 1e-5, target);
        QFAIL("an unreachable target was calibrated");
      } catch (const PrivacyError& e) {
        QVERIFY2(std::string(e.what()).find("cannot be reached") != std::string::npos, e.what());
      }
    }
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateDpSgd(AccountantKind::Rdp, 0.0, 10, 1e-5, 1.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateDpSgd(AccountantKind::Rdp, 0.1, 10, 2.0, 1.0));
    // No step releases nothing: the smallest σ already meets any target, at ε 0.
    const Calibration none = calibrateDpSgd(AccountantKind::Rdp, 0.1, 0, 1e-5, 1.0);
    QCOMPARE(none.epsilon, 0.0);
    QCOMPARE(none.noiseMultiplier, CalibrationOptions{}.minNoiseMultiplier);
  }

  // A σ kept with 3 decimals (as the panel's field keeps it) is rounded up: its ε never
  // exceeds the target, while rounding to the nearest would have overshot in some cases.
  void roundedSigmaNeverExceedsTheTarget() {
    int nearestWouldOvershoot = 0;
    for (double target : {0.5, 1.0, 2.0, 2.5, 8.0}) {
      for (long long steps : {1000LL, 10000LL, 14063LL}) {
        const auto epsilonOf = [&](double sigma) {
          return epsilonAt(AccountantKind::Rdp, 256.0 / 60000.0, steps, sigma, 1e-5);
        };
        CalibrationOptions options;
        options.roundUpDecimals = 3;
        const Calibration rounded = calibrateNoiseMultiplier(epsilonOf, target, options);
        const double units = rounded.noiseMultiplier * 1000.0;
        QVERIFY(std::fabs(units - std::round(units)) < 1e-6);
        QVERIFY(rounded.epsilon <= target);
        QCOMPARE(rounded.epsilon, epsilonOf(rounded.noiseMultiplier));
        QVERIFY(rounded.epsilon >= 0.99 * target);
        const Calibration exact = calibrateNoiseMultiplier(epsilonOf, target);
        QVERIFY(rounded.noiseMultiplier >= exact.noiseMultiplier);
        QVERIFY(rounded.noiseMultiplier < exact.noiseMultiplier + 0.001 + 1e-12);
        if (epsilonOf(std::round(exact.noiseMultiplier * 1000.0) / 1000.0) > target)
          ++nearestWouldOvershoot;
      }
    }
    QVERIFY(nearestWouldOvershoot > 0);
  }

  void genericFunction() {
    // ε(σ) = 10/σ: target 4 gives σ = 2.5.
    const Calibration result =
        calibrateNoiseMultiplier([](double sigma) { return 10.0 / sigma; }, 4.0);
    QVERIFY(std::fabs(result.noiseMultiplier - 2.5) <= 2.5e-4);
    QVERIFY(result.epsilon <= 4.0);
    // A target met even by the smallest σ returns that σ.
    const Calibration easy = calibrateNoiseMultiplier([](double) { return 0.1; }, 4.0);
    QCOMPARE(easy.noiseMultiplier, CalibrationOptions{}.minNoiseMultiplier);
  }

  void aSetCancelFlagStopsWithinOneEvaluation() {
    // An overtaken "Fix ε" calibration frees its core: the flag, set during the third ε
    // evaluation, stops the search before a fourth.
    std::atomic<bool> cancel{false};
    int evaluations = 0;
    CalibrationOptions options;
    options.cancel = &cancel;
    const auto epsilonOf = [&](double sigma) {
      if (++evaluations == 3) cancel = true;
      return 10.0 / sigma;
    };
    QVERIFY_THROWS_EXCEPTION(Cancelled, calibrateNoiseMultiplier(epsilonOf, 4.0, options));
    QCOMPARE(evaluations, 3);
    // Unset, it changes nothing: the same σ as without a flag.
    cancel = false;
    const Calibration flagged =
        calibrateNoiseMultiplier([](double sigma) { return 10.0 / sigma; }, 4.0, options);
    QCOMPARE(
        flagged.noiseMultiplier,
        calibrateNoiseMultiplier([](double sigma) { return 10.0 / sigma; }, 4.0).noiseMultiplier);
  }
};

QTEST_APPLESS_MAIN(TestPrivacyCalibration)
#include "test_privacy_calibration.moc"

// What ε means to an attacker: the (ε, δ) and profile bounds on a membership test's TPR at
// a given FPR, and the maximal advantage.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/tradeoff.h"

using namespace epsilon;
using namespace epsilon::privacy;

class TestPrivacyTradeoff : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void epsilonDeltaBound() {
    // Perfect privacy: no test beats chance.
    for (double fpr : {0.0, 0.01, 0.3, 1.0}) QCOMPARE(tprBound(0.0, 0.0, fpr), fpr);
    // ε = 1, δ = 1e-5 at FPR 1%: e·0.01 + 1e-5.
    QVERIFY(std::fabs(tprBound(1.0, 1e-5, 0.01) - (std::exp(1.0) * 0.01 + 1e-5)) < 1e-15);
    // At large FPR the symmetric line binds: 1 − e^{−1}(1 − 1e-5 − 0.9).
    QVERIFY(std::fabs(tprBound(1.0, 1e-5, 0.9) - (1.0 - std::exp(-1.0) * (1.0 - 1e-5 - 0.9))) <
            1e-15);
    // Clamped to 1; δ alone is the TPR at FPR 0.
    QCOMPARE(tprBound(1.0, 0.5, 0.9), 1.0);
    QVERIFY(std::fabs(tprBound(10.0, 0.0, 0.5) - (1.0 - 0.5 * std::exp(-10.0))) < 1e-15);
    QCOMPARE(tprBound(2.0, 0.01, 0.0), 0.01);
    QCOMPARE(tprBound(INFINITY, 0.0, 0.1), 1.0);
    QVERIFY_THROWS_EXCEPTION(PrivacyError, tprBound(1.0, 0.0, 1.5));
  }

  void advantage() {
    QCOMPARE(maxAdvantage(0.0, 0.0), 0.0);
    const double epsilon = 1.0;
    const double delta = 1e-5;
    const double closed = maxAdvantage(epsilon, delta);
    QVERIFY(std::fabs(closed - (std::exp(1.0) - 1.0 + 2e-5) / (std::exp(1.0) + 1.0)) < 1e-15);
    // Equals the largest TPR − FPR on a fine FPR grid.
    double best = 0.0;
    for (int i = 0; i <= 100000; ++i) {
      const double fpr = i / 100000.0;
      best = std::max(best, tprBound(epsilon, delta, fpr) - fpr);
    }
    QVERIFY(std::fabs(best - closed) < 1e-5);
  }

  void profileIsTighterThanAnySinglePoint() {
    PldAccountant accountant;
    accountant.compose(dpSgdStepEvent(0.01, 1.0), 1000);
    const std::vector<double> epsilons = epsilonGrid(6.0, 121);
    const PrivacyProfile profile = samplePrivacyProfile(accountant, epsilons);
    QCOMPARE(profile.size(), std::size_t{121});
    QCOMPARE(profile.front().first, 0.0);
    const double epsilonAtDelta = accountant.epsilon(1e-5);
    const std::vector<double> fprs{0.0, 0.001, 0.01, 0.1, 0.5, 0.9, 1.0};
    const std::vector<double> curve = tprBoundCurve(profile, fprs);
    double previous = 0.0;
    for (std::size_t i = 0; i < fprs.size(); ++i) {
      // A valid trade-off curve: within [FPR, 1], non-decreasing, below the single (ε, δ) bound.
      QVERIFY(curve[i] >= fprs[i] - 1e-12 && curve[i] <= 1.0);
      QVERIFY(curve[i] >= previous);
      QVERIFY(curve[i] <= tprBound(epsilonAtDelta, 1e-5, fprs[i]) + 1e-9);
      previous = curve[i];
    }
    // At FPR 1% the profile bound is strictly better than the one-point bound.
    QVERIFY(curve[2] < tprBound(epsilonAtDelta, 1e-5, 0.01) - 1e-3);
    // Advantage from the profile: δ(0), the total variation distance.
    QVERIFY(std::fabs(maxAdvantage(profile) - accountant.delta(0.0)) < 1e-12);
  }

  void functionProfile() {
    // A profile given as a function: the Gaussian mechanism's exact δ(ε) with σ = 2.
    const auto gaussianDelta = [](double epsilon) {
      const auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
      return cdf(-epsilon * 2.0 + 0.25) - std::exp(epsilon) * cdf(-epsilon * 2.0 - 0.25);
    };
    const PrivacyProfile profile = samplePrivacyProfile(gaussianDelta, epsilonGrid(8.0, 801));
    // Gaussian DP (Dong et al. 2022): TPR = Φ(Φ⁻¹(FPR) + 1/σ); at FPR = 0.5 that is Φ(0.5).
    const double exact = 0.5 * std::erfc(-0.5 / std::sqrt(2.0));
    const double bound = tprBound(profile, 0.5);
    QVERIFY(bound >= exact - 1e-9);
    QVERIFY2(bound < exact + 5e-3, qPrintable(QString::number(bound, 'g', 10)));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyTradeoff)
#include "test_privacy_tradeoff.moc"

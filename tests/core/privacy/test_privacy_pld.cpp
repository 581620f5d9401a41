// The PLD accountant's pieces: the exact profile of the subsampled Gaussian, the
// pessimism of the connect-the-dots discretisation, FFT composition against closed forms
// (T Gaussians = one Gaussian with σ/√T), and the published Abadi value.
#include <QTest>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/pld.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

double normalCdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// Exact δ(ε) of the Gaussian mechanism (Balle & Wang 2018, Thm. 8).
double gaussianDelta(double sigma, double epsilon) {
  return normalCdf(-epsilon * sigma + 0.5 / sigma) -
         std::exp(epsilon) * normalCdf(-epsilon * sigma - 0.5 / sigma);
}

// Exact ε(δ) of the Gaussian mechanism by bisection on the closed form.
double gaussianEpsilon(double sigma, double delta) {
  double low = 0.0;
  double high = 600.0;  // e^600 is still a finite double
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    (gaussianDelta(sigma, middle) > delta ? low : high) = middle;
  }
  return high;
}

double pldEpsilon(double q, double sigma, long long steps, double delta) {
  PldAccountant accountant;
  accountant.compose(dpSgdStepEvent(q, sigma), steps);
  return accountant.epsilon(delta);
}

double rdpEpsilon(double q, double sigma, long long steps, double delta) {
  RdpAccountant accountant;
  accountant.compose(dpSgdStepEvent(q, sigma), steps);
  return accountant.epsilon(delta);
}

}  // namespace

class TestPrivacyPld : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void profileReducesToTheGaussian() {
    for (double epsilon : {0.0, 0.5, 2.0, 5.0}) {
      const double expected = gaussianDelta(1.3, epsilon);
      QVERIFY(std::fabs(sampledGaussianDelta(1.0, 1.3, epsilon, PldDirection::Remove) - expected) <
              1e-15);
      QVERIFY(std::fabs(sampledGaussianDelta(1.0, 1.3, epsilon, PldDirection::Add) - expected) <
              1e-15);
    }
  }

  void profileMatchesDirectIntegration() {
    // δ(ε) = ∫ max(0, P(x) − e^ε Q(x)) dx for both ordered pairs, by a fine midpoint rule.
    const double q = 0.2;
    const double sigma = 0.9;
    for (double epsilon : {0.1, 0.7, 1.5}) {
      double remove = 0.0;
      double add = 0.0;
      const double step = 1e-4;
      for (double x = -15.0; x < 16.0; x += step) {
        const double m = x + 0.5 * step;
        const double mu0 =
            std::exp(-m * m / (2 * sigma * sigma)) / (sigma * std::sqrt(2 * std::numbers::pi));
        const double mu1 = std::exp(-(m - 1) * (m - 1) / (2 * sigma * sigma)) /
                           (sigma * std::sqrt(2 * std::numbers::pi));
        const double mu = (1 - q) * mu0 + q * mu1;
        remove += std::max(0.0, mu - std::exp(epsilon) * mu0) * step;
        add += std::max(0.0, mu0 - std::exp(epsilon) * mu) * step;
      }
      QVERIFY(std::fabs(sampledGaussianDelta(q, sigma, epsilon, PldDirection::Remove) - remove) <
              1e-9);
      QVERIFY(std::fabs(sampledGaussianDelta(q, sigma, epsilon, PldDirection::Add) - add) < 1e-9);
    }
  }

  // The discretised profile lies above the true one everywhere, also between grid points.
  void connectTheDotsIsPessimistic() {
    for (PldDirection direction : {PldDirection::Remove, PldDirection::Add}) {
      const DiscretePld pld = sampledGaussianPld(0.05, 0.8, direction, 1e-2);
      double total = pld.infinityMass;
      for (double p : pld.probabilities) {
        QVERIFY(p >= 0.0);
        total += p;
      }
      QVERIFY(std::fabs(total - 1.0) < 1e-12);
      const PldProfile profile(pld);
      for (double epsilon = 0.0; epsilon < 3.0; epsilon += 0.0137) {
        const double exact = sampledGaussianDelta(0.05, 0.8, epsilon, direction);
        QVERIFY2(profile.delta(epsilon) >= exact - 1e-15,
                 qPrintable(QStringLiteral("eps %1: %2 < %3")
                                .arg(epsilon)
                                .arg(profile.delta(epsilon))
                                .arg(exact)));
        QVERIFY(profile.delta(epsilon) <= exact + 1e-3);
      }
    }
  }

  void singleGaussianIsAlmostExact() {
    for (double sigma : {0.8, 1.0, 2.0}) {
      const double exact = gaussianEpsilon(sigma, 1e-5);
      const double pld = pldEpsilon(1.0, sigma, 1, 1e-5);
      QVERIFY2(pld >= exact - 1e-9 && pld <= exact * (1.0 + 1e-4),
               qPrintable(QStringLiteral("sigma %1: pld %2 exact %3")
                              .arg(sigma)
                              .arg(pld, 0, 'g', 10)
                              .arg(exact, 0, 'g', 10)));
    }
  }

  // T compositions of Gaussian(σ) are exactly Gaussian(σ/√T): checks the FFT composition.
  void composedGaussiansMatchClosedForm() {
    const double exact = gaussianEpsilon(1.0, 1e-5);
    const double composed = pldEpsilon(1.0, 10.0, 100, 1e-5);
    QVERIFY2(composed >= exact - 1e-9 && composed <= exact * (1.0 + 1e-4),
             qPrintable(QString::number(composed, 'g', 10)));
    // Heterogeneous composition: Gaussian(2) then Gaussian(2/√3) is Gaussian(1).
    PldAccountant accountant;
    accountant.compose(gaussianEvent(2.0));
    accountant.compose(gaussianEvent(2.0 / std::sqrt(3.0)));
    QVERIFY(std::fabs(accountant.epsilon(1e-5) - exact) < 1e-4 * exact);
  }

  // Abadi et al. 2016 setting: the tight accountant gives ≈ 0.95 where RDP gives 1.035.
  void abadiCheckpoint() {
    const double pld = pldEpsilon(0.01, 4.0, 10000, 1e-5);
    QVERIFY2(std::fabs(pld - 0.947) < 0.005, qPrintable(QString::number(pld, 'g', 10)));
    QVERIFY(pld < rdpEpsilon(0.01, 4.0, 10000, 1e-5));
  }

  void discretisationErrorIsSmall() {
    PldAccountantOptions fine;
    fine.valueDiscretisationInterval = 5e-5;
    PldAccountant fineAccountant(fine);
    fineAccountant.compose(dpSgdStepEvent(0.01, 4.0), 10000);
    const double reference = fineAccountant.epsilon(1e-5);
    const double standard = pldEpsilon(0.01, 4.0, 10000, 1e-5);
    QVERIFY(standard >= reference - 1e-9);
    QVERIFY2(standard - reference < 1e-3 * reference,
             qPrintable(QString::number(standard - reference)));
  }

  void neverAboveRdp_data() {
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<int>("steps");
    for (double q : {0.001, 0.01, 0.1, 1.0}) {
      for (double sigma : {0.8, 1.5, 4.0}) {
        for (int steps : {1, 50, 2000}) {
          QTest::addRow("q=%g sigma=%g T=%d", q, sigma, steps) << q << sigma << steps;
        }
      }
    }
  }

  void neverAboveRdp() {
    QFETCH(double, q);
    QFETCH(double, sigma);
    QFETCH(int, steps);
    PldAccountant pld;
    RdpAccountant rdp;
    pld.compose(dpSgdStepEvent(q, sigma), steps);
    rdp.compose(dpSgdStepEvent(q, sigma), steps);
    for (double delta : {1e-3, 1e-5, 1e-9}) {
      const double pldEpsilon = pld.epsilon(delta);
      const double rdpEpsilon = rdp.epsilon(delta);
      QVERIFY2(pldEpsilon <= rdpEpsilon, qPrintable(QStringLiteral("delta %1: pld %2 > rdp %3")
                                                        .arg(delta)
                                                        .arg(pldEpsilon)
                                                        .arg(rdpEpsilon)));
    }
  }

  // Few steps and small ε are where RDP's conversion is loosest.
  void visiblyTighterForFewSteps() {
    QVERIFY(pldEpsilon(0.01, 1.0, 1, 1e-5) < 0.5 * rdpEpsilon(0.01, 1.0, 1, 1e-5));
    QVERIFY(pldEpsilon(0.01, 1.0, 10, 1e-5) < 0.5 * rdpEpsilon(0.01, 1.0, 10, 1e-5));
    QVERIFY(pldEpsilon(0.01, 4.0, 10, 1e-5) < 0.6 * rdpEpsilon(0.01, 4.0, 10, 1e-5));
    QVERIFY(pldEpsilon(1.0, 2.0, 1, 1e-5) < 0.95 * rdpEpsilon(1.0, 2.0, 1, 1e-5));
  }

  void epsilonDeltaRoundTrip() {
    PldAccountant accountant;
    accountant.compose(dpSgdStepEvent(256.0 / 60000.0, 1.1), 14063);
    for (double delta : {1e-3, 1e-5, 1e-7}) {
      const double epsilon = accountant.epsilon(delta);
      const double back = accountant.delta(epsilon);
      QVERIFY2(std::fabs(back - delta) < 1e-6 * delta, qPrintable(QString::number(back, 'g', 12)));
      QVERIFY(std::fabs(accountant.epsilon(back) - epsilon) < 1e-9);
    }
    // δ(ε) decreases.
    double previous = 1.0;
    for (double epsilon = 0.0; epsilon < 5.0; epsilon += 0.25) {
      const double delta = accountant.delta(epsilon);
      QVERIFY(delta <= previous);
      previous = delta;
    }
  }

  void coarseningKeepsHugeRunsFeasible() {
    // σ = 0.05 at q = 1: the loss spans hundreds of units; the grid is coarsened, the
    // answer stays an upper bound of the exact Gaussian ε.
    PldAccountant accountant;
    accountant.compose(gaussianEvent(0.05));
    const double epsilon = accountant.epsilon(1e-5);
    QVERIFY(accountant.usedInterval() > 1e-4);
    QVERIFY(epsilon >= gaussianEpsilon(0.05, 1e-5) - 1e-9);
    QVERIFY2(epsilon <= gaussianEpsilon(0.05, 1e-5) * 1.01,
             qPrintable(QStringLiteral("%1 vs %2").arg(epsilon).arg(gaussianEpsilon(0.05, 1e-5))));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyPld)
#include "test_privacy_pld.moc"

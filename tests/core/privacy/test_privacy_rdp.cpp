// RDP of the Poisson-subsampled Gaussian and its (ε, δ) conversions, against the published
// checkpoints (Opacus's pin, Abadi et al. 2016, the TF Privacy tutorial) and against a
// direct numerical integration of the Rényi divergence at fractional and integer orders.
#include <QTest>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/rdp.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

double epsilonFor(double q, double sigma, double steps, double delta,
                  const std::vector<double>& orders, RdpConversion conversion,
                  double* order = nullptr) {
  std::vector<double> rdp = rdpPoissonGaussian(q, sigma, orders);
  for (double& r : rdp) r *= steps;
  const RdpEpsilon result = epsilonFromRdp(orders, rdp, delta, conversion);
  if (order) *order = result.order;
  return result.epsilon;
}

// D_α of the pair (μ, μ0) (remove) or (μ0, μ) (add), μ0 = N(0,σ²), μ = (1−q)μ0 + qN(1,σ²),
// by the trapezoid rule on a fine grid of ∫ μ0·[(μ/μ0)^a − 1] (a = α or 1 − α), which keeps
// the small difference A_α − 1 exact to double precision. The integrand is smooth and
// decays like a Gaussian, so the trapezoid rule converges geometrically.
double integratedRdp(double q, double sigma, double alpha, bool remove) {
  const double low = -40.0 * sigma - 5.0;
  const double high = alpha + 40.0 * sigma + 5.0;
  const double step = sigma / 200.0;
  long double sum = 0.0L;
  for (double x = low; x <= high; x += step) {
    const long double logDensity =
        -x * x / (2.0 * sigma * sigma) - std::log(sigma * std::sqrt(2.0 * std::numbers::pi));
    const double t = (2.0 * x - 1.0) / (2.0 * sigma * sigma);
    const double logRatio =
        t > 0.0 ? t + std::log(q + (1.0 - q) * std::exp(-t)) : std::log1p(q * std::expm1(t));
    const long double power = remove ? alpha * logRatio : (1.0 - alpha) * logRatio;
    // μ0·((μ/μ0)^a − 1), in long double so that neither factor over- or underflows.
    const long double term = power > 1.0L ? std::exp(logDensity + power) - std::exp(logDensity)
                                          : std::exp(logDensity) * std::expm1(power);
    sum += term * step;
  }
  return static_cast<double>(std::log1p(sum) / (alpha - 1.0));
}

}  // namespace

class TestPrivacyRdp : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void orderLists() {
    const auto orders = defaultRdpOrders();
    QCOMPARE(orders.size(), std::size_t{99 + 53 + 4});
    QCOMPARE(orders.front(), 1.1);
    QCOMPARE(orders[98], 10.9);
    QCOMPARE(orders[99], 11.0);
    QCOMPARE(orders.back(), 1024.0);
    const auto opacus = opacusRdpOrders();
    QCOMPARE(opacus.size(), std::size_t{99 + 52});
    QCOMPARE(opacus[99], 12.0);
    QCOMPARE(opacus.back(), 63.0);
  }

  // Opacus pins ε = 7.32911117143 (its orders, improved conversion).
  void opacusCheckpoint() {
    double order = 0.0;
    const double opacus =
        epsilonFor(0.04, 1.5, 2250, 1e-5, opacusRdpOrders(), RdpConversion::Improved, &order);
    QVERIFY2(std::fabs(opacus - 7.32911117143) < 1e-9,
             qPrintable(QString::number(opacus, 'g', 14)));
    QCOMPARE(order, 3.9);
    // dp_accounting's orders contain Opacus's optimum, so the value is the same.
    const double google =
        epsilonFor(0.04, 1.5, 2250, 1e-5, defaultRdpOrders(), RdpConversion::Improved);
    QVERIFY(std::fabs(google - opacus) < 1e-12);
  }

  // Abadi et al. 2016: q = 0.01, σ = 4, 10,000 steps, δ = 1e-5.
  void abadiCheckpoint() {
    double order = 0.0;
    const double improved =
        epsilonFor(0.01, 4, 10000, 1e-5, defaultRdpOrders(), RdpConversion::Improved, &order);
    QVERIFY2(std::fabs(improved - 1.0355) < 5e-4, qPrintable(QString::number(improved, 'g', 10)));
    QCOMPARE(order, 17.0);
    // The classic conversion sits near the paper's moments accountant (1.25).
    const double classic =
        epsilonFor(0.01, 4, 10000, 1e-5, defaultRdpOrders(), RdpConversion::Classic);
    QVERIFY2(std::fabs(classic - 1.2586) < 5e-4, qPrintable(QString::number(classic, 'g', 10)));
  }

  // TF Privacy tutorial: N = 60,000, L = 256 (q = 256/60000).
  void tfPrivacyTutorialCheckpoints() {
    const double q = 256.0 / 60000.0;
    const double steps60 = std::ceil(60.0 * 60000.0 / 256.0);
    QCOMPARE(steps60, 14063.0);
    const double classic60 =
        epsilonFor(q, 1.1, steps60, 1e-5, defaultRdpOrders(), RdpConversion::Classic);
    QVERIFY2(std::fabs(classic60 - 3.01) < 0.01, qPrintable(QString::number(classic60, 'g', 10)));
    const double improved60 =
        epsilonFor(q, 1.1, steps60, 1e-5, defaultRdpOrders(), RdpConversion::Improved);
    QVERIFY2(std::fabs(improved60 - 2.60) < 0.01, qPrintable(QString::number(improved60, 'g', 10)));
    const double steps15 = std::ceil(15.0 * 60000.0 / 256.0);
    const double classic15 =
        epsilonFor(q, 1.3, steps15, 1e-5, defaultRdpOrders(), RdpConversion::Classic);
    QVERIFY2(std::fabs(classic15 - 1.19) < 0.01, qPrintable(QString::number(classic15, 'g', 10)));
    const double improved15 =
        epsilonFor(q, 1.3, steps15, 1e-5, defaultRdpOrders(), RdpConversion::Improved);
    QVERIFY2(std::fabs(improved15 - 0.95) < 0.01, qPrintable(QString::number(improved15, 'g', 10)));
  }

  void fullBatchIsThePlainGaussian() {
    for (double sigma : {0.5, 1.0, 3.7}) {
      for (double alpha : {1.5, 2.0, 10.5, 64.0}) {
        QCOMPARE(rdpPoissonGaussian(1.0, sigma, alpha), alpha / (2.0 * sigma * sigma));
      }
    }
    QCOMPARE(rdpPoissonGaussian(0.0, 1.0, 2.0), 0.0);
  }

  void fractionalOrdersMatchIntegration_data() {
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("alpha");
    const double qs[] = {0.1, 0.01, 0.5, 0.9};
    const double sigmas[] = {0.5, 0.8, 1.1, 2.0};
    const double alphas[] = {1.5, 2.5, 10.5, 30.5};
    for (double q : qs) {
      for (double sigma : sigmas) {
        for (double alpha : alphas) {
          QTest::addRow("q=%g sigma=%g alpha=%g", q, sigma, alpha) << q << sigma << alpha;
        }
      }
    }
  }

  // The series with signs kept equals the integral to 1e-8 relative, including the
  // trap cases q = 0.1, σ ≤ 1.1 (where dropping signs overstates RDP > 2×), and the remove
  // direction dominates the add direction (Mironov et al. 2019).
  void fractionalOrdersMatchIntegration() {
    QFETCH(double, q);
    QFETCH(double, sigma);
    QFETCH(double, alpha);
    const double series = rdpPoissonGaussian(q, sigma, alpha);
    const double remove = integratedRdp(q, sigma, alpha, true);
    if (!std::isfinite(remove)) QSKIP("integral overflows a double at this order");
    QVERIFY2(std::fabs(series - remove) <= 1e-8 * remove,
             qPrintable(QStringLiteral("series %1 integral %2")
                            .arg(series, 0, 'g', 15)
                            .arg(remove, 0, 'g', 15)));
    QVERIFY(integratedRdp(q, sigma, alpha, false) <= remove * (1.0 + 1e-12));
  }

  void namedTrapCases() {
    // q = 0.1, σ = 0.8 at α = 2.5 and 10.5, the issue's own examples.
    for (double alpha : {2.5, 10.5}) {
      const double series = rdpPoissonGaussian(0.1, 0.8, alpha);
      const double integral = integratedRdp(0.1, 0.8, alpha, true);
      QVERIFY2(std::fabs(series - integral) < 1e-9 * integral,
               qPrintable(QString::number(series, 'g', 15)));
    }
    // Every fractional order converges for large q and small σ (none silently dropped).
    for (double sigma : {0.3, 0.5, 0.8, 1.1}) {
      for (double r : rdpPoissonGaussian(0.1, sigma, defaultRdpOrders())) {
        QVERIFY(std::isfinite(r) && r > 0.0);
      }
    }
  }

  void integerOrdersMatchIntegration() {
    for (double q : {0.05, 0.3}) {
      for (double sigma : {0.7, 1.5}) {
        for (double alpha : {2.0, 3.0, 8.0, 20.0}) {
          const double exact = rdpPoissonGaussian(q, sigma, alpha);
          const double integral = integratedRdp(q, sigma, alpha, true);
          QVERIFY2(std::fabs(exact - integral) < 1e-8 * integral,
                   qPrintable(QString::number(exact, 'g', 15)));
        }
      }
    }
  }

  void fractionalOrdersAreContinuousWithIntegerOnes() {
    // RDP is continuous and increasing in α: the series just off an integer lies between
    // its integer neighbours.
    const double below = rdpPoissonGaussian(0.05, 1.0, 2.9999);
    const double at = rdpPoissonGaussian(0.05, 1.0, 3.0);
    const double above = rdpPoissonGaussian(0.05, 1.0, 3.0001);
    QVERIFY(below < at && at < above);
    QVERIFY(std::fabs(above - below) < 1e-4 * at);
  }

  void epsilonGrowsWithStepsAndRateAndFallsWithNoise() {
    const auto orders = defaultRdpOrders();
    double previous = 0.0;
    for (double steps : {10.0, 100.0, 1000.0, 10000.0}) {
      const double e = epsilonFor(0.01, 1.0, steps, 1e-5, orders, RdpConversion::Improved);
      QVERIFY(e > previous);
      previous = e;
    }
    previous = 0.0;
    for (double q : {0.001, 0.01, 0.1, 1.0}) {
      const double e = epsilonFor(q, 1.0, 100, 1e-5, orders, RdpConversion::Improved);
      QVERIFY(e > previous);
      previous = e;
    }
    previous = INFINITY;
    for (double sigma : {0.6, 0.8, 1.0, 2.0, 5.0}) {
      const double e = epsilonFor(0.01, sigma, 1000, 1e-5, orders, RdpConversion::Improved);
      QVERIFY(e < previous);
      previous = e;
    }
  }

  void improvedIsNeverWorseThanClassic() {
    for (double sigma : {0.7, 1.1, 4.0}) {
      const double improved =
          epsilonFor(0.01, sigma, 1000, 1e-5, defaultRdpOrders(), RdpConversion::Improved);
      const double classic =
          epsilonFor(0.01, sigma, 1000, 1e-5, defaultRdpOrders(), RdpConversion::Classic);
      QVERIFY(improved < classic);
    }
  }

  void epsilonDeltaRoundTrip() {
    const auto orders = defaultRdpOrders();
    std::vector<double> rdp = rdpPoissonGaussian(256.0 / 60000.0, 1.1, orders);
    for (double& r : rdp) r *= 14063;
    for (RdpConversion conversion : {RdpConversion::Improved, RdpConversion::Classic}) {
      for (double delta : {1e-3, 1e-5, 1e-8}) {
        const RdpEpsilon e = epsilonFromRdp(orders, rdp, delta, conversion);
        const RdpDelta d = deltaFromRdp(orders, rdp, e.epsilon, conversion);
        QVERIFY2(std::fabs(d.delta - delta) < 1e-9 * delta,
                 qPrintable(QString::number(d.delta, 'g', 12)));
        QCOMPARE(d.order, e.order);
      }
    }
  }

  void conversionEdgeCases() {
    const std::vector<double> orders{2.0, 3.0};
    // Infinite RDP at every order: no finite ε, δ(ε) = 1.
    const std::vector<double> infinite{INFINITY, INFINITY};
    QVERIFY(std::isinf(epsilonFromRdp(orders, infinite, 1e-5).epsilon));
    QCOMPARE(deltaFromRdp(orders, infinite, 1.0).delta, 1.0);
    // Zero RDP: ε = 0 at any δ.
    const std::vector<double> zero{0.0, 0.0};
    QCOMPARE(epsilonFromRdp(orders, zero, 1e-5).epsilon, 0.0);
    QVERIFY_THROWS_EXCEPTION(PrivacyError, epsilonFromRdp(orders, zero, 0.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, epsilonFromRdp(orders, zero, 1.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, rdpPoissonGaussian(0.5, 1.0, 1.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, rdpPoissonGaussian(0.5, -1.0, 2.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, rdpPoissonGaussian(1.5, 1.0, 2.0));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyRdp)
#include "test_privacy_rdp.moc"

// Composition of heterogeneous PLDs (a noise schedule: many distinct steps, each with its own
// count) in the Fourier domain, against a direct convolution in the loss domain, against the
// binomial law of a two-point PLD (every power path: once, repeated squaring, exp·log), and
// against the μ-GDP closed form of Gaussians without sampling; the Chernoff window's bound
// from two points per block holds the mass it claims; the step memo changes no double.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/privacy/pld.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/privacy_statement.h"

using namespace epsilon::privacy;

namespace {

double normalCdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// δ(ε) of μ-GDP (Dong, Roth & Su 2019, Cor. 2.13): Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).
double gdpDelta(double mu, double epsilon) {
  return normalCdf(-epsilon / mu + 0.5 * mu) -
         std::exp(epsilon) * normalCdf(-epsilon / mu - 0.5 * mu);
}

double gdpEpsilon(double mu, double delta) {
  double low = 0.0;
  double high = 600.0;
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    (gdpDelta(mu, middle) > delta ? low : high) = middle;
  }
  return high;
}

// The composition written out: repeated linear convolution of the masses on the grid.
std::vector<double> directComposition(const std::vector<PldFactor>& factors, long long& offset,
                                      double& infinityMass) {
  std::vector<double> result{1.0};
  offset = 0;
  double noInfinity = 1.0;
  for (const PldFactor& factor : factors) {
    for (long long k = 0; k < factor.count; ++k) {
      const auto& p = factor.pld->probabilities;
      std::vector<double> next(result.size() + p.size() - 1, 0.0);
      for (std::size_t i = 0; i < result.size(); ++i)
        for (std::size_t j = 0; j < p.size(); ++j) next[i + j] += result[i] * p[j];
      result = std::move(next);
      offset += factor.pld->offset;
      noInfinity *= 1.0 - factor.pld->infinityMass;
    }
  }
  infinityMass = 1.0 - noInfinity;
  return result;
}

}  // namespace

class TestPrivacyPldCompose : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Three distinct sampled-Gaussian steps with counts 1, 3 and 2 at a coarse interval (a few
  // hundred points each, so the composed support is whole: no window, no tail). The FFT's
  // rounding is of order log2(n)·2⁻⁵³ ≈ 1e-15 of the total mass per bin; 1e-13 leaves room for
  // the powers and still catches any misplaced or missing mass (the masses here reach 1e-2).
  void fourierMatchesDirectConvolution() {
    const double interval = 2e-2;
    std::vector<DiscretePld> steps;
    for (double sigma : {0.9, 1.3, 2.0})
      steps.push_back(sampledGaussianPld(0.05, sigma, PldDirection::Remove, interval));
    const std::vector<PldFactor> factors{{&steps[0], 1}, {&steps[1], 3}, {&steps[2], 2}};
    long long offset = 0;
    double infinity = 0.0;
    const std::vector<double> direct = directComposition(factors, offset, infinity);
    const DiscretePld fast = composePlds(factors, 1e-15);
    QCOMPARE(fast.offset, offset);
    QCOMPARE(fast.probabilities.size(), direct.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < direct.size(); ++i)
      worst = std::max(worst, std::fabs(fast.probabilities[i] - direct[i]));
    QVERIFY2(worst < 1e-13, qPrintable(QString::number(worst, 'g', 6)));
    QVERIFY(std::fabs(fast.infinityMass - infinity) < 1e-15);
    DiscretePld reference = fast;
    reference.probabilities = direct;
    reference.infinityMass = infinity;
    // ε read off both: the same up to the masses' rounding (δ moves by < 1e-13 per bin).
    for (double delta : {1e-3, 1e-5}) {
      const double a = PldProfile(fast).epsilon(delta);
      const double b = PldProfile(reference).epsilon(delta);
      QVERIFY2(std::fabs(a - b) < 1e-6, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    }
  }

  // A two-point PLD (mass p at loss +h, 1 − p at −h) composed k times is Binomial(k, p) on
  // the losses (2j − k)·h: exact, for a count on each power path (1, squaring, exp·log).
  // The binomial masses come from lgamma, itself accurate to ~1e-14 relative; the composed
  // masses carry k·2⁻⁵³ of relative rounding; 1e-10 absolute bounds both for k ≤ 10⁴.
  void twoPointPowersAreBinomial() {
    DiscretePld coin;
    coin.interval = 1e-2;
    coin.offset = -1;
    const double p = 0.3;
    coin.probabilities = {1.0 - p, 0.0, p};
    for (long long count : {1LL, 2LL, 37LL, 4096LL, 4097LL, 10000LL}) {
      const std::vector<PldFactor> factors{{&coin, count}};
      const DiscretePld composed = composePlds(factors, PldWindow{0, 2 * count, false}, 1e-15);
      QCOMPARE(composed.offset, -count);
      double worst = 0.0;
      for (long long j = 0; j <= count; ++j) {
        const double logMass = std::lgamma(static_cast<double>(count) + 1.0) -
                               std::lgamma(static_cast<double>(j) + 1.0) -
                               std::lgamma(static_cast<double>(count - j) + 1.0) +
                               static_cast<double>(j) * std::log(p) +
                               static_cast<double>(count - j) * std::log1p(-p);
        worst = std::max(worst, std::fabs(composed.probabilities[static_cast<std::size_t>(2 * j)] -
                                          std::exp(logMass)));
        if (j < count)  // odd offsets are unreachable
          worst = std::max(worst, composed.probabilities[static_cast<std::size_t>(2 * j + 1)]);
      }
      QVERIFY2(worst < 1e-10, qPrintable(QString("count %1: %2").arg(count).arg(worst, 0, 'g', 6)));
    }
  }

  // Gaussians without sampling compose to μ-GDP with μ² = Σ_k n_k/σ_k² (Dong, Roth & Su 2019,
  // Cor. 3.3): five distinct σ with their own counts, as a noise schedule gives them. The PLD
  // is pessimistic (never below the exact ε, up to the bisection's 1e-9) and within 1e-3 of it
  // at the default interval (connect-the-dots' excess is O(interval) per step in ε).
  void heterogeneousGaussiansMatchGdp() {
    PldAccountant accountant;
    double muSquared = 0.0;
    const std::vector<std::pair<double, long long>> schedule{
        {8.0, 3}, {7.0, 2}, {6.5, 1}, {6.0, 4}, {5.0, 1}};
    for (const auto& [sigma, count] : schedule) {
      accountant.compose(gaussianEvent(sigma), count);
      muSquared += static_cast<double>(count) / (sigma * sigma);
    }
    for (double delta : {1e-3, 1e-5, 1e-7}) {
      const double exact = gdpEpsilon(std::sqrt(muSquared), delta);
      const double pld = accountant.epsilon(delta);
      QVERIFY2(pld >= exact - 1e-9 && pld <= exact + 1e-3,
               qPrintable(QString("delta %1: pld %2, exact %3").arg(delta).arg(pld).arg(exact)));
    }
  }

  // The Chernoff window from mgfBlocks' bound: a heterogeneous composition whose full support
  // (> 2^18 points) is windowed holds all but tailMass of the mass the whole support holds,
  // and its ε is never below the whole support's.
  void windowHoldsAllButTheTail() {
    const double interval = 1e-3;
    std::vector<DiscretePld> steps;
    for (double sigma : {0.7, 0.8, 0.9, 1.0})
      steps.push_back(sampledGaussianPld(0.02, sigma, PldDirection::Remove, interval));
    const std::vector<PldFactor> factors{
        {&steps[0], 30}, {&steps[1], 40}, {&steps[2], 50}, {&steps[3], 60}};
    const double tail = 1e-12;
    const PldWindow window = composedWindow(factors, tail);
    QVERIFY(window.truncated);
    long long full = 0;
    for (const PldFactor& f : factors)
      full += f.count * static_cast<long long>(f.pld->probabilities.size() - 1);
    QVERIFY(window.size() < static_cast<std::size_t>(full) / 4);  // the window does save work
    const DiscretePld whole = composePlds(factors, PldWindow{0, full, false}, tail);
    double outside = 0.0;
    for (long long i = 0; i <= full; ++i)
      if (i < window.low || i > window.high)
        outside += whole.probabilities[static_cast<std::size_t>(i)];
    QVERIFY2(outside <= tail, qPrintable(QString::number(outside, 'g', 6)));
    const DiscretePld windowed = composePlds(factors, window, tail);
    // The tail goes to infinity: δ(ε) rises by at most `tail`, so ε lies between the whole
    // support's ε at δ and at δ − tail.
    for (double delta : {1e-3, 1e-5, 1e-8}) {
      const double a = PldProfile(windowed).epsilon(delta);
      const double low = PldProfile(whole).epsilon(delta);
      const double high = PldProfile(whole).epsilon(delta - tail);
      QVERIFY2(a >= low - 1e-9 && a <= high + 1e-9,
               qPrintable(QString("%1 not in [%2, %3]").arg(a).arg(low).arg(high)));
    }
  }

  // The step memo is invisible: a schedule's ε is the same double asked first, after other
  // schedules filled the memo, and from a statement of its prefix in between.
  void memoChangesNoDouble() {
    PrivacyRunDescription run;
    run.sampleRate = 0.02;
    run.steps = 40;
    run.accountant = AccountantKind::Pld;
    for (long long t = 0; t < run.steps; ++t)
      run.noiseMultipliers.push_back(1.7 * std::exp(-0.01 * static_cast<double>(t)));
    const auto fresh = [&] {
      PldAccountant accountant;
      for (const auto& [event, count] : privacyEvents(run)) accountant.compose(event, count);
      return accountant.epsilon(run.delta);
    };
    const double first = fresh();
    QVERIFY(std::isfinite(first) && first > 0.0);
    (void)privacyStatement(firstSteps(run, 17));
    PrivacyRunDescription other = run;
    other.sampleRate = 0.03;
    (void)privacyStatement(other);
    QCOMPARE(fresh(), first);
    QCOMPARE(privacyStatement(run).epsilon, first);
  }
};

QTEST_APPLESS_MAIN(TestPrivacyPldCompose)
#include "test_privacy_pld_compose.moc"

// The PLD accountant on runs with a noise schedule (issue 29): a run evaluated after every
// step, whose compositions extend the products kept from earlier evaluations, gives at each
// step the same double as composePlds from scratch; rounding σ_t down onto the grid never
// lowers ε below the composition of the exact σ_t; the coarse grid a widely spread loss gets
// is never below a 4× finer one; losses far beyond ε = 709 give finite, honest answers.
#include <QTest>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "core/privacy/pld.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/rdp_accountant.h"

using namespace epsilon::privacy;

namespace {

PrivacyRunDescription decayingRun(double q, double sigma0, double rate, long long steps) {
  PrivacyRunDescription run;
  run.sampleRate = q;
  run.steps = steps;
  run.accountant = AccountantKind::Pld;
  for (long long t = 0; t < steps; ++t)
    run.noiseMultipliers.push_back(sigma0 * std::exp(-rate * static_cast<double>(t)));
  return run;
}

// The accountant of the run's events (σ_t rounded as the statement rounds them).
void composeRun(Accountant& accountant, const PrivacyRunDescription& run) {
  for (const auto& [event, count] : privacyEvents(run)) accountant.compose(event, count);
}

// ε of the atoms composed from scratch with pld.h's functions, at the accountant's interval.
double fromScratch(const GaussianAtoms& atoms, double interval, double delta) {
  double epsilon = 0.0;
  for (PldDirection direction : {PldDirection::Remove, PldDirection::Add}) {
    // Each step discretised once for the whole test (std::map keeps its elements in place).
    static std::map<std::tuple<double, double, int, double>, DiscretePld> steps;
    std::vector<PldFactor> factors;
    for (const auto& [atom, count] : atoms.gaussians) {
      const auto key =
          std::make_tuple(atom.sampleRate, atom.noiseMultiplier, int(direction), interval);
      if (!steps.count(key))
        steps[key] =
            accountedStepPld(atom, direction, interval, PldAccountantOptions{}.pointsPerLossSpread);
      factors.push_back(PldFactor{&steps[key], count, nullptr});
    }
    const double tailMass = PldAccountantOptions{}.tailMass;
    const DiscretePld composed = composePlds(factors, composedWindow(factors, tailMass), tailMass);
    epsilon = std::max(epsilon, PldProfile(composed).epsilon(delta));
  }
  return epsilon;
}

}  // namespace

class TestPrivacyPldSchedule : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Every prefix of a decaying run, in two evaluation orders (each with its own σ₀, so the
  // second order meets no product of the first): the same double as a composition from
  // scratch, whatever the accountant kept from the evaluations before.
  void incrementalEqualsFromScratch_data() {
    QTest::addColumn<double>("sigma0");
    QTest::addColumn<bool>("lastFirst");
    QTest::newRow("every step in order") << 1.1000000123 << false;
    QTest::newRow("last step first") << 1.1000000456 << true;
  }

  void incrementalEqualsFromScratch() {
    QFETCH(double, sigma0);
    QFETCH(bool, lastFirst);
    const PrivacyRunDescription run = decayingRun(0.04, sigma0, 0.01, 20);
    std::vector<long long> order;
    if (lastFirst) order.push_back(run.steps);
    for (long long s = 1; s <= run.steps; ++s) order.push_back(s);
    for (long long s : order) {
      PldAccountant accountant;
      composeRun(accountant, firstSteps(run, s));
      const double epsilon = accountant.epsilon(1e-5);
      const double scratch =
          fromScratch(gaussianAtoms(accountant.ledger()), accountant.usedInterval(), 1e-5);
      QVERIFY2(epsilon == scratch, qPrintable(QStringLiteral("step %1: %2 vs %3")
                                                  .arg(s)
                                                  .arg(epsilon, 0, 'g', 17)
                                                  .arg(scratch, 0, 'g', 17)));
    }
  }

  // σ_t rounded down onto σ₀·0.99^k (accountedNoiseMultiplier) can only raise ε, and by
  // little: against every step accounted with its own σ_t, on the same grid.
  void gridRoundingNeverLowersEpsilon_data() {
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma0");
    QTest::addColumn<double>("rate");
    QTest::addColumn<int>("steps");
    QTest::newRow("circle, exp 0.01") << 0.04 << 1.1 << 0.01 << 40;
    QTest::newRow("small q, exp 0.004") << 0.01 << 2.0 << 0.004 << 150;
    QTest::newRow("full batch, exp 0.05") << 1.0 << 3.0 << 0.05 << 12;
  }

  void gridRoundingNeverLowersEpsilon() {
    QFETCH(double, q);
    QFETCH(double, sigma0);
    QFETCH(double, rate);
    QFETCH(int, steps);
    const PrivacyRunDescription run = decayingRun(q, sigma0, rate, steps);
    PldAccountant rounded;
    composeRun(rounded, run);
    PldAccountant exact;
    for (double sigma : run.noiseMultipliers) exact.compose(dpSgdStepEvent(q, sigma));
    QVERIFY(gaussianAtoms(rounded.ledger()).gaussians.size() <=
            gaussianAtoms(exact.ledger()).gaussians.size());
    QCOMPARE(rounded.usedInterval(), exact.usedInterval());
    for (double delta : {1e-3, 1e-5, 1e-8}) {
      const double r = rounded.epsilon(delta);
      const double e = exact.epsilon(delta);
      QVERIFY2(
          r >= e && r <= 1.03 * e,
          qPrintable(QStringLiteral("delta %1: rounded %2, exact %3").arg(delta).arg(r).arg(e)));
    }
  }

  // The default grid of a widely spread loss is coarse; every point of it is a point of a
  // 4× finer grid, so its connect-the-dots profile lies above the finer one: ε only rises,
  // and by less than 1e-4 relative.
  void coarseGridIsPessimisticAndClose() {
    const PrivacyRunDescription run = decayingRun(0.04, 1.1, 0.01, 30);
    PldAccountant standard;
    composeRun(standard, run);
    PldAccountantOptions fineOptions;
    fineOptions.pointsPerLossSpread = 4.0 * PldAccountantOptions{}.pointsPerLossSpread;
    PldAccountant fine(fineOptions);
    composeRun(fine, run);
    QVERIFY(standard.usedInterval() >= 4.0 * fine.usedInterval());
    QVERIFY(standard.usedInterval() > PldAccountantOptions{}.valueDiscretisationInterval);
    const double coarse = standard.epsilon(1e-5);
    const double reference = fine.epsilon(1e-5);
    QVERIFY2(
        coarse >= reference && coarse <= reference * (1.0 + 1e-4),
        qPrintable(QStringLiteral("%1 vs %2").arg(coarse, 0, 'g', 12).arg(reference, 0, 'g', 12)));
  }

  // A loss of 1000 (e^1000 is no double): δ(ε) = ½(1 − e^{ε − 1000}) below it, and back:
  // δ = 0.1 at ε = 1000 + log 0.8.
  void profileBeyondExpOverflow() {
    DiscretePld pld;
    pld.interval = 1.0;
    pld.offset = 0;
    pld.probabilities.assign(1001, 0.0);
    pld.probabilities.front() = 0.5;
    pld.probabilities.back() = 0.5;
    const PldProfile profile(pld);
    QVERIFY(std::fabs(profile.delta(999.0) - 0.5 * (1.0 - std::exp(-1.0))) < 1e-12);
    QVERIFY(std::fabs(profile.epsilon(0.1) - (1000.0 + std::log(0.8))) < 1e-9);
    QCOMPARE(profile.delta(1000.0), 0.0);
  }

  // The tanh filter's honest σ/√P puts the loss in the thousands: a finite ε that RDP's
  // bound does not undercut, where e^ε overflowed before.
  void tinySigmaGivesFiniteHonestEpsilon() {
    PrivacyRunDescription run = decayingRun(0.04, 0.03, 0.01, 20);
    const double pld = privacyStatement(run).epsilon;
    run.accountant = AccountantKind::Rdp;
    const double rdp = privacyStatement(run).epsilon;
    QVERIFY2(std::isfinite(pld) && pld > 709.0 && pld <= rdp,
             qPrintable(QStringLiteral("pld %1, rdp %2").arg(pld).arg(rdp)));
    QVERIFY(std::isfinite(sampledGaussianDelta(0.04, 0.02, 1500.0, PldDirection::Remove)));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyPldSchedule)
#include "test_privacy_pld_schedule.moc"

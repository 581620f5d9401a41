// The one-run audit's statistics (Steinke, Nasr & Jagielski 2023): the p-value against a
// direct binomial tail, ε̂ = 0 without evidence, ε̂ growing with the correct guesses, the δ
// term only lowering ε̂, guess counting and the Bonferroni-corrected grid.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/audit/one_run_bound.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::audit;

namespace {

// P[Binomial(r, q) ≥ v] by the pmf recurrence p(k−1) = p(k)·k/(r−k+1)·(1−q)/q from
// p(r) = q^r, in long double: an independent route to the same number.
long double directTail(long long r, long long v, long double q) {
  long double pmf = std::pow(q, static_cast<long double>(r));
  long double tail = 0.0L;
  for (long long k = r; k >= v && k >= 0; --k) {
    tail += pmf;
    pmf *= static_cast<long double>(k) / static_cast<long double>(r - k + 1) * (1.0L - q) / q;
  }
  return tail;
}

// ε̂ with δ = 0 from the direct tail: bisection on P[Bin(r, e^ε/(1+e^ε)) ≥ v] < 1 − c.
double directEpsilon(long long r, long long v, double confidence) {
  const auto pValue = [&](long double eps) {
    return directTail(r, v, 1.0L / (1.0L + std::exp(-eps)));
  };
  const long double level = 1.0L - confidence;
  if (!(pValue(0.0L) < level)) return 0.0;
  long double low = 0.0L, high = 64.0L;
  for (int i = 0; i < 200; ++i) {
    const long double mid = 0.5L * (low + high);
    (pValue(mid) < level ? low : high) = mid;
  }
  return static_cast<double>(low);
}

}  // namespace

class TestAuditBound : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void tailMatchesDirectSum_data() {
    QTest::addColumn<qlonglong>("r");
    QTest::addColumn<qlonglong>("v");
    QTest::addColumn<double>("q");
    QTest::newRow("small") << 10LL << 7LL << 0.5;
    QTest::newRow("mid") << 200LL << 130LL << 0.6;
    QTest::newRow("far tail") << 500LL << 480LL << 0.7;
  }
  void tailMatchesDirectSum() {
    QFETCH(qlonglong, r);
    QFETCH(qlonglong, v);
    QFETCH(double, q);
    const double ours = binomialUpperTail(r, v, q);
    const double direct = static_cast<double>(directTail(r, v, q));
    QVERIFY2(std::abs(ours - direct) <= 1e-12 + 1e-9 * direct,
             qPrintable(QString("%1 vs %2").arg(ours).arg(direct)));
    QCOMPARE(binomialUpperTail(r, 0, q), 1.0);
    QCOMPARE(binomialUpperTail(r, r + 1, q), 0.0);
  }

  void zeroWithoutEvidence() {
    // v ≤ r/2: at ε = 0 the p-value is P[Bin(r, ½) ≥ v] ≥ ½, never below 5%.
    for (const long long r : {2LL, 10LL, 101LL, 1000LL}) {
      for (const long long v : {0LL, r / 4, r / 2}) {
        QCOMPARE(oneRunEpsilonLowerBound(1000, r, v, 0.0, 0.95), 0.0);
        QCOMPARE(oneRunEpsilonLowerBound(1000, r, v, 1e-5, 0.95), 0.0);
      }
    }
  }

  void increasesWithCorrectGuesses() {
    double previous = 0.0;
    int strictIncreases = 0;
    for (long long v = 50; v <= 100; v += 5) {
      const double eps = oneRunEpsilonLowerBound(1000, 100, v, 1e-5, 0.95);
      QVERIFY2(eps >= previous, qPrintable(QString("v=%1: %2 < %3").arg(v).arg(eps).arg(previous)));
      strictIncreases += eps > previous ? 1 : 0;
      previous = eps;
    }
    QVERIFY(strictIncreases >= 6);
    QVERIFY(previous > 2.0);  // 100 of 100 correct is strong evidence
  }

  void pureDpMatchesDirectBinomialTail_data() {
    QTest::addColumn<qlonglong>("r");
    QTest::addColumn<qlonglong>("v");
    QTest::addColumn<double>("confidence");
    QTest::newRow("20/20") << 20LL << 20LL << 0.95;
    QTest::newRow("80/100") << 100LL << 80LL << 0.95;
    QTest::newRow("290/500 at 99%") << 500LL << 290LL << 0.99;
    QTest::newRow("950/1000") << 1000LL << 950LL << 0.95;
  }
  void pureDpMatchesDirectBinomialTail() {
    QFETCH(qlonglong, r);
    QFETCH(qlonglong, v);
    QFETCH(double, confidence);
    const double ours = oneRunEpsilonLowerBound(1000, r, v, 0.0, confidence);
    const double direct = directEpsilon(r, v, confidence);
    qInfo("r=%lld v=%lld: eps_hat %.9f, direct %.9f", r, v, ours, direct);
    QVERIFY(direct > 0.0);
    QVERIFY2(std::abs(ours - direct) <= 1e-6,
             qPrintable(QString("%1 vs %2").arg(ours, 0, 'g', 12).arg(direct, 0, 'g', 12)));
  }

  void deltaTermOnlyLowers() {
    for (const long long v : {60LL, 75LL, 90LL, 100LL}) {
      double previous = oneRunEpsilonLowerBound(1000, 100, v, 0.0, 0.95);
      for (const double delta : {1e-8, 1e-6, 1e-5, 1e-4, 1e-3}) {
        const double eps = oneRunEpsilonLowerBound(1000, 100, v, delta, 0.95);
        QVERIFY2(
            eps <= previous,
            qPrintable(QString("v=%1 δ=%2: %3 > %4").arg(v).arg(delta).arg(eps).arg(previous)));
        previous = eps;
      }
    }
    // The δ term is felt: with 2·m·δ = 0.2 and 2 the bound drops well below its δ = 0 value.
    const double pure = oneRunEpsilonLowerBound(1000, 100, 100, 0.0, 0.95);
    QVERIFY(oneRunEpsilonLowerBound(1000, 100, 100, 1e-4, 0.95) < pure - 0.1);
    QVERIFY(oneRunEpsilonLowerBound(1000, 100, 100, 1e-3, 0.95) < pure - 1.0);
    // The p-value itself: β plus a non-negative δ term, capped at 1.
    QVERIFY(oneRunPValue(1000, 100, 80, 1.0, 1e-5) >= oneRunPValue(1000, 100, 80, 1.0, 0.0));
    QCOMPARE(oneRunPValue(1000, 100, 80, 1.0, 1.0), 1.0);
  }

  void badInputNamesTheField() {
    const auto message = [](auto&& call) {
      try {
        call();
      } catch (const PrivacyError& e) {
        return QString::fromUtf8(e.what());
      }
      return QString();
    };
    QVERIFY(message([] { oneRunEpsilonLowerBound(0, 0, 0, 0.0, 0.95); }).startsWith("canaries:"));
    QVERIFY(message([] { oneRunEpsilonLowerBound(10, 11, 0, 0.0, 0.95); }).startsWith("guesses:"));
    QVERIFY(message([] { oneRunEpsilonLowerBound(10, 4, 5, 0.0, 0.95); }).startsWith("correct:"));
    QVERIFY(message([] { oneRunEpsilonLowerBound(10, 4, 3, 1.5, 0.95); }).startsWith("delta:"));
    QVERIFY(message([] { oneRunEpsilonLowerBound(10, 4, 3, 0.0, 1.0); }).startsWith("confidence:"));
  }

  void countsGuessesFromBothEnds() {
    // Scores 0..9; canaries 7, 8, 9 and 2 are in. k₊ = 3 guesses 9, 8, 7 (all in), k₋ = 2
    // guesses 0, 1 (both out): 5 of 5. k₊ = 4 adds 6 (out): 6 of 7 with k₋ = 3 (0, 1, 2).
    const std::vector<double> scores{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<char> included{0, 0, 1, 0, 0, 0, 0, 1, 1, 1};
    const GuessCount a = countCorrectGuesses(scores, included, 3, 2);
    QCOMPARE(a.guesses, 5LL);
    QCOMPARE(a.correct, 5LL);
    const GuessCount b = countCorrectGuesses(scores, included, 4, 3);
    QCOMPARE(b.guesses, 7LL);
    QCOMPARE(b.correct, 5LL);
  }

  void gridIsBonferroniCorrected() {
    // Perfectly separated scores: every k is all correct, so the best is the largest k, tested
    // at level 5%/|grid| — lower than the same count tested alone at 5%.
    const long long m = 400;
    std::vector<double> scores(m);
    std::vector<char> included(m);
    for (long long i = 0; i < m; ++i) {
      included[i] = i % 2;
      scores[i] = included[i] ? 1000.0 + i : static_cast<double>(i);
    }
    const std::vector<long long> grid = defaultGuessGrid(m);
    QCOMPARE(grid, (std::vector<long long>{4, 10, 20, 40, 100, 200}));
    const OneRunBound bound = bestBoundOverGrid(scores, included, 0.0, 0.95, grid);
    QCOMPARE(bound.k, 200LL);
    QCOMPARE(bound.guesses, 400LL);
    QCOMPARE(bound.correct, 400LL);
    QCOMPARE(bound.gridSize, 6);
    const double alone = oneRunEpsilonLowerBound(m, 400, 400, 0.0, 0.95);
    const double corrected = oneRunEpsilonLowerBound(m, 400, 400, 0.0, 1.0 - 0.05 / 6.0);
    QVERIFY(bound.epsilonLowerBound < alone);
    QCOMPARE(bound.epsilonLowerBound, corrected);
  }
};

QTEST_APPLESS_MAIN(TestAuditBound)
#include "test_audit_bound.moc"

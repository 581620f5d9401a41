// Samplers: Poisson lots have mean size qN and include each example with probability q;
// shuffled lots have exactly L distinct examples and cover an epoch without repeats; both
// are reproducible from (seed, step).
#include <QTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "core/common/errors.h"
#include "core/train/sampler.h"

using namespace epsilon;
using namespace epsilon::train;

class TestSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void poissonMeanLotSizeIsQN() {
    // N = 10000, q = 0.0256: lot sizes are Binomial(N, q), mean 256, sd ≈ 15.8; over 2000
    // lots the mean's standard error is 0.35 and the sd's about 0.25.
    PoissonSampler sampler(10000, 0.0256, 42);
    double sum = 0, sq = 0;
    std::vector<int> hits(10000, 0);
    const int steps = 2000;
    for (int t = 0; t < steps; ++t) {
      const auto lot = sampler.lot(t);
      QVERIFY(std::is_sorted(lot.begin(), lot.end()));
      QVERIFY(std::adjacent_find(lot.begin(), lot.end()) == lot.end());
      QVERIFY(lot.empty() || (lot.front() >= 0 && lot.back() < 10000));
      sum += static_cast<double>(lot.size());
      sq += static_cast<double>(lot.size() * lot.size());
      for (int i : lot) ++hits[static_cast<std::size_t>(i)];
    }
    const double mean = sum / steps;
    const double sd = std::sqrt(sq / steps - mean * mean);
    QVERIFY2(std::abs(mean - 256.0) < 1.5, qPrintable(QString::number(mean)));
    QVERIFY2(std::abs(sd - std::sqrt(10000 * 0.0256 * 0.9744)) < 1.2,
             qPrintable(QString::number(sd)));
    // Each example: Binomial(2000, q), mean 51.2; the first and last indices are no exception
    // (the geometric skips have no edge effects).
    double firstHundred = 0, lastHundred = 0;
    for (int i = 0; i < 100; ++i) {
      firstHundred += hits[static_cast<std::size_t>(i)];
      lastHundred += hits[static_cast<std::size_t>(9999 - i)];
    }
    QVERIFY(std::abs(firstHundred / 100 - 51.2) < 3.0);
    QVERIFY(std::abs(lastHundred / 100 - 51.2) < 3.0);
  }

  void poissonIsReproducible() {
    PoissonSampler a(5000, 0.05, 7), b(5000, 0.05, 7), c(5000, 0.05, 8);
    QVERIFY(a.lot(17) == b.lot(17));
    QVERIFY(a.lot(3) == a.lot(3));
    QVERIFY(a.lot(17) != c.lot(17));
    QVERIFY(a.lot(17) != a.lot(18));
  }

  void poissonEdgeRates() {
    PoissonSampler all(50, 1.0, 1), none(50, 0.0, 1);
    QCOMPARE(all.lot(0).size(), std::size_t(50));
    QVERIFY(none.lot(0).empty());
    QVERIFY_THROWS_EXCEPTION(ConfigError, PoissonSampler(50, 1.5, 1));
  }

  void shuffleCoversEachEpochOnce() {
    // N = 1000, L = 64: 15 lots per epoch of exactly 64 distinct examples, no repeats within
    // an epoch (the 40 left over are dropped), a different order the next epoch.
    ShuffleSampler sampler(1000, 64, 5);
    std::set<int> seen;
    for (int t = 0; t < 15; ++t) {
      const auto lot = sampler.lot(t);
      QCOMPARE(lot.size(), std::size_t(64));
      for (int i : lot) QVERIFY(seen.insert(i).second);
    }
    QCOMPARE(seen.size(), std::size_t(960));
    const auto firstOfEpoch0 = sampler.lot(0);
    const auto firstOfEpoch1 = sampler.lot(15);
    QVERIFY(firstOfEpoch0 != firstOfEpoch1);
    ShuffleSampler again(1000, 64, 5);
    QVERIFY(again.lot(15) == firstOfEpoch1);  // reproducible, whatever was drawn before
  }

  void factoryPicksTheKind() {
    QCOMPARE(makeSampler(SamplingKind::Poisson, 100, 10, 1)->kind(), SamplingKind::Poisson);
    QCOMPARE(makeSampler(SamplingKind::Shuffle, 100, 10, 1)->kind(), SamplingKind::Shuffle);
    QVERIFY_THROWS_EXCEPTION(ConfigError, makeSampler(SamplingKind::Shuffle, 100, 101, 1));
  }
};

QTEST_APPLESS_MAIN(TestSampler)
#include "test_sampler.moc"

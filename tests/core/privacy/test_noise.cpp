// The gradient noise: standard normal draws with mean 0 and standard deviation 1 (and σ·S
// after scaling) by statistical tests over many draws with a fixed seed, reproducible by
// index and independent of the thread count.
#include <tbb/task_arena.h>

#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/privacy/noise.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

struct Moments {
  double mean = 0, stddev = 0, withinOne = 0, kurtosis = 0, maxAbs = 0;
};

Moments momentsOf(const std::vector<float>& v) {
  double sum = 0, sq = 0, fourth = 0, within = 0, maxAbs = 0;
  for (float x : v) sum += x;
  const double mean = sum / static_cast<double>(v.size());
  for (float x : v) {
    const double d = x - mean;
    sq += d * d;
    fourth += d * d * d * d;
    maxAbs = std::max(maxAbs, std::abs(static_cast<double>(x)));
  }
  const double n = static_cast<double>(v.size());
  const double var = sq / n;
  Moments m{mean, std::sqrt(var), 0, fourth / n / (var * var), maxAbs};
  for (float x : v) within += std::abs(x - mean) <= m.stddev ? 1 : 0;
  m.withinOne = within / n;
  return m;
}

}  // namespace

class TestNoise : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void standardNormalMoments() {
    // 2²¹ draws: the standard error of the mean is 1/√n ≈ 6.9e-4, of the standard deviation
    // ≈ 4.9e-4, of P(|z| ≤ 1) ≈ 3.2e-4; the bounds below are about 5 standard errors.
    std::vector<float> z(1 << 21);
    fillStandardNormal(z, PhiloxStream(2024, RandomPurpose::Test, 7, 0));
    const Moments m = momentsOf(z);
    QVERIFY2(std::abs(m.mean) < 3.5e-3, qPrintable(QString::number(m.mean)));
    QVERIFY2(std::abs(m.stddev - 1.0) < 2.5e-3, qPrintable(QString::number(m.stddev)));
    QVERIFY2(std::abs(m.withinOne - 0.682689) < 1.6e-3, qPrintable(QString::number(m.withinOne)));
    QVERIFY2(std::abs(m.kurtosis - 3.0) < 0.05, qPrintable(QString::number(m.kurtosis)));
    QVERIFY(m.maxAbs > 4.0 && m.maxAbs < 6.77);
  }

  void scaledNoiseHasStddevSigmaTimesS() {
    // σ = 1.1, S = C = 0.5 added to a vector of 3s: mean 3, standard deviation 0.55.
    const double sigma = 1.1, bound = 0.5;
    std::vector<float> v(1 << 20, 3.0f);
    addGaussianNoise(v, sigma * bound, PhiloxStream(7, RandomPurpose::GradientNoise, 12, 0));
    const Moments m = momentsOf(v);
    QVERIFY2(std::abs(m.mean - 3.0) < 5 * 0.55 / 1024, qPrintable(QString::number(m.mean)));
    QVERIFY2(std::abs(m.stddev / 0.55 - 1.0) < 4e-3, qPrintable(QString::number(m.stddev)));
  }

  void zeroStddevLeavesValues() {
    std::vector<float> v(100, 2.5f);
    addGaussianNoise(v, 0.0, PhiloxStream(7, RandomPurpose::GradientNoise));
    QVERIFY(std::all_of(v.begin(), v.end(), [](float x) { return x == 2.5f; }));
  }

  void drawsAreAddressedByIndex() {
    // A window starting at an odd offset equals the same slice of a longer fill; different
    // steps (sub-streams) differ.
    const PhiloxStream stream(5, RandomPurpose::GradientNoise, 3, 0);
    std::vector<float> all(10000), window(5000), other(10000);
    fillStandardNormal(all, stream);
    const std::uint64_t offset = 4813;  // not a multiple of 4: starts inside a Philox block
    fillStandardNormal(window, stream, offset);
    for (std::size_t j = 0; j < window.size(); ++j) QCOMPARE(window[j], all[j + offset]);
    fillStandardNormal(other, PhiloxStream(5, RandomPurpose::GradientNoise, 4, 0));
    int equal = 0;
    for (std::size_t j = 0; j < all.size(); ++j) equal += all[j] == other[j] ? 1 : 0;
    QVERIFY(equal < 5);
  }

  void independentOfThreadCount() {
    const PhiloxStream stream(9, RandomPurpose::GradientNoise, 1, 2);
    std::vector<float> one(300001, 1.0f), two(300001, 1.0f);
    tbb::task_arena(1).execute([&] { addGaussianNoise(one, 0.7, stream); });
    tbb::task_arena(2).execute([&] { addGaussianNoise(two, 0.7, stream); });
    QVERIFY(one == two);
  }
};

QTEST_APPLESS_MAIN(TestNoise)
#include "test_noise.moc"

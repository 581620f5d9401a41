// Private tuning over a sweep (issue 28): the number of runs K follows its law (inverse
// distribution function checked against the law's mean and first probabilities), the draw is
// reproducible from the sweep's seed with a seed of its own per run, and the point that bounds
// a random choice among the grid is found, or none when the RDP curves cross.
#include <QTest>
#include <cmath>
#include <limits>
#include <set>

#include "core/common/errors.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/private_tuning.h"
#include "core/train/sweep.h"

using namespace epsilon;
using namespace epsilon::train;
using privacy::TuningDistribution;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kGrid = 200000;

// The mean of K and P[K = k] over an even grid of uniforms (a quadrature of the law).
double gridMean(const TuningDistribution& law, long long k, double* probability) {
  double sum = 0.0;
  int hits = 0;
  for (int j = 0; j < kGrid; ++j) {
    const long long draw = drawRunCount(law, (j + 0.5) / kGrid);
    sum += static_cast<double>(draw);
    hits += draw == k;
  }
  *probability = static_cast<double>(hits) / kGrid;
  return sum / kGrid;
}

privacy::PrivacyRunDescription stepsRun(double q, double sigma, long long steps) {
  privacy::PrivacyRunDescription run;
  run.sampleRate = q;
  run.steps = steps;
  run.noiseMultipliers = {sigma};
  return run;
}

}  // namespace

class TestPrivateTuning : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void runCountsFollowTheirLaw_data() {
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("shape");
    QTest::addColumn<qlonglong>("k");
    QTest::addColumn<double>("expected");  // P[K = k], worked out by hand
    // Poisson(10): P[K = 0] = e^−10; geometric mean 10: P[K = 1] = γ = 0.1.
    QTest::newRow("poisson") << 10.0 << kInf << 0LL << std::exp(-10.0);
    QTest::newRow("poisson k=10") << 10.0 << kInf << 10LL
                                  << std::exp(-10.0) * std::pow(10.0, 10) / 3628800.0;
    QTest::newRow("geometric") << 10.0 << 1.0 << 1LL << 0.1;
    QTest::newRow("geometric k=3") << 10.0 << 1.0 << 3LL << 0.1 * 0.9 * 0.9;
    QTest::newRow("log") << 10.0 << 0.0 << 0LL << 0.0;
    QTest::newRow("tnb 0.5") << 4.0 << 0.5 << 0LL << 0.0;
    QTest::newRow("tnb 3") << 3.0 << 3.0 << 0LL << 0.0;
  }
  void runCountsFollowTheirLaw() {
    QFETCH(double, mean);
    QFETCH(double, shape);
    QFETCH(qlonglong, k);
    QFETCH(double, expected);
    double probability = 0.0;
    const double drawnMean = gridMean({mean, shape}, k, &probability);
    QVERIFY2(std::fabs(drawnMean - mean) < 0.01 * mean, std::to_string(drawnMean).c_str());
    QVERIFY2(std::fabs(probability - expected) < 2.0 / kGrid + 1e-3 * expected,
             std::to_string(probability).c_str());
  }

  void meanOneIsOneRun() {
    for (double shape : {0.0, 1.0, 2.5})
      for (double u : {0.0, 0.5, 0.999999}) QCOMPARE(drawRunCount({1.0, shape}, u), 1LL);
  }

  void drawIsReproducibleWithASeedPerRun() {
    ExperimentConfig base;
    const auto grid = expandSweep(base, {{"learning_rate", {"0.01", "0.1", "1"}}});
    const PrivateTuningDraw a = drawPrivateTuning(grid, {8.0, 1.0}, 7);
    const PrivateTuningDraw b = drawPrivateTuning(grid, {8.0, 1.0}, 7);
    QCOMPARE(a.runs, b.runs);
    QCOMPARE(a.gridIndices, b.gridIndices);
    QCOMPARE(static_cast<long long>(a.points.size()), a.runs);
    std::set<std::uint64_t> seeds;
    for (std::size_t i = 0; i < a.points.size(); ++i) {
      QCOMPARE(a.points[i].index, static_cast<int>(i));
      QVERIFY(a.gridIndices[i] >= 0 && a.gridIndices[i] < 3);
      QCOMPARE(a.points[i].config.optimizer.learningRate,
               grid[static_cast<std::size_t>(a.gridIndices[i])].config.optimizer.learningRate);
      seeds.insert(a.points[i].config.training.seed);
    }
    QCOMPARE(static_cast<long long>(seeds.size()), a.runs);
    // Other seeds draw other numbers of runs (over a few seeds, not all the same).
    std::set<long long> counts;
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
      counts.insert(drawPrivateTuning(grid, {8.0, 1.0}, seed).runs);
    QVERIFY(counts.size() > 1);
    QVERIFY_THROWS_EXCEPTION(ConfigError, drawPrivateTuning({}, {8.0, 1.0}, 7));
  }

  void dominatingRunBoundsTheGrid() {
    // A σ sweep: the smallest σ costs the most at every order.
    QCOMPARE(privacy::dominatingRun(
                 {stepsRun(0.01, 2.0, 100), stepsRun(0.01, 0.8, 100), stepsRun(0.01, 1.1, 100)}),
             std::optional<std::size_t>(1));
    // Same privacy everywhere (a learning-rate sweep): the first point.
    QCOMPARE(privacy::dominatingRun({stepsRun(0.01, 1.0, 10), stepsRun(0.01, 1.0, 10)}),
             std::optional<std::size_t>(0));
    // Crossing curves: a plain Gaussian (RDP α/50) against a sampled one with σ 0.5, cheaper
    // at small orders and far dearer at large ones.
    QCOMPARE(privacy::dominatingRun({stepsRun(1.0, 5.0, 1), stepsRun(0.01, 0.5, 1)}),
             std::optional<std::size_t>());
  }
};

QTEST_APPLESS_MAIN(TestPrivateTuning)
#include "test_private_tuning.moc"

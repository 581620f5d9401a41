// Adaptive clipping (Andrew et al. 2021) on synthetic per-example norms drawn from
// Uniform(0, 2), whose γ-quantile is 2γ: the clip norm must settle there from far below and
// far above, with the geometric and the linear update, and the noise split must follow Thm. 1.
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/privacy/privatizer.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

constexpr Eigen::Index kUnits = 256;

// Runs `steps` steps and returns the mean clip norm over the last quarter of them.
double settledClipNorm(const PrivatizerOptions& options, int steps) {
  auto privatizer = makePrivatizer(options, {{0, 10}}, static_cast<double>(kUnits));
  double sum = 0;
  int counted = 0;
  GradientMatrix sq(kUnits, 1), weights;
  for (int t = 0; t < steps; ++t) {
    const PhiloxStream norms(3, RandomPurpose::Test, static_cast<std::uint32_t>(t));
    for (Eigen::Index i = 0; i < kUnits; ++i) {
      const double norm = 2.0 * norms.uniform(static_cast<std::uint64_t>(i));
      sq(i, 0) = static_cast<float>(norm * norm);
    }
    PrivatizeStats stats;
    privatizer->clipWeights(sq, weights, stats);
    for (Eigen::Index i = 0; i < kUnits; ++i) {
      // The weight clips exactly the units above the current bound.
      const double clipped = std::sqrt(static_cast<double>(sq(i, 0))) * weights(i, 0);
      if (clipped > privatizer->clipNorm() * (1 + 1e-6)) return -1.0;
    }
    privatizer->endStep(
        stats, static_cast<double>(kUnits),
        PhiloxStream(3, RandomPurpose::ClipCountNoise, static_cast<std::uint32_t>(t)));
    if (t >= steps * 3 / 4) {
      sum += privatizer->clipNorm();
      ++counted;
    }
  }
  return sum / counted;
}

}  // namespace

class TestAdaptiveClipping : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void movesTowardTargetQuantile_data() {
    QTest::addColumn<double>("target");
    QTest::addColumn<double>("initial");
    QTest::addColumn<int>("policy");
    QTest::addColumn<double>("rate");
    QTest::newRow("geometric median from below")
        << 0.5 << 0.01 << int(ClipUpdatePolicy::Geometric) << 0.2;
    QTest::newRow("geometric median from above")
        << 0.5 << 50.0 << int(ClipUpdatePolicy::Geometric) << 0.2;
    QTest::newRow("geometric 0.9 (MindArmour's γ)")
        << 0.9 << 0.1 << int(ClipUpdatePolicy::Geometric) << 0.2;
    QTest::newRow("linear median") << 0.5 << 0.1 << int(ClipUpdatePolicy::Linear) << 0.05;
    QTest::newRow("linear 0.2 from above") << 0.2 << 3.0 << int(ClipUpdatePolicy::Linear) << 0.05;
  }
  void movesTowardTargetQuantile() {
    QFETCH(double, target);
    QFETCH(double, initial);
    QFETCH(int, policy);
    QFETCH(double, rate);
    const PrivatizerOptions options{.kind = PrivatizerKind::Adaptive,
                                    .clipNorm = initial,
                                    .targetQuantile = target,
                                    .clipLearningRate = rate,
                                    .clipPolicy = static_cast<ClipUpdatePolicy>(policy)};
    const double settled = settledClipNorm(options, 800);
    QVERIFY2(settled > 0, "a weight let a unit exceed the clip norm");
    const double quantile = 2.0 * target;  // of Uniform(0, 2)
    QVERIFY2(std::abs(settled / quantile - 1.0) < 0.05,
             qPrintable(QString("settled at %1, the %2-quantile is %3")
                            .arg(settled)
                            .arg(target)
                            .arg(quantile)));
  }

  void noiseSplitFollowsTheorem1() {
    // σ = 1.1 with σ_b = 256/20 = 12.8: σ_Δ = (1.1⁻² − 25.6⁻²)^(−1/2) = 1.1010169.
    auto privatizer = makePrivatizer({.kind = PrivatizerKind::Adaptive}, {{0, 10}}, 256.0);
    QCOMPARE(privatizer->countNoiseStddev(), 12.8);
    QVERIFY(std::abs(privatizer->gradientNoiseMultiplier(1.1) - 1.1010169) < 1e-6);
    // MindArmour's fraction_stddev 0.01 means σ_b = 0.01·256 = 2.56.
    auto fraction = makePrivatizer({.kind = PrivatizerKind::Adaptive, .fractionStddev = 0.01},
                                   {{0, 10}}, 256.0);
    QVERIFY(qFuzzyCompare(fraction->countNoiseStddev(), 2.56));
    // 2σ_b ≤ σ leaves nothing for the gradient: refused, naming the field.
    auto tooSmall = makePrivatizer({.kind = PrivatizerKind::Adaptive, .clipCountStddev = 0.5},
                                   {{0, 10}}, 256.0);
    try {
      tooSmall->gradientNoiseMultiplier(1.1);
      QFAIL("2σ_b < σ accepted");
    } catch (const ConfigError& e) {
      QVERIFY(QString(e.what()).contains("privacy.clip_count_stddev"));
    }
  }
};

QTEST_APPLESS_MAIN(TestAdaptiveClipping)
#include "test_adaptive_clipping.moc"

// Clipping (flat and per layer), the tanh filter and "none" on synthetic gradients whose
// norms span far below to far above the bound: clipped norms never exceed C, small
// gradients pass unchanged, tanh is bounded by c element-wise, both clipping paths agree.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/privacy/privatizer.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

// 64 rows × 1000 parameters, row i scaled so its norm is 10^((i − 32.5)/8): 8.7e-5 … 6.5e3
// (none exactly 1, so float rounding cannot decide whether a row is clipped).
GradientMatrix syntheticGradients() {
  const PhiloxStream stream(11, RandomPurpose::Test);
  GradientMatrix g(64, 1000);
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    for (Eigen::Index j = 0; j < g.cols(); ++j)
      g(i, j) = static_cast<float>(stream.normal(static_cast<std::uint64_t>(i * 1000 + j)));
    g.row(i) *=
        static_cast<float>(std::pow(10.0, (static_cast<double>(i) - 32.5) / 8.0) / g.row(i).norm());
  }
  return g;
}

const std::vector<ParameterSlice> kSlices{{0, 300}, {300, 650}, {950, 50}};

GradientMatrix groupSquaredNorms(const GradientMatrix& g) {
  GradientMatrix sq(g.rows(), static_cast<Eigen::Index>(kSlices.size()));
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    for (std::size_t l = 0; l < kSlices.size(); ++l) {
      sq(i, static_cast<Eigen::Index>(l)) =
          g.row(i).segment(kSlices[l].offset, kSlices[l].size).squaredNorm();
    }
  }
  return sq;
}

}  // namespace

class TestPrivatizers : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void flatClipNeverExceedsC() {
    const double c = 1.0;
    auto privatizer = makePrivatizer({.kind = PrivatizerKind::Clip, .clipNorm = c}, kSlices, 64);
    const GradientMatrix before = syntheticGradients();
    GradientMatrix g = before;
    PrivatizeStats stats;
    privatizer->privatizeRows(GradientRows(g.data(), g.rows(), g.cols()), stats);
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
      const double normBefore = before.row(i).norm();
      QVERIFY2(g.row(i).norm() <= c * (1 + 1e-6),
               qPrintable(QString("row %1 norm %2").arg(i).arg(g.row(i).norm())));
      if (normBefore <= c) {
        QVERIFY(g.row(i) == before.row(i));  // untouched, bit for bit
      } else {
        QVERIFY(std::abs(g.row(i).norm() - c) < 1e-5);
        QVERIFY(std::abs(g.row(i).normalized().dot(before.row(i).normalized()) - 1.0f) <
                1e-5);  // same direction
      }
    }
    QCOMPARE(stats.units, 64LL);
    QCOMPARE(stats.clipped, 31LL);  // rows 33..63
    QCOMPARE(privatizer->sensitivity(), c);
  }

  void fastPathMatchesRows() {
    // Weights from group norms applied to the rows equal clipping the rows themselves.
    for (bool perLayer : {false, true}) {
      auto privatizer = makePrivatizer(
          {.kind = PrivatizerKind::Clip, .clipNorm = 0.7, .perLayer = perLayer}, kSlices, 64);
      const GradientMatrix g = syntheticGradients();
      GradientMatrix weights;
      PrivatizeStats fast, rows;
      privatizer->clipWeights(groupSquaredNorms(g), weights, fast);
      QCOMPARE(weights.cols(), perLayer ? Eigen::Index(3) : Eigen::Index(1));
      GradientMatrix clipped = g;
      privatizer->privatizeRows(GradientRows(clipped.data(), clipped.rows(), clipped.cols()), rows);
      for (Eigen::Index i = 0; i < g.rows(); ++i) {
        for (std::size_t l = 0; l < kSlices.size(); ++l) {
          const float w = weights(i, perLayer ? static_cast<Eigen::Index>(l) : 0);
          const auto& s = kSlices[l];
          const float diff =
              (clipped.row(i).segment(s.offset, s.size) - w * g.row(i).segment(s.offset, s.size))
                  .norm();
          QVERIFY(diff <= 1e-6f * std::max(1.0f, g.row(i).norm()));
        }
      }
      QCOMPARE(fast.clipped, rows.clipped);
      QCOMPARE(fast.units, rows.units);
      QVERIFY(std::abs(fast.normSum - rows.normSum) < 1e-3 * rows.normSum);
    }
  }

  void perLayerBoundsEachLayerAndTotal() {
    // C = 1.5 over G = 3 layers: each layer ≤ 1.5/√3, the whole gradient ≤ 1.5.
    const double c = 1.5, layerBound = c / std::sqrt(3.0);
    auto privatizer = makePrivatizer(
        {.kind = PrivatizerKind::Clip, .clipNorm = c, .perLayer = true}, kSlices, 64);
    GradientMatrix g = syntheticGradients();
    PrivatizeStats stats;
    privatizer->privatizeRows(GradientRows(g.data(), g.rows(), g.cols()), stats);
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
      QVERIFY(g.row(i).norm() <= c * (1 + 1e-6));
      for (const auto& s : kSlices)
        QVERIFY(g.row(i).segment(s.offset, s.size).norm() <= layerBound * (1 + 1e-6));
    }
    QVERIFY(stats.clipped >= 31);
  }

  void tanhIsBoundedByCElementwise() {
    const double c = 2.0, k = 0.5;
    auto privatizer = makePrivatizer(
        {.kind = PrivatizerKind::Tanh, .tanhScale = c, .tanhActiveRange = k}, kSlices, 64);
    QVERIFY(privatizer->needsMaterialisedGradients());
    const GradientMatrix before = syntheticGradients();
    GradientMatrix g = before;
    g(0, 0) = 1e30f;  // far outside the active range
    g(0, 1) = -std::numeric_limits<float>::infinity();
    PrivatizeStats stats;
    privatizer->privatizeRows(GradientRows(g.data(), g.rows(), g.cols()), stats);
    QVERIFY(std::all_of(g.data(), g.data() + g.size(), [&](float x) { return std::abs(x) <= c; }));
    QCOMPARE(g(0, 0), 2.0f);
    QCOMPARE(g(0, 1), -2.0f);
    for (Eigen::Index i = 1; i < g.rows(); ++i) {
      for (Eigen::Index j = 0; j < g.cols(); j += 37) {
        QVERIFY(std::abs(g(i, j) - c * std::tanh(before(i, j) / k)) < 1e-5 * c);
      }
    }
    // Sensitivity: nominal c (the paper's accounting), honest c·√P (seed 001, §III.A).
    QCOMPARE(privatizer->sensitivity(), c);
    QVERIFY(qFuzzyCompare(privatizer->honestSensitivity(), c * std::sqrt(1000.0)));
    GradientMatrix weights;
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             privatizer->clipWeights(groupSquaredNorms(before), weights, stats));
  }

  void noneLeavesGradients() {
    auto privatizer = makePrivatizer({.kind = PrivatizerKind::None}, kSlices, 64);
    QVERIFY(!privatizer->needsNorms());
    QCOMPARE(privatizer->gradientNoiseMultiplier(1.1), 0.0);
    const GradientMatrix before = syntheticGradients();
    GradientMatrix g = before;
    PrivatizeStats stats;
    privatizer->privatizeRows(GradientRows(g.data(), g.rows(), g.cols()), stats);
    QVERIFY(g == before);
  }

  void badOptionsNameTheField() {
    const std::pair<PrivatizerOptions, const char*> cases[] = {
        {{.kind = PrivatizerKind::Clip, .clipNorm = 0.0}, "privacy.clip_norm"},
        {{.kind = PrivatizerKind::Tanh, .tanhScale = -1.0}, "privacy.tanh_c"},
        {{.kind = PrivatizerKind::Tanh, .tanhActiveRange = 0.0}, "privacy.tanh_k"},
        {{.kind = PrivatizerKind::Adaptive, .targetQuantile = 1.0}, "privacy.target_quantile"},
        {{.kind = PrivatizerKind::Adaptive, .perLayer = true}, "privacy.per_layer_clip"},
    };
    for (const auto& [options, field] : cases) {
      try {
        makePrivatizer(options, kSlices, 64);
        QFAIL(field);
      } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains(field), e.what());
      }
    }
    QCOMPARE(parsePrivatizerKind("adaptive"), PrivatizerKind::Adaptive);
    QCOMPARE(parseClipPolicy("linear"), ClipUpdatePolicy::Linear);
    QVERIFY_THROWS_EXCEPTION(ConfigError, parsePrivatizerKind("laplace"));
  }
};

QTEST_APPLESS_MAIN(TestPrivatizers)
#include "test_privatizers.moc"

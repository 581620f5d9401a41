// The gradient-norm view's data: the pre-clip norms the Trainer reports for a lot are the
// norms of that lot's per-example gradients (recomputed here from the initial model), their
// histogram counts match a direct count, the clipped fraction and the bound in force agree
// with them, and the privatizer curves follow their formulas.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/train/gradient_norms.h"
#include "core/train/sampler.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

ExperimentConfig tinyConfig() {
  ExperimentConfig c;
  c.dataset.name = "xor";
  c.dataset.options.size = 400;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {8};
  c.training.lotSize = 40;
  c.training.steps = 6;
  c.training.seed = 5;
  c.training.gradientNorms = true;
  c.privacy.noise.initial = 1.0;
  c.optimizer.learningRate = 0.2;
  return c;
}

std::shared_ptr<const data::Dataset> tinyData() {
  static const auto d =
      std::make_shared<const data::Dataset>(data::loadDataset("xor", tinyConfig().dataset.options));
  return d;
}

std::vector<GradientNormSample> normSamples(const ExperimentConfig& config) {
  std::vector<GradientNormSample> samples;
  const RunResult r = Trainer(config, tinyData()).run([&](const ProgressEvent& e) {
    if (e.gradientNorms) samples.push_back(*e.gradientNorms);
  });
  if (r.status != RunStatus::Done) qWarning("run ended: %s", r.message.c_str());
  return samples;
}

// Step 1's lot, recomputed without the Trainer: the sampler's first lot, the initial model's
// per-example gradients (materialised), their L2 norms.
std::vector<double> firstLotNorms(const ExperimentConfig& c) {
  const data::Dataset& d = *tinyData();
  const auto model =
      nn::buildPreset<float>(c.model.preset, d.shape, d.classCount(), c.training.seed,
                             nn::PresetOptions{c.model.hiddenWidths});
  const std::vector<int> lot =
      makeSampler(c.privacy.sampling, d.train.size(), c.training.lotSize, c.training.seed)->lot(0);
  nn::Matrix<float> x(static_cast<Eigen::Index>(lot.size()), d.train.features.cols());
  std::vector<int> labels;
  for (std::size_t i = 0; i < lot.size(); ++i) {
    x.row(static_cast<Eigen::Index>(i)) = d.train.features.row(lot[i]);
    labels.push_back(d.train.labels[static_cast<std::size_t>(lot[i])]);
  }
  nn::Workspace<float> ws;
  model.backward(x, labels, ws);
  const nn::Matrix<float> g = model.perExampleGradients(ws);
  std::vector<double> norms;
  for (Eigen::Index r = 0; r < g.rows(); ++r)
    norms.push_back(std::sqrt(static_cast<double>(g.row(r).squaredNorm())));
  return norms;
}

// The bins of normHistogram, counted the obvious way.
std::vector<long long> directCount(const std::vector<double>& values, int bins, double max) {
  std::vector<long long> counts(static_cast<std::size_t>(bins), 0);
  for (double v : values) {
    for (int b = 0; b < bins; ++b) {
      const double low = max * b / bins, high = max * (b + 1) / bins;
      if (v >= low && (v < high || (b == bins - 1 && v <= max))) {
        ++counts[static_cast<std::size_t>(b)];
        break;
      }
    }
  }
  return counts;
}

double fractionAbove(const std::vector<double>& norms, double bound) {
  const auto above = std::count_if(norms.begin(), norms.end(), [&](double n) { return n > bound; });
  return static_cast<double>(above) / static_cast<double>(norms.size());
}

}  // namespace

class TestGradientNorms : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void reportedNormsAreTheLotsPerExampleNorms_data() {
    QTest::addColumn<int>("privatizer");
    QTest::newRow("clip (fast path)") << int(privacy::PrivatizerKind::Clip);
    QTest::newRow("tanh (materialised)") << int(privacy::PrivatizerKind::Tanh);
    QTest::newRow("none") << int(privacy::PrivatizerKind::None);
  }
  void reportedNormsAreTheLotsPerExampleNorms() {
    QFETCH(int, privatizer);
    ExperimentConfig c = tinyConfig();
    c.privacy.privatizer.kind = static_cast<privacy::PrivatizerKind>(privatizer);
    const auto samples = normSamples(c);
    QCOMPARE(samples.size(), std::size_t(6));
    QCOMPARE(samples.front().step, 1LL);
    const std::vector<double> expected = firstLotNorms(c);
    const std::vector<double>& got = samples.front().norms;
    QCOMPARE(got.size(), expected.size());
    QVERIFY(!got.empty());
    for (std::size_t i = 0; i < got.size(); ++i) {
      QVERIFY2(std::abs(got[i] - expected[i]) <= 1e-5 * (1.0 + expected[i]),
               qPrintable(QString("unit %1: %2 vs %3").arg(i).arg(got[i]).arg(expected[i])));
    }
  }

  void histogramCountsMatchADirectCount() {
    for (const GradientNormSample& s : normSamples(tinyConfig())) {
      QVERIFY(s.norms.size() > 10);
      const NormHistogram h = normHistogram(s.norms, 12);
      QCOMPARE(h.max, *std::max_element(s.norms.begin(), s.norms.end()));
      QCOMPARE(h.overflow, 0LL);
      QCOMPARE(h.counts, directCount(s.norms, 12, h.max));
      // With the range fixed at 2C, norms beyond it are counted as overflow, not lost.
      const NormHistogram fixed = normHistogram(s.norms, 8, 2 * s.clipNorm);
      long long total = fixed.overflow;
      for (long long n : fixed.counts) total += n;
      QCOMPARE(total, static_cast<long long>(s.norms.size()));
      QCOMPARE(fixed.counts, directCount(s.norms, 8, 2 * s.clipNorm));
    }
  }

  void clipBoundAndFractionAgreeWithTheNorms() {
    // C at the median of the first lot's norms (which C does not change), so the test sees
    // clipped and unclipped units.
    ExperimentConfig c = tinyConfig();
    std::vector<double> first = normSamples(c).front().norms;
    std::nth_element(first.begin(), first.begin() + first.size() / 2, first.end());
    c.privacy.privatizer.clipNorm = first[first.size() / 2];
    const auto samples = normSamples(c);
    bool someClipped = false, someUnclipped = false;
    for (const GradientNormSample& s : samples) {
      QCOMPARE(s.privatizer, privacy::PrivatizerKind::Clip);
      QCOMPARE(s.clipNorm, c.privacy.privatizer.clipNorm);
      QCOMPARE(s.fractionClipped, fractionAbove(s.norms, s.clipNorm));
      someClipped = someClipped || s.fractionClipped > 0;
      someUnclipped = someUnclipped || s.fractionClipped < 1;
    }
    QVERIFY(someClipped && someUnclipped);  // C sits inside the norms: the test can tell
  }

  void adaptiveClippingReportsTheBoundInForce() {
    // C_t moves toward the median (γ = 0.5) from C₀ = 0.05: every sample's fraction is
    // measured against its own C_t, and C_t grows.
    ExperimentConfig c = tinyConfig();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::Adaptive;
    c.privacy.privatizer.clipNorm = 0.05;
    const auto samples = normSamples(c);
    QCOMPARE(samples.size(), std::size_t(6));
    QCOMPARE(samples.front().clipNorm, 0.05);
    QVERIFY(samples.back().clipNorm > samples.front().clipNorm);
    for (const GradientNormSample& s : samples)
      QCOMPARE(s.fractionClipped, fractionAbove(s.norms, s.clipNorm));
  }

  void microBatchesReportOneNormPerMicroBatch() {
    ExperimentConfig c = tinyConfig();
    c.privacy.microbatchSize = 4;  // K = 10 slots per lot of ~40
    for (const GradientNormSample& s : normSamples(c)) {
      QVERIFY(!s.norms.empty() && s.norms.size() <= 10);
      QCOMPARE(s.fractionClipped, fractionAbove(s.norms, s.clipNorm));
    }
  }

  void offByDefault() {
    ExperimentConfig c = tinyConfig();
    c.training.gradientNorms = false;
    c.training.stepEvents = true;
    int steps = 0, withNorms = 0;
    Trainer(c, tinyData()).run([&](const ProgressEvent& e) {
      steps += e.kind == EventKind::Step ? 1 : 0;
      withNorms += e.gradientNorms ? 1 : 0;
    });
    QCOMPARE(steps, 6);
    QCOMPARE(withNorms, 0);
  }

  void histogramEdges() {
    const std::vector<double> v{0.0, 0.5, 1.0, 1.0, 2.5, std::numeric_limits<double>::quiet_NaN(),
                                -1.0};
    const NormHistogram h = normHistogram(v, 2, 1.0);
    QCOMPARE(h.counts, (std::vector<long long>{1, 3}));  // 1.0 = max falls in the last bin
    QCOMPARE(h.overflow, 3LL);                           // 2.5, NaN, -1
    QCOMPARE(h.binWidth(), 0.5);
    QCOMPARE(normHistogram({}, 4).max, 1.0);
    QVERIFY_THROWS_EXCEPTION(ConfigError, normHistogram(v, 0));
  }

  void privatizerCurvesFollowTheirFormulas() {
    privacy::PrivatizerOptions o;
    o.kind = privacy::PrivatizerKind::Clip;
    const auto clip = privatizerCurve(o, 1.5, 3.0, 7);
    QCOMPARE(clip.size(), std::size_t(7));
    QCOMPARE(clip[1].input, 0.5);
    QCOMPARE(clip[1].output, 0.5);
    QCOMPARE(clip[6].input, 3.0);
    QCOMPARE(clip[6].output, 1.5);
    o.kind = privacy::PrivatizerKind::Tanh;
    o.tanhScale = 0.2;
    o.tanhActiveRange = 0.5;
    const auto tanh = privatizerCurve(o, std::numeric_limits<double>::quiet_NaN(), 2.0, 5);
    for (const CurvePoint& p : tanh) QCOMPARE(p.output, 0.2 * std::tanh(p.input / 0.5));
    QVERIFY(tanh.back().output < 0.2 && tanh.back().output > 0.199);
    o.kind = privacy::PrivatizerKind::None;
    QCOMPARE(privatizerCurve(o, 1.0, 4.0, 3)[2].output, 4.0);
    QVERIFY_THROWS_EXCEPTION(ConfigError, privatizerCurve(o, 1.0, 0.0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, privatizerCurve(o, 1.0, 1.0, 1));
  }
};

QTEST_APPLESS_MAIN(TestGradientNorms)
#include "test_gradient_norms.moc"

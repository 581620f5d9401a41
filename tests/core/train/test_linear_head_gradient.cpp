// The fused DP-SGD path for a Dense layer on parameter-free layers (scatter-linear, logistic)
// against the slow but obviously correct reference: every example's gradient materialised
// through the Workspace, clipped by the formula and added. Also: which models take the path,
// thread-count independence, and lots of changing size reusing the buffers.
#include <tbb/global_control.h>

#include <QTest>
#include <algorithm>
#include <cmath>

#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/nn/scattering.h"
#include "core/privacy/privatizer.h"
#include "core/train/linear_head_gradient.h"
#include "core/train/private_gradient.h"
#include "tests/core/train/gradient_test_support.h"

using namespace epsilon;
using namespace epsilon::train;
using namespace epsilon::train::test;

namespace {

// The scattering features (81×2×2 for 8×8 digits) of the first 300 training digits.
const data::Split& digitFeatures() {
  static const data::Split split = [] {
    const data::Dataset& d = digits();
    const nn::Scattering2D s(d.shape);
    data::Split out;
    out.features = s.transformAll(d.train.features.topRows(300));
    out.labels.assign(d.train.labels.begin(), d.train.labels.begin() + 300);
    return out;
  }();
  return split;
}

std::vector<int> lotOf(int size, int stride, int modulo) {
  std::vector<int> lot;
  for (int i = 0; i < size; ++i) lot.push_back((i * stride) % modulo);
  return lot;
}

struct Case {
  nn::Model<float> model;
  const data::Split* split;
};

Case makeCase(const QString& preset) {
  const data::Dataset& d = digits();
  auto model = nn::buildPreset<float>(preset.toStdString(), d.shape, d.classCount(), 3);
  return {std::move(model), preset == "logistic" ? &d.train : &digitFeatures()};
}

Eigen::VectorXf privateGradient(const Case& c, const std::vector<int>& lot, double clip,
                                StepGradient* step = nullptr) {
  std::vector<privacy::ParameterSlice> slices{{0, c.model.parameterCount()}};
  auto privatizer = privacy::makePrivatizer(
      {.kind = privacy::PrivatizerKind::Clip, .clipNorm = clip}, slices, double(lot.size()));
  PrivateGradient pipeline(c.model, *privatizer, 1, int(lot.size()), double(lot.size()), 9);
  pipeline.setRecordNorms(true);
  Eigen::VectorXf gradient;
  const StepGradient s = pipeline.compute(*c.split, lot, 0, 0.0, gradient);
  if (step) *step = s;
  return gradient;
}

}  // namespace

class TestLinearHeadGradient : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void appliesToADenseLayerOnParameterFreeLayersOnly() {
    const data::Dataset& d = digits();
    for (const char* yes : {"logistic", "scatter-linear"})
      QVERIFY2(LinearHeadGradient::applies(nn::buildPreset<float>(yes, d.shape, 10, 1)), yes);
    for (const char* no : {"mlp", "scatter-cnn"})
      QVERIFY2(!LinearHeadGradient::applies(nn::buildPreset<float>(no, d.shape, 10, 1)), no);
    QVERIFY_THROWS_EXCEPTION(ModelError,
                             LinearHeadGradient(nn::buildPreset<float>("mlp", d.shape, 10, 1)));
  }

  void matchesMaterialisedClipping_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("logistic") << "logistic";
    QTest::newRow("scatter-linear") << "scatter-linear";
  }
  void matchesMaterialisedClipping() {
    QFETCH(QString, preset);
    const Case c = makeCase(preset);
    const auto lot = lotOf(300, 7, 300);  // three chunks of 128, 128 and 44 examples
    const nn::Matrix<float> g = perExample(c.model, *c.split, lot);
    std::vector<double> norms;
    for (Eigen::Index i = 0; i < g.rows(); ++i) norms.push_back(g.row(i).cast<double>().norm());
    std::vector<double> sorted = norms;
    std::nth_element(sorted.begin(), sorted.begin() + 150, sorted.end());
    const double clip = sorted[150];  // about half the examples clipped
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(g.cols());
    for (Eigen::Index i = 0; i < g.rows(); ++i)
      expected += g.row(i).transpose().cast<double>() / std::max(1.0, norms[std::size_t(i)] / clip);
    expected /= 300.0;
    StepGradient step;
    const Eigen::VectorXf got = privateGradient(c, lot, clip, &step);
    const double error = (got.cast<double>() - expected).norm() / expected.norm();
    QVERIFY2(error < 1e-5, qPrintable(QString::number(error)));
    QCOMPARE(step.unitNorms.size(), norms.size());
    for (std::size_t i = 0; i < norms.size(); ++i)
      QVERIFY2(
          std::abs(step.unitNorms[i] - norms[i]) <= 1e-5 * norms[i],
          qPrintable(QString("example %1: %2 vs %3").arg(i).arg(step.unitNorms[i]).arg(norms[i])));
    QVERIFY(step.stats.clipped > 100 && step.stats.clipped < 200);
    QCOMPARE(step.stats.units, 300LL);
    QVERIFY(step.lossSum > 0.0);
  }

  void sameBitsWithOneOrTwoThreads() {
    const Case c = makeCase("scatter-linear");
    const auto lot = lotOf(290, 11, 300);
    Eigen::VectorXf one, two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = privateGradient(c, lot, 0.5);
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = privateGradient(c, lot, 0.5);
    }
    QVERIFY(one.norm() > 0.0f);
    QVERIFY(one == two);
  }

  void lotsOfChangingSizeGiveTheSameSums() {
    // Poisson lots change size every step; the buffers only grow and stale rows never leak.
    const Case c = makeCase("scatter-linear");
    LinearHeadGradient head(c.model);
    const auto big = lotOf(300, 7, 300), small = lotOf(20, 13, 300);
    Eigen::VectorXf first, second, third, fresh;
    const auto step1 = head.compute(*c.split, big, nullptr, nullptr, first);
    head.compute(*c.split, small, nullptr, nullptr, second);
    const auto step3 = head.compute(*c.split, big, nullptr, nullptr, third);
    LinearHeadGradient other(c.model);
    other.compute(*c.split, small, nullptr, nullptr, fresh);
    QCOMPARE(step1.lossSum, step3.lossSum);
    QCOMPARE(step1.stats.units, 300LL);
    QVERIFY(first == third);
    QVERIFY(second == fresh);
    QVERIFY(first != second);
    // Weights all 1: the plain sum of the examples' gradients.
    const nn::Matrix<float> g = perExample(c.model, *c.split, small);
    const Eigen::VectorXf expected = g.colwise().sum().transpose();
    QVERIFY((fresh - expected).norm() <= 1e-5f * expected.norm());
  }
};

QTEST_APPLESS_MAIN(TestLinearHeadGradient)
#include "test_linear_head_gradient.moc"

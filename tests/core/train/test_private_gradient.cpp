// The step's gradient pipeline against a slow but obviously correct reference: materialise
// every example's gradient with Model::perExampleGradients, privatize each row by the
// formula, add, divide by L. The fast path (norms → clip factors → weighted sum) must agree,
// flat and per layer, for dense and convolutional networks; micro-batches, tanh, the noise
// and adaptive clipping are checked the same way.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/privacy/privatizer.h"
#include "core/train/private_gradient.h"
#include "tests/core/train/gradient_test_support.h"

using namespace epsilon;
using namespace epsilon::train;
using namespace epsilon::train::test;

namespace {

const data::Dataset& mnist() {
  static const data::Dataset d = data::loadDataset("mnist-10k");
  return d;
}

// The median of the rows' L2 norms: a clip norm that clips about half of them.
double medianNorm(const nn::Matrix<float>& g) {
  std::vector<double> norms;
  for (Eigen::Index i = 0; i < g.rows(); ++i) norms.push_back(g.row(i).cast<double>().norm());
  std::nth_element(norms.begin(), norms.begin() + static_cast<long>(norms.size() / 2), norms.end());
  return norms[norms.size() / 2];
}

std::vector<privacy::ParameterSlice> slicesOf(const nn::Model<float>& model) {
  std::vector<privacy::ParameterSlice> slices;
  for (const auto& g : model.parameterGroups()) slices.push_back({g.offset, g.size});
  return slices;
}

std::vector<int> lotOf(int size, int stride) {
  std::vector<int> lot(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) lot[static_cast<std::size_t>(i)] = i * stride;
  return lot;
}

// Reference clipping: g / max(1, ‖g‖/C) per row, or per layer with C/√G.
Eigen::VectorXd referenceClippedSum(nn::Matrix<float> g, double c,
                                    const std::vector<privacy::ParameterSlice>& slices,
                                    bool perLayer) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(g.cols());
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    Eigen::VectorXd row = g.row(i).transpose().cast<double>();
    if (!perLayer) {
      row /= std::max(1.0, row.norm() / c);
    } else {
      const double bound = c / std::sqrt(static_cast<double>(slices.size()));
      for (const auto& s : slices)
        row.segment(s.offset, s.size) /=
            std::max(1.0, row.segment(s.offset, s.size).norm() / bound);
    }
    sum += row;
  }
  return sum;
}

double relativeDifference(const Eigen::VectorXf& got, const Eigen::VectorXd& expected) {
  return (got.cast<double>() - expected).norm() / std::max(1e-12, expected.norm());
}

}  // namespace

class TestPrivateGradient : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fastClippingMatchesReference_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("perLayer");
    QTest::newRow("mlp flat") << "mlp" << false;
    QTest::newRow("mlp per layer") << "mlp" << true;
    QTest::newRow("tfp-cnn flat") << "tfp-cnn" << false;
    QTest::newRow("lenet5 per layer") << "lenet5" << true;
  }
  void fastClippingMatchesReference() {
    QFETCH(QString, preset);
    QFETCH(bool, perLayer);
    const data::Dataset& d = preset == "mlp" ? digits() : mnist();
    const auto model =
        nn::buildPreset<float>(preset.toStdString(), d.shape, d.classCount(), 5, {{32}});
    const auto slices = slicesOf(model);
    const auto lot = lotOf(40, 7);
    const nn::Matrix<float> examples = perExample(model, d.train, lot);
    const double c = medianNorm(examples);  // about half the examples clipped
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Clip, .clipNorm = c, .perLayer = perLayer}, slices, 40.0);
    PrivateGradient pipeline(model, *privatizer, 1, 40, 40.0, 9);
    Eigen::VectorXf gradient;
    const StepGradient step = pipeline.compute(d.train, lot, 0, 0.0, gradient);
    const Eigen::VectorXd expected = referenceClippedSum(examples, c, slices, perLayer) / 40.0;
    QVERIFY2(relativeDifference(gradient, expected) < 1e-5,
             qPrintable(QString::number(relativeDifference(gradient, expected))));
    QCOMPARE(step.stats.units, 40LL);
    QVERIFY(step.stats.clipped > 0 && step.stats.clipped < 40);
    QCOMPARE(step.examples, 40LL);
    QVERIFY(step.lossSum > 0.0);
  }

  void clippedExampleNormsNeverExceedC() {
    // The materialised path on real per-example gradients: every row ends within C.
    const data::Dataset& d = mnist();
    const auto model = nn::buildPreset<float>("tfp-cnn", d.shape, d.classCount(), 5);
    nn::Matrix<float> g = perExample(model, d.train, lotOf(64, 3));
    for (double c : {0.01, 0.1, 1.0, 10.0}) {
      auto privatizer = privacy::makePrivatizer(
          {.kind = privacy::PrivatizerKind::Clip, .clipNorm = c}, slicesOf(model), 64.0);
      nn::Matrix<float> clipped = g;
      privacy::PrivatizeStats stats;
      privatizer->privatizeRows(
          privacy::GradientRows(clipped.data(), clipped.rows(), clipped.cols()), stats);
      for (Eigen::Index i = 0; i < clipped.rows(); ++i)
        QVERIFY(clipped.row(i).norm() <= c * (1 + 1e-6));
    }
  }

  void tanhMatchesReference() {
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{32}});
    const double c = 0.05, k = 0.02;
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Tanh, .tanhScale = c, .tanhActiveRange = k},
        slicesOf(model), 40.0);
    PrivateGradient pipeline(model, *privatizer, 1, 40, 40.0, 9);
    const auto lot = lotOf(40, 5);
    Eigen::VectorXf gradient;
    pipeline.compute(d.train, lot, 0, 0.0, gradient);
    const nn::Matrix<float> g = perExample(model, d.train, lot);
    const Eigen::VectorXd expected =
        (c * (g.cast<double>().array() / k).tanh()).colwise().sum().transpose() / 40.0;
    QVERIFY(relativeDifference(gradient, expected) < 1e-4);
  }

  void wholeLotMicrobatchClipsTheMean() {
    // m = L: one micro-batch, the lot's mean gradient clipped once, divided by K = 1.
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{32}});
    const double c = 0.05;
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Clip, .clipNorm = c}, slicesOf(model), 1.0);
    PrivateGradient pipeline(model, *privatizer, 32, 1, 1.0, 9);
    const auto lot = lotOf(32, 11);
    Eigen::VectorXf gradient;
    const StepGradient step = pipeline.compute(d.train, lot, 0, 0.0, gradient);
    Eigen::VectorXd mean =
        perExample(model, d.train, lot).cast<double>().colwise().mean().transpose();
    QVERIFY(mean.norm() > c);  // the test means something only if the mean is clipped
    mean /= mean.norm() / c;
    QVERIFY(relativeDifference(gradient, mean) < 1e-5);
    QCOMPARE(step.stats.units, 1LL);
    QCOMPARE(step.stats.clipped, 1LL);
  }

  void microbatchesAreBoundedAndCounted() {
    // m = 4 with L = 64: K = 16 slots; every unit is clipped to C, so ‖Σ‖ ≤ units·C.
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{32}});
    const double c = 0.01;
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Clip, .clipNorm = c}, slicesOf(model), 16.0);
    PrivateGradient pipeline(model, *privatizer, 4, 16, 16.0, 9);
    Eigen::VectorXf gradient;
    const StepGradient step = pipeline.compute(d.train, lotOf(64, 13), 2, 0.0, gradient);
    QVERIFY(step.stats.units >= 10 &&
            step.stats.units <= 16);  // some of the 16 slots may stay empty
    QCOMPARE(step.examples, 64LL);
    QVERIFY(gradient.norm() * 16.0 <= static_cast<double>(step.stats.units) * c * (1 + 1e-5));
  }

  void noiseHasStddevSigmaCOverL() {
    // The same lot with σ = 2 and σ = 0: the difference is N(0, (σC/L)²) in every coordinate.
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{64}});
    const double c = 0.8, sigma = 2.0, lot = 50.0;
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Clip, .clipNorm = c}, slicesOf(model), lot);
    PrivateGradient pipeline(model, *privatizer, 1, 50, lot, 9);
    Eigen::VectorXf noisy, clean;
    const StepGradient step = pipeline.compute(d.train, lotOf(50, 3), 4, sigma, noisy);
    pipeline.compute(d.train, lotOf(50, 3), 4, 0.0, clean);
    QCOMPARE(step.gradientSigma, sigma);
    QCOMPARE(step.sensitivity, c);
    const Eigen::ArrayXd diff = (noisy - clean).cast<double>().array();
    const double mean = diff.mean();
    const double stddev = std::sqrt((diff - mean).square().mean());
    const double expected = sigma * c / lot;
    // P = 4810 coordinates: the standard error of the sample standard deviation is ~1%.
    QVERIFY2(std::abs(stddev / expected - 1.0) < 0.05,
             qPrintable(QString("%1 vs %2").arg(stddev).arg(expected)));
    QVERIFY(std::abs(mean) < 5 * expected / std::sqrt(static_cast<double>(diff.size())));
  }

  void adaptiveClippingUpdatesAfterTheStep() {
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{32}});
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Adaptive, .clipNorm = 1e-4}, slicesOf(model), 40.0);
    PrivateGradient pipeline(model, *privatizer, 1, 40, 40.0, 9);
    Eigen::VectorXf gradient;
    const StepGradient step = pipeline.compute(d.train, lotOf(40, 9), 0, 1.0, gradient);
    // Every norm is above 1e-4, so b̃ ≈ 0 and the geometric rule raises C by about e^(0.2·0.5).
    QCOMPARE(step.clipNorm, 1e-4);
    QCOMPARE(step.stats.clipped, 40LL);
    QVERIFY(privatizer->clipNorm() > 1.05e-4 && privatizer->clipNorm() < 1.2e-4);
    QVERIFY(step.gradientSigma > 1.0);  // σ_Δ > σ: part of the budget went to the count
  }

  void emptyLotStillGetsNoise() {
    const data::Dataset& d = digits();
    const auto model = nn::buildPreset<float>("mlp", d.shape, d.classCount(), 5, {{32}});
    auto privatizer = privacy::makePrivatizer(
        {.kind = privacy::PrivatizerKind::Clip, .clipNorm = 1.0}, slicesOf(model), 40.0);
    PrivateGradient pipeline(model, *privatizer, 1, 40, 40.0, 9);
    Eigen::VectorXf gradient;
    const StepGradient step = pipeline.compute(d.train, {}, 0, 1.0, gradient);
    QCOMPARE(step.examples, 0LL);
    QVERIFY(gradient.norm() > 0.0);
  }
};

QTEST_APPLESS_MAIN(TestPrivateGradient)
#include "test_private_gradient.moc"

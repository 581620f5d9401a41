// GroupNorm beyond its central-difference checks (in test_nn_layers): each group of each
// example comes out with mean 0 and variance 1, examples never mix, and a model's
// per-example gradients through the layer equal those of each example run alone.
#include <QTest>

#include "core/common/errors.h"
#include "core/nn/dense.h"
#include "core/nn/flatten.h"
#include "core/nn/group_norm.h"
#include "core/nn/model.h"
#include "core/nn/tanh.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

class TestGroupNorm : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void groupsAreStandardised() {
    GroupNorm<double> norm(3, false);
    const SampleShape shape = SampleShape::image(6, 4, 5);
    QCOMPARE(norm.configure(shape), shape);
    Matrix<double> x = randomMatrix<double>(2, shape.featureCount(), 5, 3.0);
    x.row(1).array() += 7.0;  // another offset for the second example
    Matrix<double> y(2, shape.featureCount());
    ChunkScratch<double> scratch;
    norm.forward(nullptr, rowBlock(std::as_const(x), 0, 2), rowBlock(y, 0, 2), scratch);
    const Eigen::Index n = 2 * 20;  // 2 channels of 4×5 per group
    for (Eigen::Index e = 0; e < 2; ++e)
      for (Eigen::Index g = 0; g < 3; ++g) {
        const auto v = y.row(e).segment(g * n, n).array();
        QVERIFY(std::abs(v.mean()) < 1e-12);
        QVERIFY(std::abs(v.square().mean() - 1.0) < 1e-5);  // ε = 1e-5 against variance ~9
      }
    // Each example alone gives the same output: no statistic crosses examples.
    Matrix<double> alone(1, shape.featureCount());
    norm.forward(nullptr, rowBlock(std::as_const(x), 1, 1), rowBlock(alone, 0, 1), scratch);
    QVERIFY(relativeError(alone, Matrix<double>(y.row(1))) < 1e-15);
  }

  void refusesChannelsNotDivisibleByGroups() {
    GroupNorm<float> norm(27);
    QCOMPARE(norm.configure(SampleShape::image(81, 7, 7)), SampleShape::image(81, 7, 7));
    try {
      norm.configure(SampleShape::image(10, 7, 7));
      QFAIL("expected a ModelError");
    } catch (const ModelError& e) {
      QVERIFY2(QString(e.what()).contains("27 groups") && QString(e.what()).contains("10×7×7"),
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(ModelError, GroupNorm<float>(0));
  }

  // Starts as the identity affine map: γ = 1 + γ' with γ' zero-initialised, β = 0.
  void initialisedToPlainNormalisation() {
    Model<double> model;
    model.setInputShape(SampleShape::image(4, 3, 3));
    model.add(std::make_unique<GroupNorm<double>>(2));
    model.add(std::make_unique<Flatten<double>>());
    model.add(std::make_unique<Dense<double>>(3));
    model.initialise(9);
    QCOMPARE(model.parameterCount(), Eigen::Index{8 + 36 * 3 + 3});
    QVERIFY(model.parameters().head(8).isZero());
    QVERIFY(!model.parameters().segment(8, 108).isZero());
  }

  void perExampleGradientsEqualBatchOfOne() {
    Model<double> model;
    model.setInputShape(SampleShape::image(4, 3, 3));
    model.add(std::make_unique<GroupNorm<double>>(2));
    model.add(std::make_unique<Tanh<double>>());
    model.add(std::make_unique<Flatten<double>>());
    model.add(std::make_unique<Dense<double>>(3));
    model.initialise(11);
    model.parameters() += Vector<double>(randomMatrix<double>(model.parameterCount(), 1, 12, 0.3));
    const Matrix<double> x = randomMatrix<double>(5, 36, 13, 2.0);
    const std::vector<int> labels = randomLabels(5, 3, 14);
    Workspace<double> ws;
    model.backward(x, labels, ws);
    const Matrix<double> perExample = model.perExampleGradients(ws);
    const Matrix<double> norms = model.perExampleGroupSquaredNorms(ws);
    for (Eigen::Index e = 0; e < 5; ++e) {
      Workspace<double> one;
      model.backward(Matrix<double>(x.row(e)), std::span<const int>(&labels[std::size_t(e)], 1),
                     one);
      Vector<double> alone;
      const std::vector<double> w{1.0};
      model.weightedGradientSum(one, w, alone);
      QVERIFY2(relativeError(Vector<double>(perExample.row(e).transpose()), alone) < 1e-12,
               qPrintable(QString("example %1").arg(e)));
      QVERIFY(std::abs(norms.row(e).sum() - alone.squaredNorm()) < 1e-10 * alone.squaredNorm());
    }
    QVERIFY(perExample.leftCols(8).cwiseAbs().maxCoeff() > 1e-4);  // γ', β gradients are real
  }
};

QTEST_APPLESS_MAIN(TestGroupNorm)
#include "test_group_norm.moc"

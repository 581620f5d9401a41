// The "pca-mlp" preset (Abadi et al. 2016, §5.1): its layers and parameter count, logits equal
// to the projection followed by the dense layers written out by hand, copies sharing the
// projection, and the errors for a missing or mis-shaped projection.
#include <QTest>

#include "core/common/errors.h"
#include "core/nn/model.h"
#include "core/nn/projection.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

namespace {

PresetOptions withProjection(Eigen::Index d, int k, std::uint32_t seed) {
  PresetOptions options;
  options.projectionDims = k;
  options.projection = std::make_shared<const Eigen::MatrixXd>(randomMatrix<double>(d, k, seed));
  return options;
}

}  // namespace

class TestNnProjection : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetHasAbadisShape() {
    // MNIST: 784 → 60 (fixed) → 1000 → 10: 60·1000 + 1000 + 1000·10 + 10 trainable parameters.
    const Model<float> model = buildPreset<float>("pca-mlp", SampleShape::image(1, 28, 28), 10, 1,
                                                  withProjection(784, 60, 1));
    QCOMPARE(model.parameterCount(), Eigen::Index(60 * 1000 + 1000 + 1000 * 10 + 10));
    QCOMPARE(model.layerCount(), 4);
    QCOMPARE(model.layer(0).kind(), std::string("projection"));
    QCOMPARE(model.parameterGroups().size(), std::size_t(2));  // the projection is not trained
    QVERIFY(QString::fromStdString(model.summary()).contains("projection 784 → 60"));
  }

  void logitsAreProjectionThenDense() {
    const PresetOptions options = withProjection(12, 4, 2);
    const Model<double> model =
        buildPreset<double>("pca-mlp", SampleShape::features(12), 3, 5, options);
    const Matrix<double> x = randomMatrix<double>(7, 12, 3);
    // Parameters: dense 4→1000 (weights, then biases), then dense 1000→3, as the groups say.
    const auto groups = model.parameterGroups();
    const Vector<double>& theta = model.parameters();
    auto dense = [&](const ParameterGroup& g, Eigen::Index in, Eigen::Index out,
                     const Matrix<double>& a) {
      const Eigen::Map<const Matrix<double>> w(theta.data() + g.offset, out, in);
      const Eigen::Map<const Vector<double>> b(theta.data() + g.offset + in * out, out);
      Matrix<double> y = a * w.transpose();
      y.rowwise() += b.transpose();
      return y;
    };
    const Matrix<double> projected = x * *options.projection;
    const Matrix<double> hidden = dense(groups[0], 4, 1000, projected).cwiseMax(0.0);
    const Matrix<double> expected = dense(groups[1], 1000, 3, hidden);
    const Matrix<double> logits = model.logits(x);
    QVERIFY2(relativeError(logits, expected) < 1e-12,
             qPrintable(QString::number(relativeError(logits, expected))));
  }

  void copiesShareTheProjection() {
    const Model<float> a =
        buildPreset<float>("pca-mlp", SampleShape::features(10), 2, 3, withProjection(10, 3, 4));
    const Model<float> b = a;
    const Matrix<float> x = randomMatrix<float>(5, 10, 6);
    QCOMPARE((a.logits(x) - b.logits(x)).cwiseAbs().maxCoeff(), 0.0f);
  }

  void withoutAProjectionItIsBuiltButRefusesToRun() {
    PresetOptions options;
    options.projectionDims = 60;
    const Model<float> model =
        buildPreset<float>("pca-mlp", SampleShape::image(1, 28, 28), 10, 1, options);
    QCOMPARE(model.parameterCount(), Eigen::Index(71010));
    QVERIFY(QString::fromStdString(model.summary()).contains("not computed"));
    try {
      model.logits(Matrix<float>::Zero(2, 784));
      QFAIL("expected a ModelError");
    } catch (const ModelError& e) {
      QVERIFY2(QString(e.what()).contains("has not been computed"), e.what());
    }
  }

  void mismatchedProjectionNamesTheShapes() {
    try {
      buildPreset<float>("pca-mlp", SampleShape::features(20), 2, 1, withProjection(10, 3, 7));
      QFAIL("expected a ModelError");
    } catch (const ModelError& e) {
      const QString message = e.what();
      QVERIFY2(message.contains("pca-mlp") && message.contains("10 input features") &&
                   message.contains("20 features"),
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(ModelError, Projection<float>(0, nullptr));
    const auto wrongColumns = std::make_shared<const Eigen::MatrixXd>(Eigen::MatrixXd::Zero(10, 4));
    QVERIFY_THROWS_EXCEPTION(ModelError, Projection<float>(3, wrongColumns));
  }
};

QTEST_APPLESS_MAIN(TestNnProjection)
#include "test_nn_projection.moc"

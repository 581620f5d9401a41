// Per-example gradients for every preset and for convolutions with same and valid padding
// and stride 2: against a batch-of-one loop (the slow, obviously correct reference), their
// sum against the batch gradient, the fast norms and weighted sums against materialised
// ones, the model's gradient against finite differences, and bit-identical results with one
// thread or two.
#include <tbb/task_arena.h>

#include <QTest>
#include <algorithm>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/conv2d.h"
#include "core/nn/dense.h"
#include "core/nn/flatten.h"
#include "core/nn/model.h"
#include "core/nn/relu.h"
#include "core/nn/tanh.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

namespace {

constexpr int kBatch = 37;  // three chunks, the last one partial

template <class Scalar>
Model<Scalar> makeModel(const QString& name) {
  if (name == "conv same/valid stride 2") {
    Model<Scalar> m;
    m.setInputShape(SampleShape::image(2, 11, 11));
    m.add(std::make_unique<Conv2D<Scalar>>(3, 3, 2, Padding::Same));
    m.add(std::make_unique<Relu<Scalar>>());
    m.add(std::make_unique<Conv2D<Scalar>>(2, 3, 2, Padding::Valid));
    m.add(std::make_unique<Tanh<Scalar>>());
    m.add(std::make_unique<Flatten<Scalar>>());
    m.add(std::make_unique<Dense<Scalar>>(3));
    m.initialise(11);
    return m;
  }
  PresetOptions options;
  options.hiddenWidths = {8, 5};
  if (name == "logistic") return buildPreset<Scalar>("logistic", SampleShape::features(6), 3, 1);
  if (name == "mlp") return buildPreset<Scalar>("mlp", SampleShape::image(1, 6, 6), 3, 2, options);
  // 28×28: the first conv layer works on blocks of 2 examples, the second on blocks of 5.
  if (name == "tfp-cnn")
    return buildPreset<Scalar>("tfp-cnn", SampleShape::image(1, 28, 28), 10, 3);
  if (name == "tfp-cnn-tanh")
    return buildPreset<Scalar>("tfp-cnn-tanh", SampleShape::image(2, 14, 14), 3, 4);
  return buildPreset<Scalar>("lenet5", SampleShape::image(1, 16, 16), 3, 5);
}

template <class Scalar>
struct Batch {
  Matrix<Scalar> x;
  std::vector<int> labels;
};

template <class Scalar>
Batch<Scalar> makeBatch(const Model<Scalar>& model, int size, std::uint32_t seed) {
  return {randomMatrix<Scalar>(size, model.inputShape().featureCount(), seed),
          randomLabels(size, model.outputCount(), seed)};
}

// Squared norms per group, from materialised per-example gradients.
template <class Scalar>
Matrix<Scalar> groupNorms(const Model<Scalar>& model, const Matrix<Scalar>& g) {
  const auto groups = model.parameterGroups();
  Matrix<Scalar> norms(g.rows(), Eigen::Index(groups.size()));
  for (std::size_t k = 0; k < groups.size(); ++k)
    norms.col(Eigen::Index(k)) =
        g.middleCols(groups[k].offset, groups[k].size).rowwise().squaredNorm();
  return norms;
}

void modelCases() {
  QTest::addColumn<QString>("name");
  for (const char* name :
       {"logistic", "mlp", "tfp-cnn", "tfp-cnn-tanh", "lenet5", "conv same/valid stride 2"})
    QTest::newRow(name) << QString(name);
}

template <class Scalar>
void checkFastPaths(const QString& name, double tolerance) {
  const Model<Scalar> model = makeModel<Scalar>(name);
  const Batch<Scalar> batch = makeBatch(model, kBatch, 20);
  Workspace<Scalar> ws;
  model.backward(batch.x, batch.labels, ws);
  const Matrix<Scalar> g = model.perExampleGradients(ws);
  Vector<Scalar> sum;
  const std::vector<Scalar> ones(kBatch, Scalar(1));
  model.weightedGradientSum(ws, ones, sum);
  const Vector<Scalar> rowSum = g.colwise().sum().transpose();
  QVERIFY2(relativeError(rowSum, sum) < tolerance,
           qPrintable(QString("sum %1").arg(relativeError(rowSum, sum))));

  const Vector<Scalar> w = randomMatrix<Scalar>(kBatch, 1, 21);
  const Vector<Scalar> expected = g.transpose() * w;
  // Per-group weights (per-layer clipping): each group's slice weighted by its own column.
  const auto groups = model.parameterGroups();
  const Matrix<Scalar> groupWeights = randomMatrix<Scalar>(kBatch, Eigen::Index(groups.size()), 22);
  Vector<Scalar> groupExpected(model.parameterCount());
  for (std::size_t k = 0; k < groups.size(); ++k)
    groupExpected.segment(groups[k].offset, groups[k].size) =
        g.middleCols(groups[k].offset, groups[k].size).transpose() *
        groupWeights.col(Eigen::Index(k));
  // First the paths that recompute, then (after the norms) those that reuse kept gradients.
  model.groupWeightedGradientSum(ws, groupWeights, sum);
  QVERIFY2(relativeError(sum, groupExpected) < tolerance,
           qPrintable(QString("group %1").arg(relativeError(sum, groupExpected))));
  model.weightedGradientSum(ws, std::span<const Scalar>(w.data(), kBatch), sum);
  QVERIFY2(relativeError(sum, expected) < tolerance,
           qPrintable(QString("weighted %1").arg(relativeError(sum, expected))));
  const Matrix<Scalar> norms = model.perExampleGroupSquaredNorms(ws);
  const Matrix<Scalar> materialised = groupNorms(model, g);
  QCOMPARE(norms.cols(), Eigen::Index(model.parameterGroups().size()));
  QVERIFY2(relativeError(norms, materialised) < tolerance,
           qPrintable(QString("norms %1").arg(relativeError(norms, materialised))));
  model.weightedGradientSum(ws, std::span<const Scalar>(w.data(), kBatch), sum);
  QVERIFY2(relativeError(sum, expected) < tolerance,
           qPrintable(QString("kept %1").arg(relativeError(sum, expected))));
  model.groupWeightedGradientSum(ws, groupWeights, sum);
  QVERIFY2(relativeError(sum, groupExpected) < tolerance,
           qPrintable(QString("kept group %1").arg(relativeError(sum, groupExpected))));

  // Clipping inside backward() (Workspace::clipChunk): each chunk's hook sees that chunk's
  // norms and gives its rows of the weights, one column or one per group.
  for (const Matrix<Scalar>* weights :
       {static_cast<const Matrix<Scalar>*>(nullptr), &groupWeights}) {
    const Matrix<Scalar> chosen = weights ? *weights : Matrix<Scalar>(w);
    const Vector<Scalar>& want = weights ? groupExpected : expected;
    Workspace<Scalar> clipped;
    clipped.normsInBackward = true;
    clipped.clipColumns = chosen.cols();
    const Eigen::Index chunk = Model<Scalar>::chunkSize(kBatch);
    Matrix<Scalar> seenNorms(kBatch, materialised.cols());
    clipped.clipChunk = [&](std::size_t c, const Matrix<Scalar>& chunkNorms, Matrix<Scalar>& out) {
      const Eigen::Index b = static_cast<Eigen::Index>(c) * chunk;
      seenNorms.middleRows(b, chunkNorms.rows()) = chunkNorms;
      out = chosen.middleRows(b, chunkNorms.rows());
    };
    model.backward(batch.x, batch.labels, clipped);
    QVERIFY2(relativeError(seenNorms, materialised) < tolerance,
             qPrintable(QString("clip norms %1").arg(relativeError(seenNorms, materialised))));
    model.clippedGradientSum(clipped, sum);
    QVERIFY2(relativeError(sum, want) < tolerance,
             qPrintable(QString("clipped %1").arg(relativeError(sum, want))));
    // The layers below the first one summed over the whole batch (the first dense one) kept
    // their values for one chunk per thread only (Workspace::chunkLocalLayers): the queries
    // that read the whole batch's refuse, and the clipped sum stays right.
    const bool convFirst = name != "logistic" && name != "mlp";
    QCOMPARE(clipped.chunkLocalLayers > 0, convFirst);
    if (clipped.chunkLocalLayers > 0) {
      QVERIFY_THROWS_EXCEPTION(ModelError, model.weightedGradientSum(clipped, ones, sum));
      QVERIFY_THROWS_EXCEPTION(ModelError, model.perExampleGradients(clipped));
    } else {
      model.weightedGradientSum(clipped, ones, sum);
      QVERIFY2(relativeError(rowSum, sum) < tolerance,
               qPrintable(QString("sum after clipping %1").arg(relativeError(rowSum, sum))));
    }
    model.clippedGradientSum(clipped, sum);
    QVERIFY2(relativeError(sum, want) < tolerance,
             qPrintable(QString("clipped again %1").arg(relativeError(sum, want))));
  }
  // Without a clipping backward() there are no clip weights to sum with.
  QVERIFY_THROWS_EXCEPTION(ModelError, model.clippedGradientSum(ws, sum));
}

}  // namespace

class TestNnPerExample : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void perExampleGradientsMatchBatchOfOne_data() { modelCases(); }
  void perExampleGradientsMatchBatchOfOne() {
    QFETCH(QString, name);
    const Model<double> model = makeModel<double>(name);
    const Batch<double> batch = makeBatch(model, kBatch, 10);
    Workspace<double> ws, single;
    model.backward(batch.x, batch.labels, ws);
    const Matrix<double> g = model.perExampleGradients(ws);
    QCOMPARE(g.rows(), Eigen::Index{kBatch});
    QCOMPARE(g.cols(), model.parameterCount());
    double worst = 0;
    Vector<double> reference;
    for (int i = 0; i < kBatch; ++i) {
      model.backward(batch.x.row(i), std::vector<int>{batch.labels[std::size_t(i)]}, single);
      model.weightedGradientSum(single, std::vector<double>{1.0}, reference);
      QCOMPARE(single.losses[0], ws.losses[i]);
      worst = std::max(worst, relativeError(Vector<double>(g.row(i).transpose()), reference));
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString("largest relative error %1").arg(worst)));
  }

  void fastPathsMatchMaterialisedDouble_data() { modelCases(); }
  void fastPathsMatchMaterialisedDouble() {
    QFETCH(QString, name);
    checkFastPaths<double>(name, 1e-5);
  }

  void fastPathsMatchMaterialisedFloat_data() { modelCases(); }
  void fastPathsMatchMaterialisedFloat() {
    QFETCH(QString, name);
    checkFastPaths<float>(name, 1e-3);
  }

  // The summed loss's gradient against central differences on a few parameters per group.
  void gradientMatchesFiniteDifferences_data() { modelCases(); }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QString, name);
    Model<double> model = makeModel<double>(name);
    const Batch<double> batch = makeBatch(model, 5, 30);
    Workspace<double> ws;
    model.backward(batch.x, batch.labels, ws);
    Vector<double> grad;
    model.weightedGradientSum(ws, std::vector<double>(5, 1.0), grad);
    auto loss = [&] {
      model.backward(batch.x, batch.labels, ws);
      return ws.losses.sum();
    };
    double worst = 0;
    for (const ParameterGroup& group : model.parameterGroups())
      for (Eigen::Index k = 0; k < 6; ++k) {
        const Eigen::Index j = group.offset + (k * 7919) % group.size;
        const double fd = centralDifference(model.parameters()[j], loss);
        worst = std::max(worst, std::abs(fd - grad[j]) / std::max(1.0, std::abs(grad[j])));
      }
    QVERIFY2(worst < 1e-6, qPrintable(QString("largest error %1").arg(worst)));
  }

  // 70 examples: chunks of 32; 150: chunks of 16 (Model::chunkSize).
  void resultsAreIdenticalWithOneOrTwoThreads_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("examples");
    QTest::newRow("tfp-cnn") << "tfp-cnn" << 70;
    QTest::newRow("mlp") << "mlp" << 70;
    QTest::newRow("tfp-cnn, small chunks") << "tfp-cnn" << 150;
    QTest::newRow("mlp, small chunks") << "mlp" << 150;
  }
  void resultsAreIdenticalWithOneOrTwoThreads() {
    QFETCH(QString, preset);
    QFETCH(int, examples);
    const Model<float> model =
        buildPreset<float>(preset.toStdString(), SampleShape::image(1, 28, 28), 10, 8);
    const Batch<float> batch = makeBatch(model, examples, 40);
    const Vector<float> w = randomMatrix<float>(examples, 1, 41);
    const std::span<const float> weights(w.data(), static_cast<std::size_t>(examples));
    struct Results {
      Vector<float> losses, plainSum, keptSum;
      Matrix<float> logits, perExample, norms;
    };
    auto run = [&](int threads) {
      Results r;
      tbb::task_arena(threads).execute([&] {
        Workspace<float> ws;
        model.backward(batch.x, batch.labels, ws);
        r.losses = ws.losses;
        r.logits = model.logits(batch.x);
        model.weightedGradientSum(ws, weights, r.plainSum);
        r.perExample = model.perExampleGradients(ws);
        r.norms = model.perExampleGroupSquaredNorms(ws);
        model.weightedGradientSum(ws, weights, r.keptSum);
      });
      return r;
    };
    const Results one = run(1), two = run(2);
    // Norms computed inside backward(), chunk by chunk, as training asks for them: the same
    // norms and kept gradients, to the bit.
    Results fused;
    tbb::task_arena(2).execute([&] {
      Workspace<float> ws;
      ws.normsInBackward = true;
      model.backward(batch.x, batch.labels, ws);
      fused.norms = model.perExampleGroupSquaredNorms(ws);
      model.weightedGradientSum(ws, weights, fused.keptSum);
    });
    QVERIFY(fused.norms == one.norms);
    QVERIFY(fused.keptSum == one.keptSum);
    // Clipped inside backward(), the chunks' sums added in chunk order: the same bits with one
    // thread or two, and each chunk's hook called once.
    std::vector<int> calls;
    auto clipped = [&](int threads) {
      Vector<float> sum;
      calls.assign(chunkCount(static_cast<std::size_t>(examples),
                              static_cast<std::size_t>(Model<float>::chunkSize(examples))),
                   0);
      tbb::task_arena(threads).execute([&] {
        Workspace<float> ws;
        ws.normsInBackward = true;
        ws.clipChunk = [&](std::size_t c, const Matrix<float>& norms, Matrix<float>& out) {
          ++calls[c];
          out = norms.rowwise().sum().cwiseSqrt().cwiseInverse().cwiseMin(1.0f);
        };
        model.backward(batch.x, batch.labels, ws);
        model.clippedGradientSum(ws, sum);
      });
      return sum;
    };
    auto eachChunkOnce = [&] {
      return std::all_of(calls.begin(), calls.end(), [](int n) { return n == 1; });
    };
    const Vector<float> clippedOne = clipped(1);
    QVERIFY(eachChunkOnce());
    QVERIFY(clippedOne == clipped(2));
    QVERIFY(eachChunkOnce());
    QVERIFY(clippedOne.cwiseAbs().maxCoeff() > 0);
    QVERIFY(one.losses == two.losses);
    QVERIFY(one.logits == two.logits);
    QVERIFY(one.plainSum == two.plainSum);
    QVERIFY(one.perExample == two.perExample);
    QVERIFY(one.norms == two.norms);
    QVERIFY(one.keptSum == two.keptSum);
    QVERIFY(one.plainSum.cwiseAbs().maxCoeff() > 0);
  }
};

QTEST_APPLESS_MAIN(TestNnPerExample)
#include "test_nn_per_example.moc"

// Model and presets: exact parameter counts, shape errors that name the preset and the
// shape, seeded He/Glorot initialisation, copies, inference, the fused conv → ReLU →
// max-pool passes against the layers one by one, and argument checks.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/common/errors.h"
#include "core/nn/dense.h"
#include "core/nn/layer.h"
#include "core/nn/model.h"
#include "core/nn/relu.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

namespace {

// The ModelError message of building `preset` on `shape`, or an empty string.
QString presetError(const std::string& preset, const SampleShape& shape, int classes = 10) {
  try {
    buildPreset<float>(preset, shape, classes, 1);
  } catch (const ModelError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestNnModel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetParameterCounts_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("image");
    QTest::addColumn<qlonglong>("parameters");
    // conv1 16·64+16 = 1040, conv2 32·256+32 = 8224, dense 512·32+32 = 16416, 32·10+10 = 330.
    QTest::newRow("tfp-cnn on MNIST") << "tfp-cnn" << 1 << 28 << 28 << true << 26010LL;
    QTest::newRow("tfp-cnn-tanh on MNIST") << "tfp-cnn-tanh" << 1 << 28 << 28 << true << 26010LL;
    // CIFAR-10: conv1 16·192+16 = 3088, pools to 5×5×32: dense 800·32+32 = 25632.
    QTest::newRow("tfp-cnn on CIFAR-10") << "tfp-cnn" << 3 << 32 << 32 << true << 37274LL;
    // 156 + 2416 + 400·120+120 + 120·84+84 + 84·10+10 = 61706 (LeNet-5 on padded MNIST).
    QTest::newRow("lenet5 on 32x32") << "lenet5" << 1 << 32 << 32 << true << 61706LL;
    QTest::newRow("lenet5 on 28x28") << "lenet5" << 1 << 28 << 28 << true << 44426LL;
    QTest::newRow("mlp 784-256-10") << "mlp" << 1 << 28 << 28 << true << 203530LL;
    QTest::newRow("logistic on CIFAR-10") << "logistic" << 3 << 32 << 32 << true << 30730LL;
    QTest::newRow("logistic on 2 features") << "logistic" << 1 << 1 << 2 << false << 30LL;
  }
  void presetParameterCounts() {
    QFETCH(QString, preset);
    QFETCH(int, channels);
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(bool, image);
    QFETCH(qlonglong, parameters);
    const SampleShape shape{channels, height, width, image};
    const Model<float> model = buildPreset<float>(preset.toStdString(), shape, 10, 3);
    QCOMPARE(model.parameterCount(), parameters);
    QCOMPARE(model.outputCount(), 10);
    QCOMPARE(model.inputShape(), shape);
    Eigen::Index total = 0;
    for (const ParameterGroup& g : model.parameterGroups()) {
      QCOMPARE(g.offset, total);
      total += g.size;
    }
    QCOMPARE(total, model.parameterCount());
  }

  void tfpCnnGroups() {
    const Model<double> model =
        buildPreset<double>("tfp-cnn", SampleShape::image(1, 28, 28), 10, 1);
    const auto groups = model.parameterGroups();
    QCOMPARE(groups.size(), std::size_t{4});
    QCOMPARE(QString::fromStdString(groups[0].name), QString("conv1"));
    QCOMPARE(groups[1].size, Eigen::Index{8224});
    QCOMPARE(QString::fromStdString(groups[2].name), QString("dense1"));
    QCOMPARE(groups[3].size, Eigen::Index{330});
    QVERIFY(QString::fromStdString(model.summary())
                .contains("conv 16@8×8 stride 2 same: 1×28×28 → 16×14×14"));
    // 2·(MACs of forward + parameter gradients + input gradients after the first layer).
    const double conv1 = 196.0 * 16 * 64, conv2 = 25.0 * 32 * 256, dense = 512.0 * 32 + 32 * 10;
    QCOMPARE(model.flopsPerExample(), 2 * (2 * conv1 + 3 * conv2 + 3 * dense));
  }

  void presetsRefuseShapesTheyCannotTake() {
    QString error = presetError("tfp-cnn", SampleShape::features(2));
    QVERIFY2(error.contains("tfp-cnn") && error.contains("2 features"), qPrintable(error));
    error = presetError("tfp-cnn", SampleShape::image(1, 8, 8));
    QVERIFY2(error.contains("tfp-cnn") && error.contains("1×8×8"), qPrintable(error));
    QVERIFY(
        presetError("tfp-cnn", SampleShape::image(1, 13, 13)).isEmpty());  // the smallest it takes
    QVERIFY(!presetError("tfp-cnn", SampleShape::image(1, 12, 13)).isEmpty());
    error = presetError("lenet5", SampleShape::image(1, 15, 15));
    QVERIFY2(error.contains("lenet5") && error.contains("1×15×15"), qPrintable(error));
    QVERIFY(presetError("lenet5", SampleShape::image(1, 16, 16)).isEmpty());
    QVERIFY(!presetError("lenet5", SampleShape::features(784)).isEmpty());
    QVERIFY(presetError("no-such-net", SampleShape::features(4)).contains("no-such-net"));
    QVERIFY(presetError("mlp", SampleShape::features(4), 1).contains("2 classes"));
    // mlp and logistic take any shape.
    for (const std::string p : {"mlp", "logistic"}) {
      QVERIFY(presetError(p, SampleShape::features(2)).isEmpty());
      QVERIFY(presetError(p, SampleShape::image(3, 1, 1)).isEmpty());
      QVERIFY(presetError(p, SampleShape::image(1, 8, 8)).isEmpty());
    }
    PresetOptions bad;
    bad.hiddenWidths = {16, 0};
    QVERIFY_THROWS_EXCEPTION(ModelError,
                             buildPreset<float>("mlp", SampleShape::features(3), 2, 1, bad));
  }

  void initialisationIsSeededHeAndGlorot() {
    const SampleShape shape = SampleShape::image(1, 28, 28);
    const Model<double> a = buildPreset<double>("tfp-cnn", shape, 10, 42);
    const Model<double> b = buildPreset<double>("tfp-cnn", shape, 10, 42);
    const Model<double> c = buildPreset<double>("tfp-cnn", shape, 10, 43);
    QVERIFY(a.parameters() == b.parameters());
    QVERIFY((a.parameters() - c.parameters()).cwiseAbs().maxCoeff() > 0.1);
    const auto groups = a.parameterGroups();
    // conv2 (followed by ReLU): He, N(0, 2/256) over 8192 weights; biases are 0.
    const Vector<double> conv2 = a.parameters().segment(groups[1].offset, 8192);
    const double sd = std::sqrt(conv2.squaredNorm() / 8192.0 - std::pow(conv2.mean(), 2));
    QVERIFY2(std::abs(sd / std::sqrt(2.0 / 256) - 1) < 0.05, qPrintable(QString::number(sd)));
    QCOMPARE(a.parameters().segment(groups[1].offset + 8192, 32).cwiseAbs().maxCoeff(), 0.0);
    // The last dense layer (no ReLU after it): Glorot, U(±√(6/42)), variance limit²/3.
    const double limit = std::sqrt(6.0 / (32 + 10));
    const Vector<double> last = a.parameters().segment(groups[3].offset, 320);
    QVERIFY(last.cwiseAbs().maxCoeff() <= limit);
    QVERIFY(last.cwiseAbs().maxCoeff() > 0.9 * limit);
    QVERIFY(std::abs(last.squaredNorm() / 320 / (limit * limit / 3) - 1) < 0.2);
    // float and double draw the same numbers.
    const Model<float> f = buildPreset<float>("tfp-cnn", shape, 10, 42);
    QVERIFY((f.parameters().cast<double>() - a.parameters()).cwiseAbs().maxCoeff() < 1e-6);
  }

  void copiesAreIndependent() {
    Model<double> a = buildPreset<double>("lenet5", SampleShape::image(1, 16, 16), 3, 5);
    Model<double> b = a;
    const Matrix<double> x = randomMatrix<double>(4, 256, 7);
    QVERIFY(a.logits(x) == b.logits(x));
    b.parameters().setZero();
    QVERIFY(a.parameters().cwiseAbs().maxCoeff() > 0);
    QCOMPARE(b.logits(x).cwiseAbs().maxCoeff(), 0.0);
    Model<double> moved = std::move(b);
    QCOMPARE(moved.parameterCount(), a.parameterCount());
    a = moved;
    QCOMPARE(a.parameters().cwiseAbs().maxCoeff(), 0.0);
  }

  void logitsMatchBackward() {
    const Model<float> model =
        buildPreset<float>("tfp-cnn-tanh", SampleShape::image(2, 14, 14), 4, 9);
    const Matrix<float> x = randomMatrix<float>(37, 2 * 14 * 14, 8);
    const std::vector<int> labels = randomLabels(37, 4, 8);
    Workspace<float> ws;
    model.backward(x, labels, ws);
    QVERIFY(model.logits(x) == ws.logits);  // same chunks, same arithmetic
    QCOMPARE(ws.batchSize(), Eigen::Index{37});
    QVERIFY(ws.losses.minCoeff() > 0);

    // An mlp's first dense layer is one product over the whole batch in backward(), by blocks
    // of weight rows, and chunk by chunk in logits(): the same dot products, which the matrix
    // kernels may round differently for different block shapes, never more than that.
    const Model<float> mlp = buildPreset<float>("mlp", SampleShape::image(2, 14, 14), 4, 9);
    mlp.backward(x, labels, ws);
    const Matrix<float> chunked = mlp.logits(x);
    QVERIFY((chunked - ws.logits).cwiseAbs().maxCoeff() <=
            1e-5f * std::max(1.0f, chunked.cwiseAbs().maxCoeff()));
    QVERIFY(chunked != Matrix<float>::Zero(37, 4));

    // A dense first layer with fewer than 256 inputs (a 2-D teaching set's, or these 200)
    // keeps the chunked pass, so its outputs are logits()'s to the last bit; the batch-wide
    // pass would round these 200-term sums differently.
    const Model<float> narrow = buildPreset<float>("mlp", SampleShape::features(200), 3, 9);
    const Matrix<float> points = randomMatrix<float>(37, 200, 10);
    narrow.backward(points, randomLabels(37, 3, 10), ws);
    QVERIFY(narrow.logits(points) == ws.logits);
  }

  // Model::backward() runs conv → ReLU → max-pool as one block (core/nn/conv_relu_pool.h);
  // the layers' own passes, chunk by chunk as the model splits the batch, must give the
  // same bits: every activation a later layer reads and every layer's output gradient
  // that a parameter gradient or an input gradient reads.
  void fusedBlocksMatchLayerByLayer_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("side");
    QTest::newRow("tfp-cnn: same padding, stride 2, pool 2/1") << "tfp-cnn" << 2 << 14;
    QTest::newRow("lenet5: valid, pool 2/2 dropping a column") << "lenet5" << 1 << 21;
  }
  void fusedBlocksMatchLayerByLayer() {
    QFETCH(QString, preset);
    QFETCH(int, channels);
    QFETCH(int, side);
    const SampleShape shape = SampleShape::image(channels, side, side);
    const Model<float> model = buildPreset<float>(preset.toStdString(), shape, 5, 3);
    const int layers = model.layerCount();
    const Eigen::Index batch = 37;  // a full chunk of 32 and a partial one
    const Matrix<float> x = randomMatrix<float>(batch, shape.featureCount(), 21);
    const std::vector<int> labels = randomLabels(batch, 5, 21);
    // The inputs inside a block: of its relu (conv at l - 1, relu at l, maxpool at l + 1)
    // and of its maxpool (conv at l - 2, relu at l - 1, maxpool at l).
    auto isBlock = [&](int conv) {
      return conv >= 0 && conv + 2 < layers && model.layer(conv).kind() == "conv" &&
             model.layer(conv + 1).kind() == "relu" && model.layer(conv + 2).kind() == "maxpool";
    };
    auto blockInner = [&](int l) { return isBlock(l - 1) || isBlock(l - 2); };
    Workspace<float> ws;
    model.backward(x, labels, ws);
    int blocks = 0;
    for (int l = 0; l < layers; ++l)
      if (blockInner(l)) {
        ++blocks;  // the fused path leaves these alone: poison them to see that it ran
        ws.activations[std::size_t(l)].setConstant(std::numeric_limits<float>::quiet_NaN());
      }
    QCOMPARE(blocks, 4);
    model.backward(x, labels, ws);
    QVERIFY(model.logits(x) == ws.logits);  // inference fuses the blocks too
    std::vector<const float*> params;
    for (int l = 0, offset = 0; l < layers; offset += int(model.layer(l).parameterCount()), ++l)
      params.push_back(model.parameters().data() + offset);
    const Eigen::Index chunk = Model<float>::chunkSize(batch);
    for (Eigen::Index b = 0; b < batch; b += chunk) {
      const Eigen::Index n = std::min(chunk, batch - b);
      ChunkScratch<float> scratch;
      std::vector<Matrix<float>> act{x.middleRows(b, n)};
      std::vector<Matrix<float>> grad(static_cast<std::size_t>(layers));
      for (int l = 0; l < layers; ++l) {
        const auto u = std::size_t(l);
        act.emplace_back(n, l + 1 < layers ? ws.activations[u + 1].cols() : 5);
        model.layer(l).forward(params[u], rowBlock(std::as_const(act[u]), 0, n),
                               rowBlock(act.back(), 0, n), scratch);
      }
      QVERIFY(act.back() == ws.logits.middleRows(b, n));
      grad.back() = ws.outputGrads.back().middleRows(b, n);
      for (int l = layers - 1; l > 0; --l) {
        const auto u = std::size_t(l);
        grad[u - 1].resize(n, act[u].cols());
        model.layer(l).backward(params[u], rowBlock(std::as_const(act[u]), 0, n),
                                rowBlock(std::as_const(act[u + 1]), 0, n),
                                rowBlock(std::as_const(grad[u]), 0, n), rowBlock(grad[u - 1], 0, n),
                                scratch);
      }
      for (int l = 0; l < layers; ++l) {
        const auto u = std::size_t(l);
        const std::string kind = model.layer(l).kind();
        if (blockInner(l))
          QVERIFY(ws.activations[u].middleRows(b, n).array().isNaN().all());
        else
          QVERIFY2(act[u] == ws.activations[u].middleRows(b, n), kind.c_str());
        if (!isBlock(l - 1))  // nor is the output gradient of a block's ReLU written
          QVERIFY2(grad[u] == ws.outputGrads[u].middleRows(b, n), kind.c_str());
      }
    }
  }

  void handBuiltModelAndReshape() {
    Model<double> model;
    model.setInputShape(SampleShape::features(3));
    model.add(std::make_unique<Dense<double>>(4));
    model.add(std::make_unique<Relu<double>>());
    model.add(std::make_unique<Dense<double>>(2));
    QCOMPARE(model.parameterCount(), Eigen::Index{3 * 4 + 4 + 4 * 2 + 2});
    QCOMPARE(model.layerCount(), 3);
    QCOMPARE(QString::fromStdString(model.layer(1).kind()), QString("relu"));
    model.initialise(1);
    model.setInputShape(SampleShape::features(5));  // parameter count changes: zeroed
    QCOMPARE(model.parameterCount(), Eigen::Index{5 * 4 + 4 + 4 * 2 + 2});
    QCOMPARE(model.parameters().cwiseAbs().maxCoeff(), 0.0);
    QVERIFY_THROWS_EXCEPTION(ModelError, model.add(nullptr));
    QVERIFY_THROWS_EXCEPTION(ModelError, model.layer(3));
  }

  void argumentsAreChecked() {
    const Model<double> model = buildPreset<double>("mlp", SampleShape::features(3), 2, 1);
    Workspace<double> ws;
    const Matrix<double> x = randomMatrix<double>(2, 3, 1);
    QVERIFY_THROWS_EXCEPTION(
        ModelError, model.backward(randomMatrix<double>(2, 4, 1), std::vector<int>{0, 1}, ws));
    QVERIFY_THROWS_EXCEPTION(ModelError, model.backward(x, std::vector<int>{0}, ws));
    QVERIFY_THROWS_EXCEPTION(ModelError, model.backward(x, std::vector<int>{0, 2}, ws));
    QVERIFY_THROWS_EXCEPTION(ModelError, model.logits(randomMatrix<double>(2, 5, 1)));
    model.backward(x, std::vector<int>{0, 1}, ws);
    Vector<double> sum;
    QVERIFY_THROWS_EXCEPTION(ModelError,
                             model.weightedGradientSum(ws, std::vector<double>{1.0}, sum));
    QVERIFY_THROWS_EXCEPTION(ModelError,
                             model.groupWeightedGradientSum(ws, Matrix<double>::Ones(2, 1), sum));
    const Model<double> other = buildPreset<double>("logistic", SampleShape::features(3), 2, 1);
    QVERIFY_THROWS_EXCEPTION(ModelError, other.perExampleGradients(ws));
    QVERIFY_THROWS_EXCEPTION(ModelError, other.perExampleGroupSquaredNorms(ws));
  }
};

QTEST_APPLESS_MAIN(TestNnModel)
#include "test_nn_model.moc"

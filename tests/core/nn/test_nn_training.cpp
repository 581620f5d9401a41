// A tiny training sanity check: plain SGD on the batch gradient (weightedGradientSum with
// weights 1/B) must drive the loss down clearly on small generated separable problems.
#include <QTest>

#include "core/nn/model.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

namespace {

struct TrainResult {
  float firstLoss = 0;
  float lastLoss = 0;
  double accuracy = 0;
};

TrainResult train(Model<float>& model, const Matrix<float>& x, const std::vector<int>& labels,
                  int steps, float learningRate) {
  const auto n = static_cast<std::size_t>(x.rows());
  const std::vector<float> weights(n, 1.0f / float(n));  // gradient of the mean loss
  Workspace<float> ws;
  Vector<float> grad;
  TrainResult r;
  for (int step = 0; step < steps; ++step) {
    model.backward(x, labels, ws);
    if (step == 0) r.firstLoss = ws.losses.mean();
    model.weightedGradientSum(ws, weights, grad);
    model.parameters() -= learningRate * grad;
  }
  model.backward(x, labels, ws);
  r.lastLoss = ws.losses.mean();
  int correct = 0;
  for (std::size_t i = 0; i < n; ++i) {
    Eigen::Index predicted;
    ws.logits.row(Eigen::Index(i)).maxCoeff(&predicted);
    correct += predicted == labels[i];
  }
  r.accuracy = double(correct) / double(n);
  return r;
}

}  // namespace

class TestNnTraining : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mlpLearnsTwoBlobs() {
    // Two Gaussian blobs 5 standard deviations apart along (1, 0.5) (Bayes error 0.6%).
    Matrix<float> x = randomMatrix<float>(128, 2, 1);
    const std::vector<int> labels = randomLabels(128, 2, 1);
    for (int i = 0; i < 128; ++i) {
      const float side = labels[std::size_t(i)] == 1 ? 2.5f : -2.5f;
      x(i, 0) += side * 0.894f;
      x(i, 1) += side * 0.447f;
    }
    PresetOptions options;
    options.hiddenWidths = {16};
    Model<float> model = buildPreset<float>("mlp", SampleShape::features(2), 2, 3, options);
    const TrainResult r = train(model, x, labels, 60, 0.5f);
    QVERIFY2(r.lastLoss < 0.3f * r.firstLoss,
             qPrintable(QString("loss %1 -> %2").arg(r.firstLoss).arg(r.lastLoss)));
    QVERIFY2(r.accuracy >= 0.95, qPrintable(QString("accuracy %1").arg(r.accuracy)));
  }

  void cnnLearnsBrightTopOrBottom() {
    // 13×13 images: class 0 has its top half brighter, class 1 its bottom half.
    const int side = 13, count = 64;
    Matrix<float> x = randomMatrix<float>(count, side * side, 2, 0.3);
    const std::vector<int> labels = randomLabels(count, 2, 2);
    for (int i = 0; i < count; ++i)
      for (int y = 0; y < side; ++y)
        if ((y < side / 2) == (labels[std::size_t(i)] == 0))
          x.row(i).segment(y * side, side).array() += 1.0f;
    Model<float> model =
        buildPreset<float>("tfp-cnn-tanh", SampleShape::image(1, side, side), 2, 4);
    const TrainResult r = train(model, x, labels, 30, 0.1f);
    QVERIFY2(r.lastLoss < 0.5f * r.firstLoss,
             qPrintable(QString("loss %1 -> %2").arg(r.firstLoss).arg(r.lastLoss)));
    QVERIFY2(r.accuracy >= 0.9, qPrintable(QString("accuracy %1").arg(r.accuracy)));
  }
};

QTEST_APPLESS_MAIN(TestNnTraining)
#include "test_nn_training.moc"

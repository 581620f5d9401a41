// Every layer's gradients against central finite differences in double: the input gradient
// of backward(), the weighted parameter gradient, the per-example gradients and their norms;
// conv and max-pool outputs against naive loops; the loss's gradient and stability.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/errors.h"
#include "core/nn/conv2d.h"
#include "core/nn/dense.h"
#include "core/nn/flatten.h"
#include "core/nn/group_norm.h"
#include "core/nn/loss.h"
#include "core/nn/maxpool2d.h"
#include "core/nn/projection.h"
#include "core/nn/relu.h"
#include "core/nn/tanh.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using namespace epsilon::nn::test;
using data::SampleShape;

namespace {

// Largest relative errors found for one layer (0 where the layer has no parameters).
struct GradientErrors {
  double input = 0;          // backward() against finite differences
  double weighted = 0;       // addWeightedGradient(w) against finite differences of Σ_e w_e f_e
  double perExampleSum = 0;  // Σ_e w_e perExampleGradients_e against the same
  double norms = 0;          // perExampleSquaredNorms against the materialised rows
};

// Objective Σ_e w_e r_e·y_e with random r (so dObjective/dy_e = w_e r_e) and random w.
GradientErrors checkLayer(Layer<double>& layer, const SampleShape& inShape, int batch,
                          std::uint32_t seed) {
  const SampleShape outShape = layer.configure(inShape);
  const Eigen::Index p = layer.parameterCount(), nin = inShape.featureCount(),
                     nout = outShape.featureCount();
  Matrix<double> params = randomMatrix<double>(1, std::max<Eigen::Index>(p, 1), seed, 0.5);
  Matrix<double> x = randomMatrix<double>(batch, nin, seed + 1);
  const Matrix<double> r = randomMatrix<double>(batch, nout, seed + 2);
  const Vector<double> w = randomMatrix<double>(batch, 1, seed + 3);
  ChunkScratch<double> scratch;
  Matrix<double> y(batch, nout);
  auto objective = [&](bool weighted) {
    layer.forward(params.data(), rowBlock(std::as_const(x), 0, batch), rowBlock(y, 0, batch),
                  scratch);
    return weighted ? (w.asDiagonal() * (y.array() * r.array()).matrix()).sum()
                    : (y.array() * r.array()).sum();
  };
  objective(false);
  Matrix<double> inGrad(batch, nin);
  layer.backward(params.data(), rowBlock(std::as_const(x), 0, batch),
                 rowBlock(std::as_const(y), 0, batch), rowBlock(r, 0, batch),
                 rowBlock(inGrad, 0, batch), scratch);
  Matrix<double> fdInput(batch, nin);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    fdInput.data()[i] = centralDifference(x.data()[i], [&] { return objective(false); });
  GradientErrors errors;
  errors.input = relativeError(inGrad, fdInput);
  if (p == 0) return errors;

  const ConstRows<double> cx = rowBlock(std::as_const(x), 0, batch);
  Vector<double> weightedGrad = Vector<double>::Zero(p), fdParams(p);
  layer.addWeightedGradient(cx, rowBlock(r, 0, batch), w.data(), weightedGrad.data(), scratch);
  for (Eigen::Index j = 0; j < p; ++j)
    fdParams[j] = centralDifference(params.data()[j], [&] { return objective(true); });
  errors.weighted = relativeError(weightedGrad, fdParams);
  if (const Eigen::Index rows = layer.gradientRowCount(); rows > 0) {
    Vector<double> byRows = Vector<double>::Constant(p, 1e9);  // every entry must be overwritten
    for (Eigen::Index row = 0; row < rows; row += 2)
      layer.weightedGradientRows(cx, rowBlock(r, 0, batch), w.data(), row, std::min(rows, row + 2),
                                 byRows.data(), scratch);
    errors.weighted = std::max(errors.weighted, relativeError(byRows, fdParams));
  }

  Matrix<double> perExample(batch, p);
  layer.perExampleGradients(cx, rowBlock(r, 0, batch), perExample.data(), p, scratch);
  errors.perExampleSum = relativeError(Vector<double>(perExample.transpose() * w), fdParams);
  Vector<double> norms(batch);
  layer.perExampleSquaredNorms(cx, rowBlock(r, 0, batch), norms.data(), scratch);
  errors.norms = relativeError(norms, Vector<double>(perExample.rowwise().squaredNorm()));
  return errors;
}

void verifyErrors(const GradientErrors& e, double tolerance) {
  QVERIFY2(e.input < tolerance, qPrintable(QString("input gradient error %1").arg(e.input)));
  QVERIFY2(e.weighted < tolerance,
           qPrintable(QString("weighted gradient error %1").arg(e.weighted)));
  QVERIFY2(e.perExampleSum < tolerance,
           qPrintable(QString("per-example error %1").arg(e.perExampleSum)));
  QVERIFY2(e.norms < 1e-12, qPrintable(QString("norm error %1").arg(e.norms)));
}

// TensorFlow's padding arithmetic, written out again independently of Conv2D.
int tfOutput(int in, int kernel, int stride, bool same) {
  return same ? (in + stride - 1) / stride : (in - kernel) / stride + 1;
}
int tfPadBefore(int in, int kernel, int stride, bool same) {
  if (!same) return 0;
  const int out = tfOutput(in, kernel, stride, same);
  return std::max((out - 1) * stride + kernel - in, 0) / 2;
}

}  // namespace

class TestNnLayers : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void denseGradients() {
    Dense<double> dense(5);
    verifyErrors(checkLayer(dense, SampleShape::features(7), 3, 10), 1e-7);
    Dense<double> onImage(4);  // an image input is read as its flat features
    verifyErrors(checkLayer(onImage, SampleShape::image(2, 3, 3), 2, 20), 1e-7);
  }

  void conv2dShapes_data() {
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<bool>("same");
    QTest::addColumn<int>("out");
    QTest::addColumn<int>("padBefore");
    QTest::newRow("tfp conv1 28 k8 s2 same") << 28 << 8 << 2 << true << 14 << 3;
    QTest::newRow("tfp conv2 13 k4 s2 valid") << 13 << 4 << 2 << false << 5 << 0;
    QTest::newRow("9 k4 s2 same, odd padding") << 9 << 4 << 2 << true << 5 << 1;
    QTest::newRow("5 k8 s1 same, kernel > input") << 5 << 8 << 1 << true << 5 << 3;
    QTest::newRow("lenet 32 k5 s1 valid") << 32 << 5 << 1 << false << 28 << 0;
    QTest::newRow("7 k1 s3 same") << 7 << 1 << 3 << true << 3 << 0;
  }
  void conv2dShapes() {
    QFETCH(int, in);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(bool, same);
    QFETCH(int, out);
    QFETCH(int, padBefore);
    Conv2D<double> conv(3, kernel, stride, same ? Padding::Same : Padding::Valid);
    const SampleShape shape = conv.configure(SampleShape::image(2, in, in + 1));
    QCOMPARE(shape, SampleShape::image(3, out, tfOutput(in + 1, kernel, stride, same)));
    QCOMPARE(conv.padTop(), padBefore);
    QCOMPARE(conv.padLeft(), tfPadBefore(in + 1, kernel, stride, same));
  }

  void conv2dRejectsSmallOrFlatInput() {
    Conv2D<double> conv(4, 5, 1, Padding::Valid);
    QVERIFY_THROWS_EXCEPTION(ModelError, conv.configure(SampleShape::image(1, 4, 9)));
    QVERIFY_THROWS_EXCEPTION(ModelError, conv.configure(SampleShape::features(100)));
    QVERIFY_THROWS_EXCEPTION(ModelError, Conv2D<double>(0, 3, 1, Padding::Same));
  }

  void conv2dMatchesNaiveLoops_data() { convCases(); }
  void conv2dMatchesNaiveLoops() {
    QFETCH(int, channels);
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(int, filters);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(bool, same);
    Conv2D<double> conv(filters, kernel, stride, same ? Padding::Same : Padding::Valid);
    const SampleShape out = conv.configure(SampleShape::image(channels, height, width));
    const int batch = 2;
    const Matrix<double> params = randomMatrix<double>(1, conv.parameterCount(), 31);
    const Matrix<double> x = randomMatrix<double>(batch, channels * height * width, 32);
    Matrix<double> y(batch, out.featureCount());
    ChunkScratch<double> scratch;
    conv.forward(params.data(), rowBlock(x, 0, batch), rowBlock(y, 0, batch), scratch);
    const int top = tfPadBefore(height, kernel, stride, same),
              left = tfPadBefore(width, kernel, stride, same);
    double worst = 0;
    for (int e = 0; e < batch; ++e)
      for (int f = 0; f < filters; ++f)
        for (int oy = 0; oy < out.height; ++oy)
          for (int ox = 0; ox < out.width; ++ox) {
            double sum = params(0, conv.weightCount() + f);
            for (int c = 0; c < channels; ++c)
              for (int ky = 0; ky < kernel; ++ky)
                for (int kx = 0; kx < kernel; ++kx) {
                  const int iy = oy * stride - top + ky, ix = ox * stride - left + kx;
                  if (iy < 0 || iy >= height || ix < 0 || ix >= width) continue;
                  sum += params(0, ((f * channels + c) * kernel + ky) * kernel + kx) *
                         x(e, (c * height + iy) * width + ix);
                }
            worst = std::max(worst, std::abs(sum - y(e, (f * out.height + oy) * out.width + ox)));
          }
    QVERIFY2(worst < 1e-12, qPrintable(QString("largest difference %1").arg(worst)));
  }

  void conv2dGradients_data() { convCases(); }
  void conv2dGradients() {
    QFETCH(int, channels);
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(int, filters);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(bool, same);
    Conv2D<double> conv(filters, kernel, stride, same ? Padding::Same : Padding::Valid);
    verifyErrors(checkLayer(conv, SampleShape::image(channels, height, width), 2, 40), 1e-7);
  }

  void maxPoolMatchesNaiveLoops() {
    MaxPool2D<double> pool(3, 2);
    const SampleShape out = pool.configure(SampleShape::image(2, 7, 8));
    QCOMPARE(out, SampleShape::image(2, 3, 3));
    const Matrix<double> x = randomMatrix<double>(1, 2 * 7 * 8, 50);
    Matrix<double> y(1, out.featureCount());
    ChunkScratch<double> scratch;
    pool.forward(nullptr, rowBlock(x, 0, 1), rowBlock(y, 0, 1), scratch);
    for (int c = 0; c < 2; ++c)
      for (int oy = 0; oy < 3; ++oy)
        for (int ox = 0; ox < 3; ++ox) {
          double best = -std::numeric_limits<double>::infinity();
          for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
              best = std::max(best, x(0, (c * 7 + oy * 2 + dy) * 8 + ox * 2 + dx));
          QCOMPARE(y(0, (c * 3 + oy) * 3 + ox), best);
        }
  }

  void maxPoolGradients() {
    MaxPool2D<double> overlapping(2, 1);  // the tfp-cnn pooling: windows share pixels
    verifyErrors(checkLayer(overlapping, SampleShape::image(2, 5, 5), 2, 60), 1e-7);
    MaxPool2D<double> strided(2, 2);  // odd width: the last column is dropped
    verifyErrors(checkLayer(strided, SampleShape::image(3, 6, 7), 2, 70), 1e-7);
    QVERIFY_THROWS_EXCEPTION(ModelError, strided.configure(SampleShape::image(1, 1, 8)));
  }

  // Ties (here: many equal inputs) send a window's gradient to its first maximum in
  // row-major order, and overlapping windows add up where they share it; float, size 2 (the
  // compiled-in window) and size 3 (any size), against a direct loop over the windows.
  void maxPoolRoutesToTheFirstMaximum_data() {
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("stride");
    QTest::newRow("2 stride 1") << 2 << 1;
    QTest::newRow("3 stride 1") << 3 << 1;
    QTest::newRow("2 stride 2") << 2 << 2;
  }
  void maxPoolRoutesToTheFirstMaximum() {
    QFETCH(int, size);
    QFETCH(int, stride);
    MaxPool2D<float> pool(size, stride);
    const int channels = 3, h = 7, w = 9;
    const SampleShape out = pool.configure(SampleShape::image(channels, h, w));
    const int oh = out.height, ow = out.width;
    Matrix<float> x(2, channels * h * w);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = float((i * 7) % 5);  // 0 to 4
    Matrix<float> g = randomMatrix<float>(2, out.featureCount(), 31);
    Matrix<float> y(2, out.featureCount());
    // backward() must write every input's gradient, also those no window routes to
    Matrix<float> dx =
        Matrix<float>::Constant(2, x.cols(), std::numeric_limits<float>::quiet_NaN());
    ChunkScratch<float> scratch;
    pool.forward(nullptr, rowBlock(std::as_const(x), 0, 2), rowBlock(y, 0, 2), scratch);
    pool.backward(nullptr, rowBlock(std::as_const(x), 0, 2), rowBlock(std::as_const(y), 0, 2),
                  rowBlock(std::as_const(g), 0, 2), rowBlock(dx, 0, 2), scratch);
    Matrix<float> expected = Matrix<float>::Zero(2, x.cols());
    for (int e = 0; e < 2; ++e)
      for (int k = 0; k < size * size; ++k)  // the order in which shared inputs add up
        for (int c = 0; c < channels; ++c)
          for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox) {
              int first = -1;
              auto at = [&](int offset) {
                return (c * h + oy * stride + offset / size) * w + ox * stride + offset % size;
              };
              for (int o = 0; o < size * size; ++o)
                if (first < 0 || x(e, at(o)) > x(e, at(first))) first = o;
              const int j = (c * oh + oy) * ow + ox;
              QCOMPARE(y(e, j), x(e, at(first)));
              if (first == k) expected(e, at(k)) += g(e, j);
            }
    QVERIFY(dx == expected);
    QVERIFY_THROWS_EXCEPTION(ModelError, MaxPool2D<float>(MaxPool2D<float>::kMaxSize + 1, 1));
  }

  void groupNormGradients() {
    GroupNorm<double> affine(3);  // 6 channels in 3 groups of 2, γ' and β random
    verifyErrors(checkLayer(affine, SampleShape::image(6, 3, 2), 3, 110), 1e-7);
    GroupNorm<double> plain(2, false);  // no parameters: the input gradient only
    verifyErrors(checkLayer(plain, SampleShape::image(4, 2, 3), 2, 120), 1e-7);
    GroupNorm<double> single(1);  // one group over a flat vector (layer norm)
    verifyErrors(checkLayer(single, SampleShape::features(5), 2, 130), 1e-7);
  }

  void elementwiseGradients() {
    Relu<double> relu;
    verifyErrors(checkLayer(relu, SampleShape::image(2, 3, 4), 3, 80), 1e-7);
    Tanh<double> tanh;
    verifyErrors(checkLayer(tanh, SampleShape::features(9), 3, 90), 1e-7);
    Flatten<double> flatten;
    QCOMPARE(flatten.configure(SampleShape::image(2, 3, 4)), SampleShape::features(24));
    verifyErrors(checkLayer(flatten, SampleShape::image(2, 3, 4), 2, 100), 1e-7);
  }

  void projectionGradients() {
    // The fixed DP-PCA projection: no parameters, input gradient outGrad·Pᵀ, on an image input.
    auto matrix = std::make_shared<const Eigen::MatrixXd>(randomMatrix<double>(12, 5, 110));
    Projection<double> projection(5, matrix);
    verifyErrors(checkLayer(projection, SampleShape::image(3, 2, 2), 3, 120), 1e-7);
    QCOMPARE(projection.parameterCount(), Eigen::Index(0));
  }

  void lossGradientMatchesFiniteDifferences() {
    Matrix<double> z = randomMatrix<double>(3, 5, 110, 2.0);
    const std::vector<int> labels{4, 0, 2};
    Matrix<double> grad(3, 5), unused(3, 5);
    Vector<double> losses(3);
    softmaxCrossEntropy<double>(rowBlock(std::as_const(z), 0, 3), labels.data(), losses.data(),
                                rowBlock(grad, 0, 3));
    for (Eigen::Index i = 0; i < z.size(); ++i) {
      const double fd = centralDifference(z.data()[i], [&] {
        softmaxCrossEntropy<double>(rowBlock(std::as_const(z), 0, 3), labels.data(), losses.data(),
                                    rowBlock(unused, 0, 3));
        return losses.sum();
      });
      QVERIFY2(std::abs(fd - grad.data()[i]) < 1e-8,
               qPrintable(QString("entry %1: %2 vs %3").arg(i).arg(fd).arg(grad.data()[i])));
    }
    // Rows of softmax − onehot sum to zero.
    QVERIFY(grad.rowwise().sum().cwiseAbs().maxCoeff() < 1e-15);
  }

  void lossIsStableForHugeLogits() {
    Matrix<float> z(2, 3);
    z << 1000.0f, 0.0f, -1000.0f, 88.0f, 89.0f, 90.0f;  // exp(89) overflows a float
    const std::vector<int> labels{1, 2};
    Matrix<float> grad(2, 3);
    Vector<float> losses(2);
    softmaxCrossEntropy<float>(rowBlock(std::as_const(z), 0, 2), labels.data(), losses.data(),
                               rowBlock(grad, 0, 2));
    QCOMPARE(losses[0], 1000.0f);
    // log(e^-2 + e^-1 + 1) = 0.40760596, up to a float's resolution at 90 (7.6e-6).
    QVERIFY(std::abs(losses[1] - 0.40760596f) < 1e-5f);
    QVERIFY(grad.allFinite());
    QCOMPARE(grad(0, 0), 1.0f);
    QCOMPARE(grad(0, 1), -1.0f);
  }

 private:
  static void convCases() {
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("filters");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<bool>("same");
    QTest::newRow("same, stride 1") << 2 << 6 << 5 << 3 << 3 << 1 << true;
    QTest::newRow("same, stride 2, asymmetric padding") << 2 << 9 << 9 << 2 << 4 << 2 << true;
    QTest::newRow("valid, stride 2, non-square input") << 3 << 9 << 8 << 2 << 3 << 2 << false;
    QTest::newRow("tfp conv1 shape, 8x8 stride 2 same") << 1 << 12 << 12 << 2 << 8 << 2 << true;
    QTest::newRow("same, kernel larger than input") << 1 << 4 << 5 << 2 << 6 << 1 << true;
    QTest::newRow("valid, stride 3") << 2 << 10 << 11 << 3 << 2 << 3 << false;
    QTest::newRow("same, stride 2, top padding 2, left 1") << 2 << 9 << 8 << 2 << 5 << 2 << true;
    QTest::newRow("large patches, one example per block") << 3 << 20 << 20 << 2 << 5 << 1 << true;
  }
};

QTEST_APPLESS_MAIN(TestNnLayers)
#include "test_nn_layers.moc"

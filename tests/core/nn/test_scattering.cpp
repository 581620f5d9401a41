// The scattering transform against an independent direct implementation (naive DFTs,
// circular convolutions and subsampling in space), its filters against the Morlet formula,
// its near-invariance to small translations, its energy against the Littlewood–Paley bounds,
// and its determinism over threads.
#include <tbb/global_control.h>

#include <QTest>
#include <cmath>
#include <complex>
#include <numbers>

#include "core/common/errors.h"
#include "core/nn/model.h"
#include "core/nn/scattering.h"
#include "tests/core/nn/nn_test_support.h"

using namespace epsilon;
using namespace epsilon::nn;
using data::SampleShape;
using Cd = std::complex<double>;
using Grid = std::vector<Cd>;  // row-major rows × cols

namespace {

constexpr double kPi = std::numbers::pi;

// Naive 2-D DFT (sign −1) or inverse DFT (sign +1, divided by rows·cols).
Grid dft(const Grid& x, int rows, int cols, int sign) {
  Grid y(x.size());
  for (int k = 0; k < rows; ++k)
    for (int l = 0; l < cols; ++l) {
      Cd sum = 0;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          sum += x[r * cols + c] *
                 std::polar(1.0, sign * 2 * kPi * (double(k * r) / rows + double(l * c) / cols));
      y[k * cols + l] = sign > 0 ? sum / double(rows * cols) : sum;
    }
  return y;
}

// Circular convolution (x ⊛ h)[n] = Σ_m x[m] h[n − m].
Grid circularConvolution(const Grid& x, const Grid& h, int rows, int cols) {
  Grid y(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      Cd sum = 0;
      for (int a = 0; a < rows; ++a)
        for (int b = 0; b < cols; ++b)
          sum += x[a * cols + b] * h[((r - a + rows) % rows) * cols + (c - b + cols) % cols];
      y[r * cols + c] = sum;
    }
  return y;
}

Grid subsample(const Grid& x, int rows, int cols, int k) {
  Grid y;
  for (int r = 0; r < rows; r += k)
    for (int c = 0; c < cols; c += k) y.push_back(x[r * cols + c]);
  return y;
}

Grid modulus(Grid x) {
  for (Cd& v : x) v = std::abs(v);
  return x;
}

// The spatial kernel of a Fourier filter restricted to the frequencies |k| < n/2^(res+1).
Grid spatialKernel(const Scattering2D::FourierFilter& f, int res) {
  const int rows = int(f.rows()) >> res, cols = int(f.cols()) >> res;
  Grid crop(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      crop[r * cols + c] =
          f(r < rows / 2 ? r : r + f.rows() - rows, c < cols / 2 ? c : c + f.cols() - cols);
  return dft(crop, rows, cols, +1);
}

// numpy 'reflect' padding.
Grid reflectPad(const float* image, int h, int w, int rows, int cols, int top, int left) {
  auto reflect = [](int i, int n) {
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
  };
  Grid x(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[r * cols + c] = image[reflect(r - top, h) * w + reflect(c - left, w)];
  return x;
}

// (U ⋆ φ) subsampled to the output grid without its one-pixel border.
void lowPassOut(const Grid& u, int res, const Scattering2D& s, std::vector<double>& out) {
  const int J = s.options().scales;
  const int rows = s.paddedHeight() >> res, cols = s.paddedWidth() >> res;
  const Grid low = subsample(circularConvolution(u, spatialKernel(s.lowPass(), res), rows, cols),
                             rows, cols, 1 << (J - res));
  const int r2 = s.paddedHeight() >> J, c2 = s.paddedWidth() >> J;
  for (int r = 1; r + 1 < r2; ++r)
    for (int c = 1; c + 1 < c2; ++c) out.push_back(low[r * c2 + c].real());
}

// The scattering coefficients computed in space, order by order (Bruna & Mallat 2013, eq. 8).
std::vector<double> directScattering(const Scattering2D& s, const float* image) {
  const int J = s.options().scales, L = s.options().angles;
  const int P = s.paddedHeight(), Q = s.paddedWidth();
  const Grid x =
      reflectPad(image, s.inputShape().height, s.inputShape().width, P, Q, s.padTop(), s.padLeft());
  std::vector<double> order0, order1, order2;
  lowPassOut(x, 0, s, order0);
  for (int j1 = 0; j1 < J; ++j1)
    for (int t1 = 0; t1 < L; ++t1) {
      const Grid u1 =
          subsample(modulus(circularConvolution(x, spatialKernel(s.wavelet(j1, t1), 0), P, Q)), P,
                    Q, 1 << j1);
      const int p1 = P >> j1, q1 = Q >> j1;
      lowPassOut(u1, j1, s, order1);
      for (int j2 = j1 + 1; j2 < J; ++j2)
        for (int t2 = 0; t2 < L; ++t2) {
          const Grid u2 = subsample(
              modulus(circularConvolution(u1, spatialKernel(s.wavelet(j2, t2), j1), p1, q1)), p1,
              q1, 1 << (j2 - j1));
          lowPassOut(u2, j2, s, order2);
        }
    }
  order0.insert(order0.end(), order1.begin(), order1.end());
  order0.insert(order0.end(), order2.begin(), order2.end());
  return order0;
}

// A smooth stroke image (two Gaussian bars) centred in a zero background, like a digit.
std::vector<float> strokeImage(int side, double shiftRow, double shiftCol) {
  std::vector<float> img(side * side);
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const double y = r - side / 2.0 - shiftRow, x = c - side / 2.0 - shiftCol;
      const double bar1 = std::exp(-(x - 0.3 * y) * (x - 0.3 * y) / 0.7 - y * y / 40.0);
      const double bar2 = std::exp(-(y + 4) * (y + 4) / 0.7 - x * x / 20.0);
      img[r * side + c] = float(bar1 + 0.7 * bar2);
    }
  return img;
}

double norm(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += double(x) * x;
  return std::sqrt(s);
}

double distance(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  return std::sqrt(s);
}

std::vector<float> features(const Scattering2D& s, const std::vector<float>& image) {
  std::vector<float> out(std::size_t(s.outputShape().featureCount()));
  s.transform(image.data(), out.data());
  return out;
}

}  // namespace

class TestScattering : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void shapeOfMnistFeatures() {
    const Scattering2D s(SampleShape::image(1, 28, 28));
    QCOMPARE(s.outputShape(), SampleShape::image(81, 7, 7));
    QCOMPARE(s.paddedHeight(), 36);
    const Scattering2D rgb(SampleShape::image(3, 32, 32), {2, 4});
    // 1 + 2·4 + 16·1 = 25 channels per colour; 32 pads to 40, 40/4 − 2 = 8.
    QCOMPARE(rgb.outputShape(), SampleShape::image(75, 8, 8));
  }

  void refusesTooSmallImagesAndFlatVectors() {
    QVERIFY_THROWS_EXCEPTION(ModelError, Scattering2D(SampleShape::image(1, 3, 28)));
    QVERIFY_THROWS_EXCEPTION(ModelError, Scattering2D(SampleShape::features(784)));
    try {
      Scattering2D(SampleShape::image(1, 3, 28));
    } catch (const ModelError& e) {
      QVERIFY2(QString(e.what()).contains("1×3×28"), e.what());
    }
  }

  // The filter bank's wavelets are the DFTs of Morlet wavelets written here from the formula
  // with explicit rotation matrices (Bruna & Mallat 2013, §3.1; Kymatio's parameters).
  void waveletsAreMorletFilters() {
    const Scattering2D s(SampleShape::image(1, 8, 8));
    const int P = s.paddedHeight(), Q = s.paddedWidth();
    double worst = 0;
    for (int j = 0; j < 2; ++j)
      for (int t = 0; t < 8; t += 3) {
        const double sigma = 0.8 * (1 << j), xi = 0.75 * kPi / (1 << j), theta = (3 - t) * kPi / 8,
                     slant = 0.5;
        const Eigen::Matrix2d R{{std::cos(theta), -std::sin(theta)},
                                {std::sin(theta), std::cos(theta)}};
        const Eigen::Matrix2d D{{1, 0}, {0, slant * slant}};
        const Eigen::Matrix2d curv = R * D * R.transpose() / (2 * sigma * sigma);
        auto gaborAt = [&](double xiValue) {
          Grid g(P * Q);
          for (int r = 0; r < P; ++r)
            for (int c = 0; c < Q; ++c)
              for (int a = -2; a <= 2; ++a)
                for (int b = -2; b <= 2; ++b) {
                  const Eigen::Vector2d u(r + a * P, c + b * Q);
                  g[r * Q + c] +=
                      std::exp(Cd(-u.dot(curv * u),
                                  xiValue * (u.x() * std::cos(theta) + u.y() * std::sin(theta)))) /
                      (2 * kPi * sigma * sigma / slant);
                }
          return g;
        };
        Grid psi = gaborAt(xi);
        const Grid envelope = gaborAt(0);
        Cd sw = 0, se = 0;
        for (int i = 0; i < P * Q; ++i) sw += psi[i], se += envelope[i];
        for (int i = 0; i < P * Q; ++i) psi[i] -= sw / se * envelope[i];
        const Grid hat = dft(psi, P, Q, -1);
        const auto& f = s.wavelet(j, t);
        for (int i = 0; i < P * Q; ++i) {
          worst = std::max(worst, std::abs(hat[i].real() - f.data()[i]));
          worst = std::max(worst, std::abs(hat[i].imag()));  // conjugate-symmetric up to 1e-6
        }
        QVERIFY(std::abs(f(0, 0)) < 1e-5);  // zero mean
      }
    QVERIFY2(worst < 1e-5, qPrintable(QString("largest difference %1").arg(worst)));
  }

  // J = 3 has two scales of order 2 per first scale (the batches of several (j1, j2)) and
  // a non-square image has different row and column DFTs.
  void matchesDirectConvolution_data() {
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("scales");
    QTest::addColumn<int>("angles");
    QTest::newRow("12x12, J 2, L 8") << 12 << 12 << 2 << 8;
    QTest::newRow("10x20, J 2, L 6") << 10 << 20 << 2 << 6;
    QTest::newRow("16x16, J 3, L 4") << 16 << 16 << 3 << 4;
  }
  void matchesDirectConvolution() {
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(int, scales);
    QFETCH(int, angles);
    const Scattering2D s(SampleShape::image(1, height, width), {scales, angles});
    const auto img = test::randomMatrix<float>(1, height * width, 7);
    std::vector<float> image(img.data(), img.data() + height * width);
    for (float& v : image) v = std::abs(v);
    const std::vector<double> expected = directScattering(s, image.data());
    const std::vector<float> found = features(s, image);
    QCOMPARE(found.size(), expected.size());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
      worst = std::max(worst, std::abs(found[i] - expected[i]));
      scale = std::max(scale, std::abs(expected[i]));
    }
    QVERIFY(scale > 0.1);
    QVERIFY2(worst / scale < 2e-5, qPrintable(QString("relative error %1").arg(worst / scale)));
  }

  // Scattering is Lipschitz-continuous to translations (Mallat 2012, Thm 2.10:
  // ‖Sx − Sτx‖ ≤ C·2^−J·|τ|·‖x‖): at J = 2 its invariance scale is 2^J = 4 px, so shifts
  // up to about a pixel are small. A thin stroke (like a digit's) shifted by ≤ 1.5 px loses
  // most of its pixel overlap, while its features move by well under half as much; and for
  // every shift the change stays within 0.4·|τ| (measured 0.30–0.33 per pixel of shift).
  void smallTranslationsChangeFeaturesLittle_data() {
    QTest::addColumn<double>("dy");
    QTest::addColumn<double>("dx");
    QTest::newRow("half px right") << 0.0 << 0.5;
    QTest::newRow("1 px right") << 0.0 << 1.0;
    QTest::newRow("1 px down") << 1.0 << 0.0;
    QTest::newRow("1.4 px diagonal") << 1.0 << 1.0;
    QTest::newRow("3 px right") << 0.0 << 3.0;
  }
  void smallTranslationsChangeFeaturesLittle() {
    QFETCH(double, dy);
    QFETCH(double, dx);
    const Scattering2D s(SampleShape::image(1, 28, 28));
    const auto a = strokeImage(28, 0, 0), b = strokeImage(28, dy, dx);
    const double shift = std::hypot(dx, dy);
    const double pixelChange = distance(a, b) / norm(a);
    const auto fa = features(s, a), fb = features(s, b);
    const double featureChange = distance(fa, fb) / norm(fa);
    const QString figures = QString("features %1, pixels %2").arg(featureChange).arg(pixelChange);
    QVERIFY2(featureChange <= 0.4 * shift, qPrintable(figures));
    if (shift <= 1.5) QVERIFY2(featureChange < 0.5 * pixelChange, qPrintable(figures));
    QVERIFY2(featureChange > 0.05 * shift, qPrintable(figures));  // not a constant map
  }

  // Littlewood–Paley (Mallat 2012, Prop. 2.1): with A(ω) = |φ̂(ω)|² + ½Σ_λ(|ψ̂_λ(ω)|² +
  // |ψ̂_λ(−ω)|²), a = min A over ω ≠ 0 and b = max A, one wavelet-modulus layer of a real x
  // satisfies a‖x − x̄‖² ≤ ‖x⋆φ‖² + Σ_λ‖|x⋆ψ_λ|‖² ≤ b‖x‖² (Parseval; the ½ because the angles
  // cover [0, π) and |x̂(ω)| = |x̂(−ω)|). Iterating it over two layers, with |φ̂| ≤ 1, the
  // order ≤ 2 coefficients hold at most b·max(1, b)²·‖x‖²; subsampling and unpadding only
  // drop samples, so the output's energy obeys the same bound.
  void energyWithinLittlewoodPaleyBounds() {
    const Scattering2D s(SampleShape::image(1, 28, 28));
    const int P = s.paddedHeight(), Q = s.paddedWidth();
    double a = 1e300, b = 0;
    for (int r = 0; r < P; ++r)
      for (int c = 0; c < Q; ++c) {
        double A = std::pow(s.lowPass()(r, c), 2);
        const int rm = (P - r) % P, cm = (Q - c) % Q;
        for (int j = 0; j < 2; ++j)
          for (int t = 0; t < 8; ++t)
            A += 0.5 * (std::pow(s.wavelet(j, t)(r, c), 2) + std::pow(s.wavelet(j, t)(rm, cm), 2));
        if (r != 0 || c != 0) a = std::min(a, A);
        b = std::max(b, A);
      }
    // Measured a ≈ 0.123, b = 1 (at ω = 0, where φ̂(0) = 1): a frame, stable and invertible.
    QVERIFY2(a > 0.1 && b <= 1.0 + 1e-6, qPrintable(QString("a %1, b %2").arg(a).arg(b)));
    QCOMPARE(s.lowPass()(0, 0), 1.0f);

    const Grid phi = spatialKernel(s.lowPass(), 0);
    std::vector<Grid> psi;
    for (int j = 0; j < 2; ++j)
      for (int t = 0; t < 8; ++t) psi.push_back(spatialKernel(s.wavelet(j, t), 0));
    for (std::uint32_t seed : {3u, 4u}) {
      const auto m = test::randomMatrix<float>(1, 784, seed);
      std::vector<float> image(m.data(), m.data() + 784);
      const Grid x = reflectPad(image.data(), 28, 28, P, Q, s.padTop(), s.padLeft());
      double energy = 0, mean = 0;
      for (const Cd& v : x) energy += std::norm(v), mean += v.real() / (P * Q);
      double layer = 0;  // first layer, by direct convolution
      for (const Cd& v : circularConvolution(x, phi, P, Q)) layer += std::norm(v);
      for (const Grid& k : psi)
        for (const Cd& v : circularConvolution(x, k, P, Q)) layer += std::norm(v);
      const double centred = energy - P * Q * mean * mean;
      QVERIFY2(
          layer <= b * energy * (1 + 1e-6) && layer >= a * centred * (1 - 1e-6),
          qPrintable(QString("%1 not in [%2, %3]").arg(layer).arg(a * centred).arg(b * energy)));
      double out = 0;
      for (float v : features(s, image)) out += double(v) * v;
      QVERIFY2(out <= b * std::max(1.0, b * b) * energy * (1 + 1e-5),
               qPrintable(QString("%1 vs %2").arg(out).arg(energy)));
    }
  }

  // The presets take the image's shape and train on its features.
  void scatterPresetsTakeImageShapes() {
    const auto linear = buildPreset<float>("scatter-linear", SampleShape::image(1, 28, 28), 10, 1);
    QCOMPARE(linear.inputShape(), SampleShape::image(81, 7, 7));
    QCOMPARE(linear.parameterCount(), Eigen::Index{3969 * 10 + 10});  // GroupNorm: no affine
    // conv 81·9·16+16, GroupNorm 2·16, conv 16·9·32+32, GroupNorm 2·32, dense 32·3·3·10+10.
    const auto cnn = buildPreset<float>("scatter-cnn", SampleShape::image(1, 28, 28), 10, 1);
    QCOMPARE(cnn.parameterCount(), Eigen::Index{11680 + 32 + 4640 + 64 + 2890});
    QVERIFY(usesScatteringFeatures("scatter-cnn") && !usesScatteringFeatures("tfp-cnn"));
    QVERIFY_THROWS_EXCEPTION(
        ModelError, buildPreset<float>("scatter-linear", SampleShape::features(784), 10, 1));
  }

  void sameResultWithOneOrTwoThreads() {
    const data::FeatureMatrix images = test::randomMatrix<float>(150, 784, 11).cwiseAbs();
    const Scattering2D s(SampleShape::image(1, 28, 28));
    long long lastDone = 0;
    data::FeatureMatrix one, two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = s.transformAll(images, [&](long long done, long long total) {
        QCOMPARE(total, 150LL);
        lastDone = std::max(lastDone, done);
      });
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = s.transformAll(images);
    }
    QCOMPARE(lastDone, 150LL);
    QVERIFY(one == two);
    std::vector<float> single(std::size_t(one.cols()));
    s.transform(images.row(149).data(), single.data());
    for (std::size_t i = 0; i < single.size(); ++i) QCOMPARE(single[i], one(149, Eigen::Index(i)));
  }
};

QTEST_APPLESS_MAIN(TestScattering)
#include "test_scattering.moc"

// DP-PCA (Abadi et al. 2016, §5): the noise matrix's symmetry and scale, the sample's rate and
// independence of the data, σ_pca = 0 against plain PCA of the sample, determinism, and
// errors that name the field.
#include <Eigen/SVD>
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/privacy/dp_pca.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

// n rows in d dimensions with a dominant low-rank structure plus small noise, fixed seed.
data::FeatureMatrix lowRankData(Eigen::Index n, Eigen::Index d, std::uint64_t seed) {
  const PhiloxStream stream(seed, RandomPurpose::Test);
  data::FeatureMatrix x(n, d);
  std::uint64_t k = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double a = stream.normal(k++) * 3.0;
    const double b = stream.normal(k++) * 1.5;
    for (Eigen::Index j = 0; j < d; ++j) {
      const double basisA = std::sin(0.3 * static_cast<double>(j + 1));
      const double basisB = std::cos(0.7 * static_cast<double>(j + 1));
      x(i, j) = static_cast<float>(a * basisA + b * basisB + 0.05 * stream.normal(k++));
    }
  }
  return x;
}

}  // namespace

class TestPrivacyDpPca : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void noiseIsSymmetric() {
    const Eigen::MatrixXd noise = symmetricGaussianNoise(30, 2.0, 7);
    QCOMPARE((noise - noise.transpose()).cwiseAbs().maxCoeff(), 0.0);
    const Eigen::MatrixXd noisy = noisyCovariance(lowRankData(200, 30, 1), {5, 3.0, 0.5, 9});
    QCOMPARE((noisy - noisy.transpose()).cwiseAbs().maxCoeff(), 0.0);
  }

  // The d(d+1)/2 independent entries have mean 0 and standard deviation σ: 1,830 draws at
  // d = 60, so the sample std lies within 7% of σ (over 4 standard errors) and |mean| below
  // 4σ/√n, with the seed fixed.
  void noiseHasTheStatedScale() {
    const double sigma = 7.0;
    const Eigen::Index d = 60;
    const Eigen::MatrixXd noise = symmetricGaussianNoise(d, sigma, 123);
    double sum = 0.0, squares = 0.0;
    long long count = 0;
    for (Eigen::Index i = 0; i < d; ++i)
      for (Eigen::Index j = i; j < d; ++j) {
        sum += noise(i, j);
        squares += noise(i, j) * noise(i, j);
        ++count;
      }
    const double mean = sum / static_cast<double>(count);
    const double stddev = std::sqrt(squares / static_cast<double>(count) - mean * mean);
    QVERIFY2(std::abs(stddev / sigma - 1.0) < 0.07, qPrintable(QString::number(stddev)));
    QVERIFY2(std::abs(mean) < 4.0 * sigma / std::sqrt(static_cast<double>(count)),
             qPrintable(QString::number(mean)));
    // Diagonal and off-diagonal entries are drawn alike (no factor 2 on the diagonal).
    QVERIFY(std::abs(noise.diagonal().norm() / std::sqrt(static_cast<double>(d)) / sigma - 1.0) <
            0.3);
  }

  // The noisy matrix minus the exact AᵀA of the same sample is the noise: the mechanism
  // adds exactly σ-scaled draws, nothing else.
  void noisyMatrixIsCovariancePlusNoise() {
    const data::FeatureMatrix x = lowRankData(300, 20, 2);
    const DpPcaOptions options{4, 3.0, 0.2, 11};
    const auto rows = pcaSampleRows(x.rows(), options.sampleFraction, options.seed);
    const Eigen::MatrixXd difference = noisyCovariance(x, options) - unitRowCovariance(x, rows);
    QVERIFY((difference - symmetricGaussianNoise(20, 3.0, 11)).cwiseAbs().maxCoeff() < 1e-9);
    // Unit rows: the trace of AᵀA is the number of (non-zero) sampled rows.
    QVERIFY(std::abs(unitRowCovariance(x, rows).trace() - static_cast<double>(rows.size())) < 1e-9);
  }

  void sampleHasTheRequestedRate() {
    const auto rows = pcaSampleRows(20000, 0.1, 5);
    // Binomial(20000, 0.1): mean 2000, std 42.4; 5 standard deviations.
    QVERIFY2(std::abs(static_cast<double>(rows.size()) - 2000.0) < 5 * 42.4,
             qPrintable(QString::number(rows.size())));
    // A row's membership depends only on its index and the seed, not on the data set size:
    // adding rows to the end changes the sample by at most those rows.
    const auto fewer = pcaSampleRows(15000, 0.1, 5);
    QVERIFY(std::equal(fewer.begin(), fewer.end(), rows.begin()));
    QCOMPARE(pcaSampleRows(100, 1.0, 5).size(), std::size_t{100});
  }

  // σ_pca = 0: the projection spans the top-k right singular vectors of the sample's
  // unit-norm rows (plain PCA of AᵀA, computed independently with an SVD of A).
  void zeroNoiseEqualsPlainPcaOfTheSample() {
    const data::FeatureMatrix x = lowRankData(400, 25, 3);
    const DpPcaOptions options{3, 0.0, 0.5, 21};
    const DpPcaResult result = dpPca(x, options);
    const auto rows = pcaSampleRows(x.rows(), options.sampleFraction, options.seed);
    QCOMPARE(result.sampleSize, static_cast<long long>(rows.size()));
    Eigen::MatrixXd a(static_cast<Eigen::Index>(rows.size()), x.cols());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const Eigen::RowVectorXd v = x.row(rows[r]).cast<double>();
      a.row(static_cast<Eigen::Index>(r)) = v / v.norm();
    }
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinV);
    for (int j = 0; j < 3; ++j) {
      const double alignment = std::abs(result.projection.col(j).dot(svd.matrixV().col(j)));
      QVERIFY2(alignment > 1.0 - 1e-9,
               qPrintable(QString("direction %1: |cos| %2").arg(j).arg(alignment)));
      const double sv = svd.singularValues()(j);
      QVERIFY(std::abs(result.eigenvalues(j) - sv * sv) < 1e-8 * sv * sv);
    }
    // Orthonormal columns, eigenvalues decreasing, each sign fixed (largest entry positive).
    QVERIFY((result.projection.transpose() * result.projection - Eigen::MatrixXd::Identity(3, 3))
                .norm() < 1e-10);
    QVERIFY(result.eigenvalues(0) >= result.eigenvalues(1) &&
            result.eigenvalues(1) >= result.eigenvalues(2));
    for (int j = 0; j < 3; ++j) {
      Eigen::Index largest = 0;
      result.projection.col(j).cwiseAbs().maxCoeff(&largest);
      QVERIFY(result.projection(largest, j) > 0.0);
    }
  }

  // Noise moves the directions, and more noise moves them further from the plain ones.
  void noiseDegradesTheSubspace() {
    const data::FeatureMatrix x = lowRankData(2000, 30, 4);
    const auto subspaceError = [&](double sigma) {
      const Eigen::MatrixXd plain = dpPca(x, {2, 0.0, 0.1, 8}).projection;
      const Eigen::MatrixXd noisy = dpPca(x, {2, sigma, 0.1, 8}).projection;
      return (plain * plain.transpose() - noisy * noisy.transpose()).norm();
    };
    const double small = subspaceError(0.5);
    const double large = subspaceError(50.0);
    QVERIFY2(small > 0.0 && small < large, qPrintable(QString("%1 vs %2").arg(small).arg(large)));
  }

  void deterministicForASeed() {
    const data::FeatureMatrix x = lowRankData(300, 20, 5);
    const DpPcaResult a = dpPca(x, {5, 4.0, 0.3, 77});
    const DpPcaResult b = dpPca(x, {5, 4.0, 0.3, 77});
    const DpPcaResult c = dpPca(x, {5, 4.0, 0.3, 78});
    QCOMPARE((a.projection - b.projection).cwiseAbs().maxCoeff(), 0.0);
    QCOMPARE(a.sampleSize, b.sampleSize);
    QVERIFY((a.projection - c.projection).cwiseAbs().maxCoeff() > 1e-6);
  }

  void badOptionsNameTheField_data() {
    QTest::addColumn<int>("dims");
    QTest::addColumn<double>("noise");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QString>("field");
    QTest::newRow("dims 0") << 0 << 1.0 << 0.1 << "model.pca_dims";
    QTest::newRow("dims > d") << 21 << 1.0 << 0.1 << "model.pca_dims";
    QTest::newRow("noise < 0") << 5 << -1.0 << 0.1 << "model.pca_noise";
    QTest::newRow("noise NaN") << 5 << std::nan("") << 0.1 << "model.pca_noise";
    QTest::newRow("fraction 0") << 5 << 1.0 << 0.0 << "model.pca_sample";
    QTest::newRow("fraction > 1") << 5 << 1.0 << 1.5 << "model.pca_sample";
  }
  void badOptionsNameTheField() {
    QFETCH(int, dims);
    QFETCH(double, noise);
    QFETCH(double, fraction);
    QFETCH(QString, field);
    try {
      dpPca(lowRankData(10, 20, 6), {dims, noise, fraction, 1});
      QFAIL("expected a ConfigError");
    } catch (const ConfigError& e) {
      QVERIFY2(QString(e.what()).startsWith(field), e.what());
    }
  }

  void eventAndLabel() {
    QVERIFY(dpPcaEvent(7.0) == gaussianEvent(7.0));
    QVERIFY(dpPcaEvent(0.0).as<NonPrivateEvent>() != nullptr);
    QVERIFY(QString::fromStdString(dpPcaLabel(7.0, 0.1)).startsWith("PCA: σ 7 on 10% of the data"));
    QVERIFY(QString::fromStdString(dpPcaLabel(0.0, 0.1)).contains("not private"));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyDpPca)
#include "test_privacy_dp_pca.moc"

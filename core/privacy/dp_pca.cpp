#include "core/privacy/dp_pca.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/common/text.h"

namespace epsilon::privacy {

// Why the noise matrix has sensitivity 1 (Abadi et al. 2016, §5 "PCA projection"; the
// Gaussian mechanism of Dwork & Roth 2014, Thm. A.1, in L2 norm):
// every sampled row x is scaled to ‖x‖₂ ≤ 1. Adding or removing one row changes AᵀA by
// ±x xᵀ, whose Frobenius norm (the L2 norm of the d² entries as one vector) is ‖x‖₂² ≤ 1.
// The mechanism releases the d(d+1)/2 entries on and above the diagonal, each with its own
// N(0, σ²) draw; those entries change by a sub-vector of x xᵀ, of L2 norm ≤ 1 as well. The
// full symmetric matrix, its eigenvectors and the projection are post-processing of that
// release. So one release is the Gaussian mechanism with noise multiplier σ_pca.
// The sample is drawn with an independent coin per row, so adding one row to the data set
// changes the sample by at most that row: the bound holds whether or not the row was drawn.
// We do NOT claim amplification by the f-sample: the event accounted is Gaussian(σ_pca) on
// the data, a valid (pessimistic) bound whatever f is.

void validateDpPcaOptions(const DpPcaOptions& options, Eigen::Index featureCount) {
  if (options.dims < 1 || options.dims > featureCount) {
    throw ConfigError("model.pca_dims: expected an integer in [1, " + std::to_string(featureCount) +
                      "] (the input's feature count), got " + std::to_string(options.dims));
  }
  if (!(options.noiseMultiplier >= 0.0) || !std::isfinite(options.noiseMultiplier)) {
    throw ConfigError("model.pca_noise: expected a finite noise multiplier >= 0, got " +
                      shortNumber(options.noiseMultiplier));
  }
  if (!(options.sampleFraction > 0.0 && options.sampleFraction <= 1.0)) {
    throw ConfigError("model.pca_sample: expected a fraction in (0, 1], got " +
                      shortNumber(options.sampleFraction));
  }
}

std::vector<Eigen::Index> pcaSampleRows(Eigen::Index rowCount, double fraction,
                                        std::uint64_t seed) {
  const PhiloxStream coins(seed, RandomPurpose::PcaSample);
  std::vector<Eigen::Index> rows;
  rows.reserve(static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(rowCount))) + 16);
  for (Eigen::Index i = 0; i < rowCount; ++i) {
    if (coins.uniform(static_cast<std::uint64_t>(i)) < fraction) rows.push_back(i);
  }
  return rows;
}

Eigen::MatrixXd unitRowCovariance(const data::FeatureMatrix& features,
                                  const std::vector<Eigen::Index>& rows) {
  const Eigen::Index d = features.cols();
  Eigen::MatrixXd a(static_cast<Eigen::Index>(rows.size()), d);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Eigen::RowVectorXd x = features.row(rows[r]).cast<double>();
    const double norm = x.norm();
    // Scaling to unit norm bounds each row's contribution x xᵀ (see the sensitivity note).
    a.row(static_cast<Eigen::Index>(r)) = norm > 0.0 ? Eigen::RowVectorXd(x / norm) : x;
  }
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Zero(d, d);
  covariance.selfadjointView<Eigen::Lower>().rankUpdate(a.transpose());
  return covariance.selfadjointView<Eigen::Lower>();
}

Eigen::MatrixXd symmetricGaussianNoise(Eigen::Index d, double sigma, std::uint64_t seed) {
  const PhiloxStream stream(seed, RandomPurpose::PcaNoise);
  Eigen::MatrixXd noise(d, d);
  for (Eigen::Index i = 0; i < d; ++i) {
    for (Eigen::Index j = i; j < d; ++j) {
      const double z = sigma * stream.normal(static_cast<std::uint64_t>(i * d + j));
      noise(i, j) = z;
      noise(j, i) = z;
    }
  }
  return noise;
}

Eigen::MatrixXd noisyCovariance(const data::FeatureMatrix& features, const DpPcaOptions& options,
                                long long* sampleSize) {
  validateDpPcaOptions(options, features.cols());
  const auto rows = pcaSampleRows(features.rows(), options.sampleFraction, options.seed);
  if (sampleSize) *sampleSize = static_cast<long long>(rows.size());
  Eigen::MatrixXd covariance = unitRowCovariance(features, rows);
  if (options.noiseMultiplier > 0.0) {
    covariance += symmetricGaussianNoise(features.cols(), options.noiseMultiplier, options.seed);
  }
  return covariance;
}

DpPcaResult topEigenvectors(const Eigen::MatrixXd& symmetric, int k) {
  if (symmetric.rows() != symmetric.cols() || k < 1 || k > symmetric.rows()) {
    throw ConfigError("model.pca_dims: expected 1 <= k <= " + std::to_string(symmetric.rows()) +
                      " for a square matrix, got k = " + std::to_string(k));
  }
  // Eigenvalues come in increasing order; the top k are the last k columns.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(symmetric);
  if (solver.info() != Eigen::Success) {
    throw PrivacyError("DP-PCA: the eigen-decomposition of the noisy covariance did not converge");
  }
  const Eigen::Index d = symmetric.rows();
  DpPcaResult result;
  result.projection.resize(d, k);
  result.eigenvalues.resize(k);
  for (int j = 0; j < k; ++j) {
    Eigen::VectorXd v = solver.eigenvectors().col(d - 1 - j);
    Eigen::Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v(largest) < 0.0) v = -v;
    result.projection.col(j) = v;
    result.eigenvalues(j) = solver.eigenvalues()(d - 1 - j);
  }
  return result;
}

DpPcaResult dpPca(const data::FeatureMatrix& features, const DpPcaOptions& options) {
  long long sampleSize = 0;
  const Eigen::MatrixXd covariance = noisyCovariance(features, options, &sampleSize);
  DpPcaResult result = topEigenvectors(covariance, options.dims);
  result.sampleSize = sampleSize;
  return result;
}

DpEvent dpPcaEvent(double noiseMultiplier) {
  if (!(noiseMultiplier > 0.0)) return NonPrivateEvent{};
  return gaussianEvent(noiseMultiplier);
}

std::string dpPcaLabel(double noiseMultiplier, double sampleFraction) {
  const std::string share = shortNumber(100.0 * sampleFraction) + "% of the data";
  if (!(noiseMultiplier > 0.0)) return "PCA: no noise on " + share + " (not private)";
  return "PCA: σ " + shortNumber(noiseMultiplier) + " on " + share +
         " (Gaussian, no amplification by the sample claimed)";
}

}  // namespace epsilon::privacy

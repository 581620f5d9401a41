// Differentially private PCA (Abadi et al. 2016, §5 "PCA projection"): the top-k principal
// directions of a noisy covariance of a random sample of unit-norm training rows, released
// once per run as a fixed input projection, and the privacy event that release is.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/privacy/dp_event.h"

namespace epsilon::privacy {

struct DpPcaOptions {
  int dims = 60;                 // k: principal directions kept (the paper's 60 for MNIST)
  double noiseMultiplier = 7.0;  // σ_pca: noise std on each entry of AᵀA (sensitivity 1)
  double sampleFraction = 0.1;   // f: each training row joins the sample with probability f
  std::uint64_t seed = 1;        // the run's seed: sample and noise streams are keyed by it
};

struct DpPcaResult {
  Eigen::MatrixXd projection;   // d × k: column j is the j-th top eigenvector (unit norm)
  Eigen::VectorXd eigenvalues;  // k eigenvalues of the noisy matrix, decreasing
  long long sampleSize = 0;     // rows that entered AᵀA
};

// Throws ConfigError naming "model.pca_dims" (1 ≤ k ≤ d), "model.pca_noise" (finite, ≥ 0) or
// "model.pca_sample" (in (0, 1]) with what was expected and what was found.
void validateDpPcaOptions(const DpPcaOptions& options, Eigen::Index featureCount);

// Indices of the rows in the sample: row i joins when the i-th uniform of the PcaSample
// stream is below f, independently of every other row.
std::vector<Eigen::Index> pcaSampleRows(Eigen::Index rowCount, double fraction, std::uint64_t seed);

// AᵀA for the rows `rows` of `features`, each scaled to unit L2 norm (all-zero rows stay 0).
Eigen::MatrixXd unitRowCovariance(const data::FeatureMatrix& features,
                                  const std::vector<Eigen::Index>& rows);

// A symmetric d × d matrix whose entries on and above the diagonal are independent
// N(0, σ²) draws of the PcaNoise stream, mirrored below the diagonal.
Eigen::MatrixXd symmetricGaussianNoise(Eigen::Index d, double sigma, std::uint64_t seed);

// AᵀA of the sample plus the symmetric noise: the only thing the mechanism reads the data for.
Eigen::MatrixXd noisyCovariance(const data::FeatureMatrix& features, const DpPcaOptions& options,
                                long long* sampleSize = nullptr);

// The k eigenvectors of a symmetric matrix with the largest eigenvalues (Eigen's
// SelfAdjointEigenSolver), in decreasing order, each signed so that its entry of largest
// magnitude is positive (a fixed sign makes the projection deterministic).
DpPcaResult topEigenvectors(const Eigen::MatrixXd& symmetric, int k);

// The whole mechanism: validate, sample, noisy covariance, top-k eigenvectors.
DpPcaResult dpPca(const data::FeatureMatrix& features, const DpPcaOptions& options);

// The privacy event of one release: Gaussian(σ_pca) without sampling amplification, or a
// non-private release when σ_pca = 0.
DpEvent dpPcaEvent(double noiseMultiplier);

// "PCA: σ 7 on 10% of the data (Gaussian, no amplification by the sample claimed)".
std::string dpPcaLabel(double noiseMultiplier, double sampleFraction);

}  // namespace epsilon::privacy

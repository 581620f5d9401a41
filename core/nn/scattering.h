// The 2-D scattering transform of order 2 (Mallat 2012; Bruna & Mallat 2013): a fixed,
// non-learned feature map of Morlet wavelet moduli, laid out as in Kymatio's Scattering2D.
#pragma once

#include <Eigen/Core>
#include <complex>
#include <functional>
#include <vector>

#include "core/data/dataset.h"

namespace epsilon::nn {

// The transform's implementation version, part of every feature-cache key: raise it whenever
// a change alters the computed features (even in their last bits), so that files written by
// an older implementation are recomputed rather than reused.
//   1  kissfft row/column passes, low-pass in the Fourier domain
//   2  2-D DFTs as Eigen products, separable low-pass in space, no forward DFT of U2
//   3  the DFTs of all angles (order 1) or angle pairs (order 2) as one batch of products
inline constexpr int kScatteringImplementation = 3;

struct ScatteringOptions {
  int scales = 2;  // J: the coarsest wavelet has scale 2^(J-1); outputs are subsampled by 2^J
  int angles = 8;  // L: orientations in [0, π)
};

// Called as images are done, from whichever thread finished them.
using ScatteringProgress = std::function<void(long long done, long long total)>;

// A filter bank for one padded image size and the transform it defines. Immutable once
// built, so one object serves every thread. Per input channel the output has
// 1 + J·L + L²·J(J−1)/2 channels (81 for J = 2, L = 8) of (H/2^J)×(W/2^J) pixels: order 0,
// then order 1 in (j, θ) order, then order 2 in (j1, θ1, j2, θ2) order with j2 > j1.
class Scattering2D {
 public:
  using Complex = std::complex<float>;
  using FourierFilter = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RealMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ComplexMatrix = Eigen::Matrix<Complex, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // Throws ModelError when the image is smaller than 2^J in a dimension or J, L are < 1.
  Scattering2D(const data::SampleShape& input, ScatteringOptions options = {});

  const data::SampleShape& inputShape() const { return m_input; }
  data::SampleShape outputShape() const;
  int channelsPerInputChannel() const;
  int paddedHeight() const { return m_paddedHeight; }
  int paddedWidth() const { return m_paddedWidth; }
  int padTop() const { return m_padTop; }
  int padLeft() const { return m_padLeft; }
  const ScatteringOptions& options() const { return m_options; }

  // The DFT (real: the filters are conjugate-symmetric) of the wavelet ψ_{j,θ} and of the
  // low-pass φ on the padded grid, at full resolution (index k is frequency 2πk/P).
  const FourierFilter& wavelet(int j, int theta) const;
  const FourierFilter& lowPass() const { return m_phi.front(); }

  // Features of one image (C×H×W floats) into `out` (outputShape().featureCount() floats).
  void transform(const float* image, float* out) const;
  // Every row of `images` (examples × C·H·W), in parallel over images with oneTBB; the
  // result does not depend on the number of threads.
  data::FeatureMatrix transformAll(const data::FeatureMatrix& images,
                                   const ScatteringProgress& progress = {}) const;

  // The spatial Morlet wavelet of Kymatio's filter bank (periodised on the P×Q grid):
  // a Gabor filter minus its Gaussian envelope scaled to zero mean (Bruna & Mallat 2013,
  // §3.1). Public so tests can rebuild the filters independently.
  static std::vector<std::complex<double>> morlet(int rows, int cols, double sigma, double theta,
                                                  double xi, double slant);
  static std::vector<std::complex<double>> gabor(int rows, int cols, double sigma, double theta,
                                                 double xi, double slant);

 private:
  class Worker;
  friend class Worker;

  data::SampleShape m_input;
  ScatteringOptions m_options;
  int m_paddedHeight = 0;
  int m_paddedWidth = 0;
  int m_padTop = 0;
  int m_padLeft = 0;
  // m_psi[j·L + θ][res]: ψ_{j,θ} cropped to resolution res ≤ j (Kymatio's levels);
  // m_phi[res]: φ cropped to resolution res ≤ J.
  std::vector<std::vector<FourierFilter>> m_psi;
  // m_psiTwice[j·L + θ][res]: the same with every coefficient written twice (rows × 2·cols),
  // to multiply interleaved complex spectra as floats.
  std::vector<std::vector<FourierFilter>> m_psiTwice;
  std::vector<FourierFilter> m_phi;
  // m_lowRows[res], m_lowCols[res]: the low-pass output at resolution res as A·U·Bᵀ.
  std::vector<FourierFilter> m_lowRows, m_lowCols;
  // Per resolution res: the DFT and inverse DFT matrices of the grid's rows and columns.
  std::vector<ComplexMatrix> m_dftRows, m_dftCols, m_idftRows, m_idftCols;
};

// Kymatio's parameters for wavelet (j, θ) with L angles: σ = 0.8·2^j, ξ = 3π/4·2^−j,
// angle (L/2 − 1 − θ)·π/L, slant 4/L; the low-pass is a Gaussian of σ = 0.8·2^(J−1).
struct MorletParameters {
  double sigma, xi, theta, slant;
};
MorletParameters morletParameters(int j, int theta, int angles);
// The output shape for an input shape without building the filters; throws ModelError as
// the constructor does.
data::SampleShape scatteringOutputShape(const data::SampleShape& input,
                                        ScatteringOptions options = {});
double lowPassSigma(int scales);

}  // namespace epsilon::nn

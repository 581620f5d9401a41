#include "core/nn/scattering.h"

#include <array>
#include <atomic>
#include <cmath>
#include <numbers>
#include <string>
#include <unsupported/Eigen/FFT>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/layer.h"

namespace epsilon::nn {

namespace {

using Complex = Scattering2D::Complex;
using FourierFilter = Scattering2D::FourierFilter;

// Kymatio pads an M-pixel side to ((M + 2^J) div 2^J + 1)·2^J, so the subsampled output
// keeps one extra pixel at each border, which unpadding drops.
int paddedSize(int size, int scales) {
  const int step = 1 << scales;
  return ((size + step) / step + 1) * step;
}

// numpy's 'reflect' padding (the edge pixel is not repeated).
int reflect(int i, int size) {
  if (size == 1) return 0;
  const int period = 2 * (size - 1);
  i %= period;
  if (i < 0) i += period;
  return i < size ? i : period - i;
}

// The coefficients of frequencies |k| < P/2^(res+1) in each dimension: the filter at
// resolution res (Kymatio's periodize_filter_fft keeps exactly these).
FourierFilter cropToResolution(const FourierFilter& full, int res) {
  const Eigen::Index rows = full.rows() >> res, cols = full.cols() >> res;
  FourierFilter out(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c)
      out(r, c) = full(r < rows / 2 ? r : r + full.rows() - rows,
                       c < cols / 2 ? c : c + full.cols() - cols);
  return out;
}

// One 2-D DFT as 1-D transforms of rows then columns with Eigen's FFT (kissfft).
void fft2(Eigen::FFT<float>& fft, Complex* data, int rows, int cols, bool inverse,
          std::vector<Complex>& in, std::vector<Complex>& out) {
  const auto n = static_cast<std::size_t>(std::max(rows, cols));
  if (in.size() < n) in.resize(n), out.resize(n);
  for (int r = 0; r < rows; ++r) {
    Complex* row = data + static_cast<std::ptrdiff_t>(r) * cols;
    std::copy(row, row + cols, in.data());
    inverse ? fft.inv(out.data(), in.data(), cols) : fft.fwd(out.data(), in.data(), cols);
    std::copy(out.data(), out.data() + cols, row);
  }
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < rows; ++r) in[static_cast<std::size_t>(r)] = data[r * cols + c];
    inverse ? fft.inv(out.data(), in.data(), rows) : fft.fwd(out.data(), in.data(), rows);
    for (int r = 0; r < rows; ++r) data[r * cols + c] = out[static_cast<std::size_t>(r)];
  }
}

// The filter's DFT on the grid, real part (imaginary parts vanish up to the periodisation's
// tiny asymmetry, as Kymatio's filter_bank assumes).
FourierFilter realDft(const std::vector<std::complex<double>>& spatial, int rows, int cols) {
  Eigen::FFT<float> fft;
  std::vector<Complex> data(spatial.size()), in, out;
  for (std::size_t i = 0; i < spatial.size(); ++i) data[i] = Complex(spatial[i]);
  fft2(fft, data.data(), rows, cols, false, in, out);
  FourierFilter f(rows, cols);
  for (int i = 0; i < rows * cols; ++i) f.data()[i] = data[static_cast<std::size_t>(i)].real();
  return f;
}

// One side of the low-pass output at resolution res as a matrix on the grid's rows (or
// columns): (U ⋆ φ_res)↓2^(J−res) without its one-pixel border is A·U·Bᵀ. φ is a Gaussian
// with θ = 0 and slant 1, a product of a row and a column Gaussian, so its periodised DFT
// (and every crop of it) is the outer product φ̂(k, 0)·φ̂(0, l) / φ̂(0, 0); each factor's
// inverse DFT is real and even, as φ̂ is real and symmetric. Row i of A is that kernel
// centred on output pixel i + 1: A(i, m) = φ_1[((i + 1)·2^(J−res) − m) mod n] (Oyallon et
// al. 2018 compute the same low-pass in the Fourier domain; the result is identical).
FourierFilter lowPassOperator(const FourierFilter& crop, int res, int scales, bool rows) {
  const auto n = static_cast<int>(rows ? crop.rows() : crop.cols());
  const int step = 1 << (scales - res), outputs = n / step - 2;
  std::vector<double> kernel(static_cast<std::size_t>(n), 0.0);
  for (int m = 0; m < n; ++m)
    for (int k = 0; k < n; ++k) {
      const double factor = rows ? crop(k, 0) : crop(0, k) / crop(0, 0);
      kernel[static_cast<std::size_t>(m)] +=
          factor * std::cos(2.0 * std::numbers::pi * double(k) * m / n) / n;
    }
  FourierFilter op(outputs, n);
  for (int i = 0; i < outputs; ++i)
    for (int m = 0; m < n; ++m)
      op(i, m) =
          static_cast<float>(kernel[static_cast<std::size_t>((((i + 1) * step - m) % n + n) % n)]);
  return op;
}

// The n-point DFT (sign −1) or inverse DFT (sign +1, divided by n) as a matrix. At the
// transform's sizes (n ≤ 36 for 28×28 images) a 2-D DFT as two Eigen matrix products,
// F·X·Fᵀ, took a fifth of the time of kissfft's row and column passes on the build machine.
Scattering2D::ComplexMatrix dftMatrix(int n, int sign) {
  Scattering2D::ComplexMatrix m(n, n);
  for (int k = 0; k < n; ++k)
    for (int x = 0; x < n; ++x) {
      const double angle = sign * 2.0 * std::numbers::pi * double((k * x) % n) / n;
      m(k, x) = Complex(std::polar(sign > 0 ? 1.0 / n : 1.0, angle));
    }
  return m;
}

}  // namespace

MorletParameters morletParameters(int j, int theta, int angles) {
  const double pi = std::numbers::pi;
  return {0.8 * std::ldexp(1.0, j), 0.75 * pi / std::ldexp(1.0, j),
          (angles - angles / 2 - 1 - theta) * pi / angles, 4.0 / angles};
}

data::SampleShape scatteringOutputShape(const data::SampleShape& input, ScatteringOptions options) {
  const int J = options.scales, L = options.angles;
  if (J < 1 || L < 1 || J > 8)
    throw ModelError("scattering: expected 1 <= J <= 8 and L >= 1, found J = " + std::to_string(J) +
                     ", L = " + std::to_string(L));
  if (!input.isImage || input.height < (1 << J) || input.width < (1 << J))
    throw ModelError("scattering with J = " + std::to_string(J) + " needs an image of at least " +
                     std::to_string(1 << J) + "×" + std::to_string(1 << J) + " pixels, found " +
                     shapeText(input));
  const int perChannel = 1 + J * L + L * L * J * (J - 1) / 2;
  return data::SampleShape::image(input.channels * perChannel,
                                  (paddedSize(input.height, J) >> J) - 2,
                                  (paddedSize(input.width, J) >> J) - 2);
}

double lowPassSigma(int scales) {
  return 0.8 * std::ldexp(1.0, scales - 1);
}

// Gabor filter (Bruna & Mallat 2013, eq. 3; Kymatio's gabor_2d):
// g(u) = exp(−uᵀ R D R⁻¹ u / 2σ² + i ξ (u₁ cos θ + u₂ sin θ)) / (2πσ²/s), D = diag(1, s²),
// periodised over the 5×5 neighbouring copies of the grid.
std::vector<std::complex<double>> Scattering2D::gabor(int rows, int cols, double sigma,
                                                      double theta, double xi, double slant) {
  const double c = std::cos(theta), s = std::sin(theta);
  const double k = 1.0 / (2.0 * sigma * sigma);
  const double a = k * (c * c + slant * slant * s * s);
  const double b = k * (c * s * (1.0 - slant * slant));  // half the cross term
  const double d = k * (s * s + slant * slant * c * c);
  const double norm = 2.0 * std::numbers::pi * sigma * sigma / slant;
  std::vector<std::complex<double>> g(static_cast<std::size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < cols; ++q) {
      std::complex<double> sum = 0.0;
      for (int er = -2; er <= 2; ++er)
        for (int eq = -2; eq <= 2; ++eq) {
          const double x = r + er * rows, y = q + eq * cols;
          const double arg = -(a * x * x + 2.0 * b * x * y + d * y * y);
          sum += std::exp(std::complex<double>(arg, xi * (x * c + y * s)));
        }
      g[static_cast<std::size_t>(r) * cols + q] = sum / norm;
    }
  return g;
}

// Morlet wavelet (Bruna & Mallat 2013, §3.1): ψ = g_ξ − β g_0 with β = Σg_ξ / Σg_0, so ψ
// has zero mean (ψ̂(0) = 0) and removes the local average.
std::vector<std::complex<double>> Scattering2D::morlet(int rows, int cols, double sigma,
                                                       double theta, double xi, double slant) {
  auto wave = gabor(rows, cols, sigma, theta, xi, slant);
  const auto envelope = gabor(rows, cols, sigma, theta, 0.0, slant);
  std::complex<double> waveSum = 0.0, envelopeSum = 0.0;
  for (std::size_t i = 0; i < wave.size(); ++i) waveSum += wave[i], envelopeSum += envelope[i];
  const std::complex<double> beta = waveSum / envelopeSum;
  for (std::size_t i = 0; i < wave.size(); ++i) wave[i] -= beta * envelope[i];
  return wave;
}

Scattering2D::Scattering2D(const data::SampleShape& input, ScatteringOptions options)
    : m_input(input), m_options(options) {
  const int J = options.scales, L = options.angles;
  scatteringOutputShape(input, options);  // validates
  m_paddedHeight = paddedSize(input.height, J);
  m_paddedWidth = paddedSize(input.width, J);
  m_padTop = (m_paddedHeight - input.height) / 2;
  m_padLeft = (m_paddedWidth - input.width) / 2;
  for (int j = 0; j < J; ++j)
    for (int t = 0; t < L; ++t) {
      const MorletParameters p = morletParameters(j, t, L);
      const FourierFilter full =
          realDft(morlet(m_paddedHeight, m_paddedWidth, p.sigma, p.theta, p.xi, p.slant),
                  m_paddedHeight, m_paddedWidth);
      std::vector<FourierFilter> levels;
      for (int res = 0; res <= j; ++res) levels.push_back(cropToResolution(full, res));
      m_psi.push_back(std::move(levels));
    }
  const FourierFilter phi =
      realDft(gabor(m_paddedHeight, m_paddedWidth, lowPassSigma(J), 0.0, 0.0, 1.0), m_paddedHeight,
              m_paddedWidth);
  for (int res = 0; res <= J; ++res) {
    m_phi.push_back(cropToResolution(phi, res));
    m_lowRows.push_back(lowPassOperator(m_phi.back(), res, J, true));
    m_lowCols.push_back(lowPassOperator(m_phi.back(), res, J, false));
    m_dftRows.push_back(dftMatrix(m_paddedHeight >> res, -1));
    m_dftCols.push_back(dftMatrix(m_paddedWidth >> res, -1));
    m_idftRows.push_back(dftMatrix(m_paddedHeight >> res, +1));
    m_idftCols.push_back(dftMatrix(m_paddedWidth >> res, +1));
  }
}

int Scattering2D::channelsPerInputChannel() const {
  const int J = m_options.scales, L = m_options.angles;
  return 1 + J * L + L * L * J * (J - 1) / 2;
}

data::SampleShape Scattering2D::outputShape() const {
  return scatteringOutputShape(m_input, m_options);
}

const FourierFilter& Scattering2D::wavelet(int j, int theta) const {
  return m_psi.at(static_cast<std::size_t>(j * m_options.angles + theta)).front();
}

// The per-thread state of the transform: an FFT object (it caches its plans, so it is not
// shared between threads) and scratch buffers for every resolution, reused image after image.
class Scattering2D::Worker {
 public:
  explicit Worker(const Scattering2D& s) : m_s(s) {}

  void transformChannel(const float* image, float* out, Eigen::Index outStride);

 private:
  // x̂ ∘ f, then the spectrum of the signal subsampled by k (Kymatio's subsample_fourier:
  // the mean of the k×k aliases), into `dst`.
  void multiplySubsample(const std::vector<Complex>& x, int rows, int cols, const FourierFilter& f,
                         int k, std::vector<Complex>& dst);
  // |ifft(z)| at resolution res, into the real grid `u`: |G_rows·Z·G_colsᵀ|.
  void inverseModulus(const std::vector<Complex>& z, int res, std::vector<float>& u);
  // The spectrum of the real grid `u` at resolution res into `dst`: F_rows·U·F_colsᵀ.
  void forwardReal(const std::vector<float>& u, int res, std::vector<Complex>& dst);
  // Low-pass, subsample to the output grid, drop the one-pixel border (Kymatio's unpad).
  void lowPassOut(const std::vector<float>& u, int res, float* out);

  const Scattering2D& m_s;
  std::vector<Complex> m_xHat, m_u1Hat, m_z;
  std::vector<float> m_x, m_u1, m_u2, m_half;
  // Per resolution, so buffers of one size are reused image after image.
  std::array<ComplexMatrix, 9> m_rowsDone, m_bothDone;
};

void Scattering2D::Worker::multiplySubsample(const std::vector<Complex>& x, int rows, int cols,
                                             const FourierFilter& f, int k,
                                             std::vector<Complex>& dst) {
  using ComplexArray = Eigen::Array<Complex, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int r2 = rows / k, c2 = cols / k;
  const Eigen::Map<const ComplexArray> spectrum(x.data(), rows, cols);
  dst.resize(static_cast<std::size_t>(r2) * c2);
  Eigen::Map<ComplexArray> folded(dst.data(), r2, c2);
  folded = spectrum.topLeftCorner(r2, c2) * f.topLeftCorner(r2, c2);
  for (int br = 0; br < k; ++br)
    for (int bc = br == 0 ? 1 : 0; bc < k; ++bc)
      folded += spectrum.block(br * r2, bc * c2, r2, c2) * f.block(br * r2, bc * c2, r2, c2);
  if (k > 1) folded *= Complex(1.0f / static_cast<float>(k * k), 0.0f);
}

void Scattering2D::Worker::forwardReal(const std::vector<float>& u, int res,
                                       std::vector<Complex>& dst) {
  const auto r = static_cast<std::size_t>(res);
  const ComplexMatrix& rows = m_s.m_dftRows[r];
  const ComplexMatrix& cols = m_s.m_dftCols[r];
  const Eigen::Map<const RealMatrix> grid(u.data(), rows.rows(), cols.rows());
  m_rowsDone[r].noalias() = grid * cols.transpose();
  dst.resize(static_cast<std::size_t>(rows.rows() * cols.rows()));
  Eigen::Map<ComplexMatrix>(dst.data(), rows.rows(), cols.rows()).noalias() = rows * m_rowsDone[r];
}

void Scattering2D::Worker::inverseModulus(const std::vector<Complex>& z, int res,
                                          std::vector<float>& u) {
  const auto r = static_cast<std::size_t>(res);
  const ComplexMatrix& rows = m_s.m_idftRows[r];
  const ComplexMatrix& cols = m_s.m_idftCols[r];
  const Eigen::Map<const ComplexMatrix> spectrum(z.data(), rows.rows(), cols.rows());
  m_rowsDone[r].noalias() = spectrum * cols.transpose();
  m_bothDone[r].noalias() = rows * m_rowsDone[r];
  u.resize(z.size());
  Eigen::Map<RealMatrix>(u.data(), rows.rows(), cols.rows()) =
      m_bothDone[r].cwiseAbs2().cwiseSqrt();
}

// out = A·U·Bᵀ with the separable low-pass operators of this resolution (see lowPassRows).
void Scattering2D::Worker::lowPassOut(const std::vector<float>& u, int res, float* out) {
  const FourierFilter& a = m_s.m_lowRows[static_cast<std::size_t>(res)];
  const FourierFilter& b = m_s.m_lowCols[static_cast<std::size_t>(res)];
  const Eigen::Map<const RealMatrix> grid(u.data(), a.cols(), b.cols());
  m_half.resize(static_cast<std::size_t>(grid.rows() * b.rows()));
  Eigen::Map<RealMatrix> half(m_half.data(), grid.rows(), b.rows());
  half.noalias() = grid * b.matrix().transpose();
  Eigen::Map<RealMatrix>(out, a.rows(), b.rows()).noalias() = a.matrix() * half;
}

// Kymatio's scattering2d (core/scattering2d.py): U₀ = pad(x); S₀ = (x ⋆ φ)↓2^J;
// U₁ = |x ⋆ ψ_{j1,θ1}|↓2^j1, S₁ = (U₁ ⋆ φ)↓2^(J−j1); U₂ = |U₁ ⋆ ψ_{j2,θ2}|↓2^(j2−j1),
// S₂ = (U₂ ⋆ φ)↓2^(J−j2) (Bruna & Mallat 2013, eq. 8). The wavelet convolutions are
// products of DFTs subsampled in the Fourier domain (Andreux et al. 2020, §3); the low-pass
// outputs are separable products in space, so U₂ and the last scale's U₁ need no forward DFT.
void Scattering2D::Worker::transformChannel(const float* image, float* out,
                                            Eigen::Index outStride) {
  const int J = m_s.m_options.scales, L = m_s.m_options.angles;
  const int P = m_s.m_paddedHeight, Q = m_s.m_paddedWidth, H = m_s.m_input.height,
            W = m_s.m_input.width;
  m_x.resize(static_cast<std::size_t>(P) * Q);
  for (int r = 0; r < P; ++r)
    for (int c = 0; c < Q; ++c)
      m_x[static_cast<std::size_t>(r * Q + c)] =
          image[reflect(r - m_s.m_padTop, H) * W + reflect(c - m_s.m_padLeft, W)];
  lowPassOut(m_x, 0, out);
  forwardReal(m_x, 0, m_xHat);
  float* second = out + outStride * (1 + J * L);
  for (int j1 = 0; j1 < J; ++j1)
    for (int t1 = 0; t1 < L; ++t1) {
      const auto& psi1 = m_s.m_psi[static_cast<std::size_t>(j1 * L + t1)];
      multiplySubsample(m_xHat, P, Q, psi1[0], 1 << j1, m_z);
      const int p1 = P >> j1, q1 = Q >> j1;
      inverseModulus(m_z, j1, m_u1);
      lowPassOut(m_u1, j1, out + outStride * (1 + j1 * L + t1));
      if (j1 + 1 == J) continue;
      forwardReal(m_u1, j1, m_u1Hat);
      for (int j2 = j1 + 1; j2 < J; ++j2)
        for (int t2 = 0; t2 < L; ++t2) {
          const auto& psi2 = m_s.m_psi[static_cast<std::size_t>(j2 * L + t2)];
          multiplySubsample(m_u1Hat, p1, q1, psi2[static_cast<std::size_t>(j1)], 1 << (j2 - j1),
                            m_z);
          inverseModulus(m_z, j2, m_u2);
          lowPassOut(m_u2, j2, second);
          second += outStride;
        }
    }
}

void Scattering2D::transform(const float* image, float* out) const {
  Worker worker(*this);
  const data::SampleShape o = outputShape();
  const Eigen::Index plane = Eigen::Index{o.height} * o.width;
  const int perChannel = channelsPerInputChannel();
  const Eigen::Index inPlane = Eigen::Index{m_input.height} * m_input.width;
  for (int c = 0; c < m_input.channels; ++c)
    worker.transformChannel(image + c * inPlane, out + c * perChannel * plane, plane);
}

data::FeatureMatrix Scattering2D::transformAll(const data::FeatureMatrix& images,
                                               const ScatteringProgress& progress) const {
  if (images.cols() != m_input.featureCount())
    throw DataError("scattering: expected rows of " + std::to_string(m_input.featureCount()) +
                    " features (" + shapeText(m_input) + "), found " +
                    std::to_string(images.cols()));
  const data::SampleShape o = outputShape();
  data::FeatureMatrix out(images.rows(), o.featureCount());
  const Eigen::Index plane = Eigen::Index{o.height} * o.width;
  const int perChannel = channelsPerInputChannel();
  const Eigen::Index inPlane = Eigen::Index{m_input.height} * m_input.width;
  std::atomic<long long> done{0};
  const auto total = static_cast<long long>(images.rows());
  // Each image is computed alone, so the result is the same whatever the thread count.
  forEachChunk(static_cast<std::size_t>(images.rows()), 64,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 Worker worker(*this);
                 for (auto e = static_cast<Eigen::Index>(begin); e < static_cast<Eigen::Index>(end);
                      ++e)
                   for (int c = 0; c < m_input.channels; ++c)
                     worker.transformChannel(images.row(e).data() + c * inPlane,
                                             out.row(e).data() + c * perChannel * plane, plane);
                 const long long now = done += static_cast<long long>(end - begin);
                 if (progress) progress(now, total);
               });
  return out;
}

}  // namespace epsilon::nn

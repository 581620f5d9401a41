#include "core/nn/scattering.h"

#include <algorithm>
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
      std::vector<FourierFilter> levels, twice;
      for (int res = 0; res <= j; ++res) {
        levels.push_back(cropToResolution(full, res));
        const FourierFilter& crop = levels.back();
        twice.emplace_back(crop.rows(), 2 * crop.cols());
        for (Eigen::Index c = 0; c < crop.cols(); ++c)
          for (int copy = 0; copy < 2; ++copy) twice.back().col(2 * c + copy) = crop.col(c);
      }
      m_psi.push_back(std::move(levels));
      m_psiTwice.push_back(std::move(twice));
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

namespace {

// Grows a scratch buffer to at least n elements and returns its storage.
template <typename T>
T* scratch(std::vector<T>& buffer, Eigen::Index n) {
  if (buffer.size() < static_cast<std::size_t>(n)) buffer.resize(static_cast<std::size_t>(n));
  return buffer.data();
}

}  // namespace

// The per-thread scratch buffers of the transform, reused image after image.
//
// Every step works on a batch of grids at once (the L angles of order 1, the L² pairs of
// order 2), so that each 2-D DFT of the batch is two large matrix products instead of 2·L
// or 2·L² products of 36×36 or smaller, where the products' fixed costs dominated. A batch
// of n grids of size p×q is kept in one of two layouts of the same memory:
//   wide: a p × n·q row-major matrix, grid b in columns b·q … b·q + q − 1;
//   tall: a p·n × q row-major matrix, row i·n + b holding row i of grid b.
// Left products G·X_b of every grid are one product G·wide whose result, read as tall,
// is ready for the right products X_b·Hᵀ of every grid, which are one product tall·Hᵀ.
class Scattering2D::Worker {
 public:
  explicit Worker(const Scattering2D& s) : m_s(s) {}

  void transformChannel(const float* image, float* out, Eigen::Index outStride);

 private:
  using FloatArray = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // x̂ ∘ f, then the spectrum of the signal subsampled by k (Kymatio's subsample_fourier:
  // the mean of the k×k aliases). The spectrum is rows×cols with xStride elements between
  // rows, the result (rows/k)×(cols/k) with dstStride; f holds each coefficient twice, so
  // the complex data can be multiplied as floats.
  static void multiplySubsample(const Complex* x, Eigen::Index xStride, int rows, int cols,
                                const FloatArray& f, int k, Complex* dst, Eigen::Index dstStride);
  // |G_rows·Z_b·G_colsᵀ| for the n spectra of the wide batch z at resolution res, into the
  // tall batch of real grids u.
  void inverseModulus(const Complex* z, int res, int n, float* u);
  // F_rows·U_b·F_colsᵀ for the n real grids of the tall batch u, into the wide batch dst.
  void forwardReal(const float* u, int res, int n, Complex* dst);
  // The low-pass output A·U_b·Bᵀ of each grid of the tall batch u, into the channels
  // out + channel(b)·outStride.
  template <typename Channel>
  void lowPassOut(const float* u, int res, int n, float* out, Eigen::Index outStride,
                  Channel channel);

  const Scattering2D& m_s;
  std::vector<float> m_x, m_u1, m_u2, m_half, m_low;
  std::vector<Complex> m_xHat, m_u1Hat, m_z, m_rowsDone, m_bothDone;
};

void Scattering2D::Worker::multiplySubsample(const Complex* x, Eigen::Index xStride, int rows,
                                             int cols, const FloatArray& f, int k, Complex* dst,
                                             Eigen::Index dstStride) {
  // std::complex<float> is laid out as two floats (C++20 [complex.numbers] §4). Plain loops
  // over rows of a few dozen floats: Eigen's strided-block evaluation spent most of its time
  // in scalar heads and tails at these lengths.
  const int r2 = rows / k, width = 2 * (cols / k);
  const float scale = 1.0f / static_cast<float>(k * k);
  const auto* in = reinterpret_cast<const float*>(x);
  auto* outBase = reinterpret_cast<float*>(dst);
  for (int r = 0; r < r2; ++r) {
    float* __restrict out = outBase + 2 * dstStride * r;
    for (int br = 0; br < k; ++br) {
      const Eigen::Index row = Eigen::Index{br} * r2 + r;
      const float* spectrumRow = in + 2 * xStride * row;
      const float* filterRow = f.data() + f.cols() * row;
      for (int bc = 0; bc < k; ++bc) {
        const float* __restrict a = spectrumRow + bc * width;
        const float* __restrict b = filterRow + bc * width;
        if (br == 0 && bc == 0)
          for (int i = 0; i < width; ++i) out[i] = a[i] * b[i];
        else
          for (int i = 0; i < width; ++i) out[i] = std::fma(a[i], b[i], out[i]);
      }
    }
    if (k > 1)
      for (int i = 0; i < width; ++i) out[i] *= scale;
  }
}

void Scattering2D::Worker::inverseModulus(const Complex* z, int res, int n, float* u) {
  const auto r = static_cast<std::size_t>(res);
  const ComplexMatrix& rows = m_s.m_idftRows[r];
  const ComplexMatrix& cols = m_s.m_idftCols[r];
  const Eigen::Index p = rows.rows(), q = cols.rows(), size = p * q * n;
  const Eigen::Map<const ComplexMatrix> wide(z, p, n * q);
  Complex* left = scratch(m_rowsDone, size);
  Eigen::Map<ComplexMatrix>(left, p, n * q).noalias() = rows * wide;
  Complex* both = scratch(m_bothDone, size);
  Eigen::Map<ComplexMatrix>(both, p * n, q).noalias() =
      Eigen::Map<const ComplexMatrix>(left, p * n, q) * cols.transpose();
  // |z| as a loop over interleaved floats: Eigen does not vectorise the complex-to-real
  // cwiseAbs2, and its vectorised sqrt is an approximation (EIGEN_FAST_MATH) while its
  // scalar head and tail are exact, so the result would depend on the buffer's alignment.
  // The file is compiled without errno, so these square roots vectorise exactly.
  const auto* parts = reinterpret_cast<const float*>(both);
  float* __restrict modulus = u;
  for (Eigen::Index i = 0; i < size; ++i)
    modulus[i] =
        std::sqrt(std::fma(parts[2 * i], parts[2 * i], parts[2 * i + 1] * parts[2 * i + 1]));
}

void Scattering2D::Worker::forwardReal(const float* u, int res, int n, Complex* dst) {
  const auto r = static_cast<std::size_t>(res);
  const ComplexMatrix& rows = m_s.m_dftRows[r];
  const ComplexMatrix& cols = m_s.m_dftCols[r];
  const Eigen::Index p = rows.rows(), q = cols.rows();
  Complex* right = scratch(m_rowsDone, p * q * n);
  Eigen::Map<ComplexMatrix>(right, p * n, q).noalias() =
      Eigen::Map<const RealMatrix>(u, p * n, q) * cols.transpose();
  Eigen::Map<ComplexMatrix>(dst, p, n * q).noalias() =
      rows * Eigen::Map<const ComplexMatrix>(right, p, n * q);
}

template <typename Channel>
void Scattering2D::Worker::lowPassOut(const float* u, int res, int n, float* out,
                                      Eigen::Index outStride, Channel channel) {
  const FourierFilter& a = m_s.m_lowRows[static_cast<std::size_t>(res)];
  const FourierFilter& b = m_s.m_lowCols[static_cast<std::size_t>(res)];
  const Eigen::Index p = a.cols(), q = b.cols(), oh = a.rows(), ow = b.rows();
  float* half = scratch(m_half, p * n * ow);
  Eigen::Map<RealMatrix>(half, p * n, ow).noalias() =
      Eigen::Map<const RealMatrix>(u, p * n, q) * b.matrix().transpose();
  float* low = scratch(m_low, oh * n * ow);
  Eigen::Map<RealMatrix>(low, oh, n * ow).noalias() =
      a.matrix() * Eigen::Map<const RealMatrix>(half, p, n * ow);
  for (int g = 0; g < n; ++g) {
    float* dst = out + outStride * channel(g);
    for (Eigen::Index i = 0; i < oh; ++i) std::copy_n(low + (i * n + g) * ow, ow, dst + i * ow);
  }
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
  float* x = scratch(m_x, Eigen::Index{P} * Q);
  for (int r = 0; r < P; ++r)
    for (int c = 0; c < Q; ++c)
      x[r * Q + c] = image[reflect(r - m_s.m_padTop, H) * W + reflect(c - m_s.m_padLeft, W)];
  lowPassOut(x, 0, 1, out, outStride, [](int) { return 0; });
  Complex* xHat = scratch(m_xHat, Eigen::Index{P} * Q);
  forwardReal(x, 0, 1, xHat);
  int secondOrder = 1 + J * L;  // the first channel of order 2 with this j1
  for (int j1 = 0; j1 < J; ++j1) {
    const int p1 = P >> j1, q1 = Q >> j1;
    Complex* z = scratch(m_z, Eigen::Index{p1} * q1 * L);
    for (int t1 = 0; t1 < L; ++t1)
      multiplySubsample(xHat, Q, P, Q, m_s.m_psiTwice[static_cast<std::size_t>(j1 * L + t1)][0],
                        1 << j1, z + t1 * q1, Eigen::Index{L} * q1);
    float* u1 = scratch(m_u1, Eigen::Index{p1} * q1 * L);
    inverseModulus(z, j1, L, u1);
    lowPassOut(u1, j1, L, out, outStride, [&](int t1) { return 1 + j1 * L + t1; });
    if (j1 + 1 == J) continue;
    Complex* u1Hat = scratch(m_u1Hat, Eigen::Index{p1} * q1 * L);
    forwardReal(u1, j1, L, u1Hat);
    const int scalesAbove = J - 1 - j1;
    for (int j2 = j1 + 1; j2 < J; ++j2) {
      const int p2 = P >> j2, q2 = Q >> j2, pairs = L * L;
      Complex* z2 = scratch(m_z, Eigen::Index{p2} * q2 * pairs);
      for (int t1 = 0; t1 < L; ++t1)
        for (int t2 = 0; t2 < L; ++t2)
          multiplySubsample(
              u1Hat + t1 * q1, Eigen::Index{L} * q1, p1, q1,
              m_s.m_psiTwice[static_cast<std::size_t>(j2 * L + t2)][static_cast<std::size_t>(j1)],
              1 << (j2 - j1), z2 + (t1 * L + t2) * q2, Eigen::Index{pairs} * q2);
      float* u2 = scratch(m_u2, Eigen::Index{p2} * q2 * pairs);
      inverseModulus(z2, j2, pairs, u2);
      // Order 2 runs over (j1, θ1, j2, θ2): pair (θ1, θ2) of this (j1, j2) is channel
      // secondOrder + θ1·(J − 1 − j1)·L + (j2 − j1 − 1)·L + θ2.
      lowPassOut(u2, j2, pairs, out, outStride, [&](int pair) {
        return secondOrder + (pair / L) * scalesAbove * L + (j2 - j1 - 1) * L + pair % L;
      });
    }
    secondOrder += L * scalesAbove * L;
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

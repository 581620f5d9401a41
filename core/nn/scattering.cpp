#include "core/nn/scattering.h"

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
  for (int res = 0; res <= J; ++res) m_phi.push_back(cropToResolution(phi, res));
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
// shared between threads) and scratch buffers for every resolution.
class Scattering2D::Worker {
 public:
  explicit Worker(const Scattering2D& s) : m_s(s) {}

  void transformChannel(const float* image, float* out, Eigen::Index outStride);

 private:
  // x̂ ∘ f, then the spectrum of the signal subsampled by k (Kymatio's subsample_fourier:
  // the mean of the k×k aliases), into `dst`.
  void multiplySubsample(const std::vector<Complex>& x, int rows, int cols, const FourierFilter& f,
                         int k, std::vector<Complex>& dst);
  void inverse(std::vector<Complex>& x, int rows, int cols) {
    fft2(m_fft, x.data(), rows, cols, true, m_in, m_out);
  }
  void forward(std::vector<Complex>& x, int rows, int cols) {
    fft2(m_fft, x.data(), rows, cols, false, m_in, m_out);
  }
  // Low-pass, subsample to the output grid, drop the one-pixel border (Kymatio's unpad).
  void lowPassOut(const std::vector<Complex>& u, int res, float* out);
  // |ifft(spectrum)| at its resolution, then its spectrum again.
  void modulusSpectrum(std::vector<Complex>& x) {
    for (Complex& v : x) v = Complex(std::abs(v), 0.0f);
  }

  const Scattering2D& m_s;
  Eigen::FFT<float> m_fft;
  std::vector<Complex> m_x, m_u1, m_u2, m_low, m_in, m_out;
};

void Scattering2D::Worker::multiplySubsample(const std::vector<Complex>& x, int rows, int cols,
                                             const FourierFilter& f, int k,
                                             std::vector<Complex>& dst) {
  const int r2 = rows / k, c2 = cols / k;
  dst.assign(static_cast<std::size_t>(r2) * c2, Complex(0.0f, 0.0f));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      dst[static_cast<std::size_t>((r % r2) * c2 + c % c2)] +=
          x[static_cast<std::size_t>(r * cols + c)] * f(r, c);
  const float scale = 1.0f / static_cast<float>(k * k);
  for (Complex& v : dst) v *= scale;
}

void Scattering2D::Worker::lowPassOut(const std::vector<Complex>& u, int res, float* out) {
  const int J = m_s.m_options.scales;
  const int rows = m_s.m_paddedHeight >> res, cols = m_s.m_paddedWidth >> res;
  multiplySubsample(u, rows, cols, m_s.m_phi[static_cast<std::size_t>(res)], 1 << (J - res), m_low);
  const int r2 = m_s.m_paddedHeight >> J, c2 = m_s.m_paddedWidth >> J;
  inverse(m_low, r2, c2);
  for (int r = 1; r + 1 < r2; ++r)
    for (int c = 1; c + 1 < c2; ++c) *out++ = m_low[static_cast<std::size_t>(r * c2 + c)].real();
}

// Kymatio's scattering2d (core/scattering2d.py): U₀ = pad(x); S₀ = (x ⋆ φ)↓2^J;
// U₁ = |x ⋆ ψ_{j1,θ1}|↓2^j1, S₁ = (U₁ ⋆ φ)↓2^(J−j1); U₂ = |U₁ ⋆ ψ_{j2,θ2}|↓2^(j2−j1),
// S₂ = (U₂ ⋆ φ)↓2^(J−j2) (Bruna & Mallat 2013, eq. 8), every convolution a product of DFTs.
void Scattering2D::Worker::transformChannel(const float* image, float* out,
                                            Eigen::Index outStride) {
  const int J = m_s.m_options.scales, L = m_s.m_options.angles;
  const int P = m_s.m_paddedHeight, Q = m_s.m_paddedWidth, H = m_s.m_input.height,
            W = m_s.m_input.width;
  m_x.resize(static_cast<std::size_t>(P) * Q);
  for (int r = 0; r < P; ++r)
    for (int c = 0; c < Q; ++c)
      m_x[static_cast<std::size_t>(r * Q + c)] =
          Complex(image[reflect(r - m_s.m_padTop, H) * W + reflect(c - m_s.m_padLeft, W)], 0.0f);
  forward(m_x, P, Q);
  lowPassOut(m_x, 0, out);
  float* second = out + outStride * (1 + J * L);
  for (int j1 = 0; j1 < J; ++j1)
    for (int t1 = 0; t1 < L; ++t1) {
      const auto& psi1 = m_s.m_psi[static_cast<std::size_t>(j1 * L + t1)];
      multiplySubsample(m_x, P, Q, psi1[0], 1 << j1, m_u1);
      const int p1 = P >> j1, q1 = Q >> j1;
      inverse(m_u1, p1, q1);
      modulusSpectrum(m_u1);
      forward(m_u1, p1, q1);
      lowPassOut(m_u1, j1, out + outStride * (1 + j1 * L + t1));
      for (int j2 = j1 + 1; j2 < J; ++j2)
        for (int t2 = 0; t2 < L; ++t2) {
          const auto& psi2 = m_s.m_psi[static_cast<std::size_t>(j2 * L + t2)];
          multiplySubsample(m_u1, p1, q1, psi2[static_cast<std::size_t>(j1)], 1 << (j2 - j1), m_u2);
          const int p2 = P >> j2, q2 = Q >> j2;
          inverse(m_u2, p2, q2);
          modulusSpectrum(m_u2);
          forward(m_u2, p2, q2);
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

// Max pooling passes. The gradient flows only to the first maximum of each window (the
// subgradient every framework uses); overlapping windows (stride < size) add up.
#include "core/nn/maxpool2d.h"

#include <algorithm>
#include <type_traits>
#include <vector>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "core/common/errors.h"

namespace epsilon::nn {

namespace {

// Copies n consecutive floats (a row of window corners at stride 1) with masked vector
// moves, where a library memcpy call costs more than the copy and the compiler makes
// scalar moves of a loop of unknown, short length; false where AVX-512 is not targeted
// (the caller's loop does it).
template <class Scalar>
bool copyShort(const Scalar* src, Scalar* dst, int n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<Scalar, float>) {
    for (; n >= 16; n -= 16, src += 16, dst += 16) _mm512_storeu_ps(dst, _mm512_loadu_ps(src));
    const auto mask = static_cast<__mmask16>((1u << n) - 1u);
    _mm512_mask_storeu_ps(dst, mask, _mm512_maskz_loadu_ps(mask, src));
    return true;
  }
#endif
  (void)src;
  (void)dst;
  (void)n;
  return false;
}

// maxima[i] = the maximum of the window at flat index i (offsets i + dy·w + dx) and, with
// Choose, choice[i] = the offset dy·size + dx of its first maximum, or kNoRoute where
// positiveOnly and that maximum is not positive. The offsets are visited in row-major order
// and only a strictly greater input moves the choice. K = size where it is known at compile
// time (the window's loop is unrolled and the loop over i vectorised), 0 otherwise.
template <int K, bool Choose, class Scalar>
void windowMaxima(const Scalar* __restrict x, Eigen::Index w, int size, bool positiveOnly,
                  Eigen::Index n, Scalar* __restrict maxima, std::uint8_t* __restrict choice) {
  const int s = K > 0 ? K : size;
  for (Eigen::Index i = 0; i < n; ++i) {
    Scalar m = x[i], c = 0;  // c a Scalar too: with an int beside it the loop stays scalar
    for (int k = 1; k < s * s; ++k) {
      const Scalar v = x[i + (k / s) * w + k % s];
      const bool greater = m < v;
      m = greater ? v : m;
      c = greater ? Scalar(k) : c;
    }
    maxima[i] = m;
    if constexpr (!Choose) continue;
    const auto routed = static_cast<std::uint8_t>(static_cast<int>(c));
    const std::uint8_t none = MaxPool2D<Scalar>::kNoRoute;
    choice[i] = (m > Scalar(0)) | !positiveOnly ? routed : none;
  }
}

// dx[p] = the sum over offsets k, in row-major order, of pending[p − offset k] where the
// window there chose k (else + 0), for positions p whose every p − offset lies in the flat
// range. The sum starts at +0, as a zeroed dx did when each offset was a pass of its own,
// so every input gets the same bits; each dx is written once. K as in windowMaxima.
template <int K, class Scalar>
void gatherRange(const std::uint8_t* __restrict choice, const Scalar* __restrict pending,
                 Eigen::Index w, int size, Eigen::Index begin, Eigen::Index end,
                 Scalar* __restrict dx) {
  const int s = K > 0 ? K : size;
  for (Eigen::Index p = begin; p < end; ++p) {
    Scalar sum = 0;
    for (int k = 0; k < s * s; ++k) {
      const Eigen::Index j = p - (k / s) * w - k % s;
      sum += choice[j] == static_cast<std::uint8_t>(k) ? pending[j] : Scalar(0);
    }
    dx[p] = sum;
  }
}

}  // namespace

template <class Scalar>
MaxPool2D<Scalar>::MaxPool2D(int size, int stride) : m_size(size), m_stride(stride) {
  if (size < 1 || size > kMaxSize || stride < 1)
    throw ModelError("maxpool layer: expected size in [1, " + std::to_string(kMaxSize) +
                     "] and stride >= 1, found " + std::to_string(size) + ", " +
                     std::to_string(stride));
}

template <class Scalar>
std::string MaxPool2D<Scalar>::describe() const {
  return "maxpool " + std::to_string(m_size) + "×" + std::to_string(m_size) + " stride " +
         std::to_string(m_stride);
}

template <class Scalar>
data::SampleShape MaxPool2D<Scalar>::configure(const data::SampleShape& input) {
  if (!input.isImage)
    throw ModelError(describe() + ": needs an image input (channels×height×width), found " +
                     shapeText(input));
  if (input.height < m_size || input.width < m_size)
    throw ModelError(describe() + ": needs an input of at least " + std::to_string(m_size) + "×" +
                     std::to_string(m_size) + " pixels, found " + shapeText(input));
  m_in = input;
  m_outH = (input.height - m_size) / m_stride + 1;
  m_outW = (input.width - m_size) / m_stride + 1;
  return data::SampleShape::image(input.channels, m_outH, m_outW);
}

// Window maxima of one example as one flat array: with the example's channel planes laid
// end to end, the window at flat index i covers i + dy·w + dx, so m[i] = max over the
// window's offsets of x[i + offset] is one long elementwise pass (vectorised), and each
// output picks m at its window's corner. The choices stay in that flat layout, so routing
// is long passes too. Flat positions whose window straddles a row or channel boundary are
// computed but never picked (their gradient is 0); no read leaves the example. One example
// at a time keeps the flat arrays in the L1 cache.
template <class Scalar>
Eigen::Index MaxPool2D<Scalar>::flatLength() const {
  return m_in.featureCount() - (Eigen::Index{m_size} - 1) * (m_in.width + 1);
}

template <class Scalar>
Eigen::Index MaxPool2D<Scalar>::corner(int c, int oy) const {
  return (Eigen::Index{c} * m_in.height + oy * m_stride) * m_in.width;
}

template <class Scalar>
void MaxPool2D<Scalar>::poolExample(const Scalar* x, Scalar* y, std::uint8_t* choice,
                                    bool positiveOnly, Scalar* flat) const {
  Scalar* maxima = flat;
  const Eigen::Index length = flatLength(), w = m_in.width;
  auto pass = [&](auto size) {
    constexpr int K = decltype(size)::value;
    if (choice != nullptr)
      windowMaxima<K, true>(x, w, m_size, positiveOnly, length, maxima, choice);
    else
      windowMaxima<K, false>(x, w, m_size, positiveOnly, length, maxima, choice);
  };
  if (m_size == 2)
    pass(std::integral_constant<int, 2>{});
  else
    pass(std::integral_constant<int, 0>{});
  for (int c = 0; c < m_in.channels; ++c)
    for (int oy = 0; oy < m_outH; ++oy, y += m_outW) {
      const Scalar* row = maxima + corner(c, oy);
      if (m_stride != 1 || !copyShort(row, y, m_outW))
        for (int ox = 0; ox < m_outW; ++ox) y[ox] = row[ox * m_stride];
    }
}

// Each window's gradient waits at its corner in `pending` (0 elsewhere); then each input
// gathers what the windows that chose it send, in row-major order of their offsets: where
// overlapping windows (stride < size) send several gradients to one input, they add up in
// that order. The few inputs near either end, where some offsets fall outside the flat
// range, test each one.
template <class Scalar>
void MaxPool2D<Scalar>::routeExample(const std::uint8_t* choice, const Scalar* g, Scalar* dx,
                                     Scalar* pending) const {
  const Eigen::Index length = flatLength(), w = m_in.width, size = m_in.featureCount();
  std::fill_n(pending, length, Scalar(0));
  for (int c = 0; c < m_in.channels; ++c)
    for (int oy = 0; oy < m_outH; ++oy, g += m_outW) {
      Scalar* row = pending + corner(c, oy);
      if (m_stride != 1 || !copyShort(g, row, m_outW))
        for (int ox = 0; ox < m_outW; ++ox) row[ox * m_stride] = g[ox];
    }
  const Eigen::Index reach = size - length;  // the largest offset, (size − 1)·(w + 1)
  const Eigen::Index begin = std::min(reach, size), end = std::max(length, begin);
  auto edge = [&](Eigen::Index from, Eigen::Index to) {
    for (Eigen::Index p = from; p < to; ++p) {
      Scalar sum = 0;
      for (int k = 0; k < m_size * m_size; ++k) {
        const Eigen::Index j = p - (k / m_size) * w - k % m_size;
        if (j >= 0 && j < length && choice[j] == static_cast<std::uint8_t>(k)) sum += pending[j];
      }
      dx[p] = sum;
    }
  };
  edge(0, begin);
  if (m_size == 2)
    gatherRange<2>(choice, pending, w, m_size, begin, end, dx);
  else
    gatherRange<0>(choice, pending, w, m_size, begin, end, dx);
  edge(end, size);
}

template <class Scalar>
void MaxPool2D<Scalar>::forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
                                ChunkScratch<Scalar>& scratch) const {
  Scalar* flat = scratch.buffer(0, flatLength());
  for (Eigen::Index e = 0; e < in.rows(); ++e)
    poolExample(in.data() + e * in.cols(), out.data() + e * out.cols(), nullptr, false, flat);
}

// The choices are made again from the input, by the pass that pooled it.
template <class Scalar>
void MaxPool2D<Scalar>::backward(const Scalar*, ConstRows<Scalar> in, ConstRows<Scalar> out,
                                 ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                                 ChunkScratch<Scalar>& scratch) const {
  Scalar* flat = scratch.buffer(0, flatLength());
  Scalar* pooled = scratch.buffer(1, out.cols());
  Scalar* pending = scratch.buffer(2, flatLength());
  std::vector<std::uint8_t> choice(static_cast<std::size_t>(flatLength()));
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    poolExample(in.data() + e * in.cols(), pooled, choice.data(), false, flat);
    routeExample(choice.data(), outGrad.data() + e * outGrad.cols(),
                 inGrad.data() + e * inGrad.cols(), pending);
  }
}

template class MaxPool2D<float>;
template class MaxPool2D<double>;

}  // namespace epsilon::nn

// Max pooling passes. The gradient flows only to the first maximum of each window (the
// subgradient every framework uses); overlapping windows (stride < size) add up.
#include "core/nn/maxpool2d.h"

#include <type_traits>
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

}  // namespace

template <class Scalar>
MaxPool2D<Scalar>::MaxPool2D(int size, int stride) : m_size(size), m_stride(stride) {
  if (size < 1 || stride < 1)
    throw ModelError("maxpool layer: expected size and stride >= 1, found " + std::to_string(size) +
                     ", " + std::to_string(stride));
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
// window's offsets of x[i + offset] is a handful of long elementwise maxima (vectorised),
// and each output picks m at its window's corner. Flat positions whose window straddles a
// row or channel boundary are computed but never picked; no read leaves the example.
// One example at a time keeps the flat arrays in the L1 cache.
template <class Scalar>
Eigen::Index MaxPool2D<Scalar>::flatLength() const {
  return m_in.featureCount() - (Eigen::Index{m_size} - 1) * (m_in.width + 1);
}

template <class Scalar>
Eigen::Index MaxPool2D<Scalar>::corner(int c, int oy) const {
  return (Eigen::Index{c} * m_in.height + oy * m_stride) * m_in.width;
}

template <class Scalar>
void MaxPool2D<Scalar>::poolExample(const Scalar* x, Scalar* y, Scalar* flat) const {
  using Flat = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  using ConstFlat = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  const Eigen::Index length = flatLength(), w = m_in.width;
  Flat m(flat, length);
  m = ConstFlat(x, length);
  for (int dy = 0; dy < m_size; ++dy)
    for (int dx = dy == 0 ? 1 : 0; dx < m_size; ++dx) m = m.max(ConstFlat(x + dy * w + dx, length));
  for (int c = 0; c < m_in.channels; ++c)
    for (int oy = 0; oy < m_outH; ++oy, y += m_outW) {
      const Scalar* row = flat + corner(c, oy);
      if (m_stride != 1 || !copyShort(row, y, m_outW))
        for (int ox = 0; ox < m_outW; ++ox) y[ox] = row[ox * m_stride];
    }
}

// The gradient goes to the first input of each window (in row-major order) that equals the
// window's output, which is the first maximum, so forward() needs no argmax cache. Flat as
// in poolExample(): `pending` holds each window's gradient at its corner until a window
// offset matches, then routes it there; positions that are no window's corner hold 0.
template <class Scalar>
void MaxPool2D<Scalar>::routeExample(const Scalar* x, const Scalar* y, const Scalar* g, Scalar* dx,
                                     Scalar* pendingData, Scalar* winnerData) const {
  using Flat = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  using ConstFlat = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  const Eigen::Index length = flatLength(), w = m_in.width;
  Flat pending(pendingData, length), winner(winnerData, length);
  pending.setZero();
  for (int c = 0; c < m_in.channels; ++c)
    for (int oy = 0; oy < m_outH; ++oy, y += m_outW, g += m_outW) {
      const Eigen::Index base = corner(c, oy);
      if (m_stride == 1 && copyShort(y, winnerData + base, m_outW) &&
          copyShort(g, pendingData + base, m_outW))
        continue;
      for (int ox = 0; ox < m_outW; ++ox) {
        winner[base + ox * m_stride] = y[ox];
        pending[base + ox * m_stride] = g[ox];
      }
    }
  for (int wy = 0; wy < m_size; ++wy)
    for (int wx = 0; wx < m_size; ++wx) {
      const Eigen::Index offset = wy * w + wx;
      // Where pending is 0 (not a corner, or already routed) this adds 0 whatever `winner`
      // holds there.
      const auto match = ConstFlat(x + offset, length) == winner;
      Flat(dx + offset, length) += match.select(pending, Scalar(0));
      pending = match.select(Scalar(0), pending);
    }
}

template <class Scalar>
void MaxPool2D<Scalar>::forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
                                ChunkScratch<Scalar>& scratch) const {
  Scalar* flat = scratch.buffer(0, flatLength());
  for (Eigen::Index e = 0; e < in.rows(); ++e)
    poolExample(in.data() + e * in.cols(), out.data() + e * out.cols(), flat);
}

template <class Scalar>
void MaxPool2D<Scalar>::backward(const Scalar*, ConstRows<Scalar> in, ConstRows<Scalar> out,
                                 ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                                 ChunkScratch<Scalar>& scratch) const {
  Scalar* pending = scratch.buffer(0, flatLength());
  Scalar* winner = scratch.buffer(1, flatLength());
  inGrad.setZero();
  for (Eigen::Index e = 0; e < in.rows(); ++e)
    routeExample(in.data() + e * in.cols(), out.data() + e * out.cols(),
                 outGrad.data() + e * outGrad.cols(), inGrad.data() + e * inGrad.cols(), pending,
                 winner);
}

template class MaxPool2D<float>;
template class MaxPool2D<double>;

}  // namespace epsilon::nn

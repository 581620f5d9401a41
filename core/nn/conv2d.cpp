// Conv2D passes via im2col: a block of examples' patches become the rows of one matrix,
// so the forward pass, the input gradient and the weight gradient are each one GEMM, and
// the per-example weight gradient G_e = δ_e·cols_e (δ_e: filters × positions, cols_e:
// positions × patch) is one small GEMM per example (Rochette et al. 2019, "Efficient
// Per-Example Gradient Computations in Convolutional Neural Networks").
#include "core/nn/conv2d.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/common/errors.h"
#include "core/nn/small_product.h"

namespace epsilon::nn {

template <class Scalar>
Conv2D<Scalar>::Conv2D(int filters, int kernel, int stride, Padding padding)
    : m_filters(filters), m_kernel(kernel), m_stride(stride), m_padding(padding) {
  if (filters < 1 || kernel < 1 || stride < 1)
    throw ModelError("conv layer: expected filters, kernel and stride >= 1, found " +
                     std::to_string(filters) + ", " + std::to_string(kernel) + ", " +
                     std::to_string(stride));
}

template <class Scalar>
std::string Conv2D<Scalar>::describe() const {
  const std::string k = std::to_string(m_kernel);
  return "conv " + std::to_string(m_filters) + "@" + k + "×" + k + " stride " +
         std::to_string(m_stride) + (m_padding == Padding::Same ? " same" : " valid");
}

// Output size and padding as TensorFlow defines them (tf.nn.convolution): "valid" keeps
// out = ⌊(in − k)/s⌋ + 1 positions that fit entirely; "same" gives out = ⌈in/s⌉ and pads
// max((out − 1)·s + k − in, 0) in total, the smaller half before.
template <class Scalar>
data::SampleShape Conv2D<Scalar>::configure(const data::SampleShape& input) {
  if (!input.isImage)
    throw ModelError(describe() + ": needs an image input (channels×height×width), found " +
                     shapeText(input));
  if (m_padding == Padding::Valid && (input.height < m_kernel || input.width < m_kernel))
    throw ModelError(describe() + ": needs an input of at least " + std::to_string(m_kernel) + "×" +
                     std::to_string(m_kernel) + " pixels, found " + shapeText(input));
  m_in = input;
  auto axis = [&](int in, int& out, int& padBefore) {
    if (m_padding == Padding::Valid) {
      out = (in - m_kernel) / m_stride + 1;
      padBefore = 0;
    } else {
      out = (in + m_stride - 1) / m_stride;
      padBefore = std::max((out - 1) * m_stride + m_kernel - in, 0) / 2;
    }
  };
  axis(input.height, m_outH, m_padTop);
  axis(input.width, m_outW, m_padLeft);
  return data::SampleShape::image(m_filters, m_outH, m_outW);
}

template <class Scalar>
LayerCost Conv2D<Scalar>::cost() const {
  const double macs = double(positions()) * m_filters * patchSize();
  return {macs, macs, macs};
}

// Calls body(std::integral_constant<int, K>) with K = the kernel size for the common sizes
// (so a kernel row is a fixed-size copy the compiler turns into a vector move) and K = 0
// otherwise.
template <class Scalar>
template <class Body>
void Conv2D<Scalar>::withKernelSize(Body&& body) const {
  switch (m_kernel) {
    case 3:
      return body(std::integral_constant<int, 3>{});
    case 4:
      return body(std::integral_constant<int, 4>{});
    case 5:
      return body(std::integral_constant<int, 5>{});
    case 8:
      return body(std::integral_constant<int, 8>{});
    default:
      return body(std::integral_constant<int, 0>{});
  }
}

// The image im2col reads: the example itself when no padding is involved, otherwise a
// zero-padded copy, so the unfolding never tests for borders.
template <class Scalar>
typename Conv2D<Scalar>::Source Conv2D<Scalar>::stagedImage(const Scalar* example,
                                                            ChunkScratch<Scalar>& scratch) const {
  const int h = m_in.height, w = m_in.width;
  if (!needsStaging()) return {example, w, Eigen::Index{h} * w};
  const int ph = paddedHeight(), pw = paddedWidth(), copied = std::min(w, pw - m_padLeft);
  Scalar* padded = scratch.buffer(2, Eigen::Index{m_in.channels} * ph * pw);
  for (int c = 0; c < m_in.channels; ++c)
    for (int py = 0; py < ph; ++py) {
      Scalar* row = padded + (Eigen::Index{c} * ph + py) * pw;
      const int iy = py - m_padTop;
      std::fill(row, row + pw, Scalar(0));
      if (iy >= 0 && iy < h)
        std::copy_n(example + (Eigen::Index{c} * h + iy) * w, copied, row + m_padLeft);
    }
  return {padded, pw, Eigen::Index{ph} * pw};
}

template <class Scalar>
void Conv2D<Scalar>::im2col(const Scalar* in, Eigen::Index n, Scalar* cols,
                            ChunkScratch<Scalar>& scratch) const {
  withKernelSize([&](auto size) {
    constexpr int K = decltype(size)::value;
    const int k = K > 0 ? K : m_kernel, s = m_stride;
    Scalar* d = cols;
    for (Eigen::Index e = 0; e < n; ++e) {
      const Source img = stagedImage(in + e * m_in.featureCount(), scratch);
      for (int oy = 0; oy < m_outH; ++oy)
        for (int ox = 0; ox < m_outW; ++ox) {
          const Scalar* corner = img.data + oy * s * img.rowStride + ox * s;
          for (int c = 0; c < m_in.channels; ++c)
            for (int ky = 0; ky < k; ++ky, d += k) {
              const Scalar* src = corner + c * img.channelStride + ky * img.rowStride;
              if constexpr (K > 0)
                std::memcpy(d, src, K * sizeof(Scalar));
              else
                std::copy_n(src, k, d);
            }
        }
    }
  });
}

template <class Scalar>
void Conv2D<Scalar>::col2imAdd(const Scalar* cols, Eigen::Index n, Scalar* inGrad,
                               ChunkScratch<Scalar>& scratch) const {
  const int h = m_in.height, w = m_in.width;
  const int ph = paddedHeight(), pw = paddedWidth();
  const bool staged = needsStaging();
  withKernelSize([&](auto size) {
    constexpr int K = decltype(size)::value;
    const int k = K > 0 ? K : m_kernel, s = m_stride;
    const Scalar* d = cols;
    for (Eigen::Index e = 0; e < n; ++e) {
      Scalar* example = inGrad + e * m_in.featureCount();
      Scalar* img = example;
      Eigen::Index rowStride = w, channelStride = Eigen::Index{h} * w;
      if (staged) {
        rowStride = pw;
        channelStride = Eigen::Index{ph} * pw;
        img = scratch.buffer(2, m_in.channels * channelStride);
        std::fill(img, img + m_in.channels * channelStride, Scalar(0));
      }
      for (int oy = 0; oy < m_outH; ++oy)
        for (int ox = 0; ox < m_outW; ++ox) {
          Scalar* corner = img + oy * s * rowStride + ox * s;
          for (int c = 0; c < m_in.channels; ++c)
            for (int ky = 0; ky < k; ++ky, d += k) {
              Scalar* dst = corner + c * channelStride + ky * rowStride;
              for (int kx = 0; kx < k; ++kx) dst[kx] += d[kx];
            }
        }
      if (!staged) continue;
      // Crop the padding away: the gradient of a padded zero goes nowhere.
      const int copied = std::min(w, pw - m_padLeft);
      for (int c = 0; c < m_in.channels; ++c)
        for (int iy = 0; iy < h && iy + m_padTop < ph; ++iy)
          std::copy_n(img + c * channelStride + (iy + m_padTop) * rowStride + m_padLeft, copied,
                      example + (Eigen::Index{c} * h + iy) * w);
    }
  });
}

// Every pass works on blocks of a few examples whose patch matrix stays in the core's
// cache while the GEMM reads it back (a whole chunk's would not: 32 MNIST examples of the
// tfp-cnn's first layer unfold to 1.6 MB). The block size depends only on the layer's
// shape, so results still do not depend on the thread count.
template <class Scalar>
template <class Body>
void Conv2D<Scalar>::forEachBlock(Eigen::Index n, Body&& body) const {
  constexpr Eigen::Index kPatchScalars = Eigen::Index{1} << 15;  // 128 KiB of floats
  const Eigen::Index block = std::max<Eigen::Index>(1, kPatchScalars / (positions() * patchSize()));
  for (Eigen::Index b = 0; b < n; b += block) body(b, std::min(block, n - b));
}

// cols is (m·positions) × patchSize; the product W·colsᵀ is filters × (example, position),
// so example e's plane of filter f is row f's segment e·positions.
template <class Scalar>
void Conv2D<Scalar>::forwardExamples(const Scalar* params, ConstRows<Scalar> in,
                                     ChunkScratch<Scalar>& scratch,
                                     ConvOutputSink<Scalar>& sink) const {
  const Eigen::Index t = positions();
  ConstRows<Scalar> weights(params, m_filters, patchSize());
  const Scalar* bias = params + weightCount();
  forEachBlock(in.rows(), [&](Eigen::Index b, Eigen::Index m) {
    Rows<Scalar> cols = scratch.matrix(0, m * t, patchSize());
    im2col(in.data() + b * in.cols(), m, cols.data(), scratch);
    Rows<Scalar> product = scratch.matrix(1, m_filters, m * t);
    product.noalias() = weights * cols.transpose();
    for (Eigen::Index e = 0; e < m; ++e) sink.example(b + e, product.data() + e * t, m * t, bias);
  });
}

// A row of `out` is (filter, position): each plane plus its bias goes to its place.
template <class Scalar>
void Conv2D<Scalar>::forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                             ChunkScratch<Scalar>& scratch) const {
  struct Copy final : ConvOutputSink<Scalar> {
    Rows<Scalar>& out;
    Eigen::Index t;
    int filters;
    Copy(Rows<Scalar>& o, Eigen::Index positions, int f) : out(o), t(positions), filters(f) {}
    void example(Eigen::Index e, const Scalar* sums, Eigen::Index stride,
                 const Scalar* bias) override {
      Scalar* y = out.data() + e * out.cols();
      for (int f = 0; f < filters; ++f, y += t, sums += stride)
        for (Eigen::Index i = 0; i < t; ++i) y[i] = sums[i] + bias[f];
    }
  } copy(out, positions(), m_filters);
  forwardExamples(params, in, scratch, copy);
}

template <class Scalar>
void Conv2D<Scalar>::backward(const Scalar* params, ConstRows<Scalar>, ConstRows<Scalar>,
                              ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                              ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index t = positions();
  ConstRows<Scalar> weights(params, m_filters, patchSize());
  inGrad.setZero();
  forEachBlock(outGrad.rows(), [&](Eigen::Index b, Eigen::Index m) {
    Rows<Scalar> delta = scratch.matrix(1, m_filters, m * t);
    for (Eigen::Index e = 0; e < m; ++e)
      for (int f = 0; f < m_filters; ++f)
        delta.row(f).segment(e * t, t) = outGrad.row(b + e).segment(f * t, t);
    Rows<Scalar> colGrad = scratch.matrix(0, m * t, patchSize());
    colGrad.noalias() = delta.transpose() * weights;
    col2imAdd(colGrad.data(), m, inGrad.data() + b * inGrad.cols(), scratch);
  });
}

// Σ_e w_e δ_e·cols_e is one GEMM per block over its concatenated positions.
template <class Scalar>
void Conv2D<Scalar>::addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                         const Scalar* weights, Scalar* grad,
                                         ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index t = positions();
  Rows<Scalar> gw(grad, m_filters, patchSize());
  Eigen::Map<Vector<Scalar>> gb(grad + weightCount(), m_filters);
  forEachBlock(in.rows(), [&](Eigen::Index b, Eigen::Index m) {
    Rows<Scalar> cols = scratch.matrix(0, m * t, patchSize());
    im2col(in.data() + b * in.cols(), m, cols.data(), scratch);
    Rows<Scalar> delta = scratch.matrix(1, m_filters, m * t);
    for (Eigen::Index e = 0; e < m; ++e)
      for (int f = 0; f < m_filters; ++f)
        delta.row(f).segment(e * t, t) = weights[b + e] * outGrad.row(b + e).segment(f * t, t);
    gw.noalias() += delta * cols;
    gb += delta.rowwise().sum();
  });
}

// G_e = δ_e·cols_e with δ_e (filters × positions) read in place from the example's row.
template <class Scalar>
void Conv2D<Scalar>::perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                         Scalar* grads, Eigen::Index stride,
                                         ChunkScratch<Scalar>& scratch) const {
  using Product = detail::SmallProduct<Scalar>;
  const Eigen::Index t = positions();
  const bool fast = Product::fits(m_filters, patchSize());
  forEachBlock(in.rows(), [&](Eigen::Index b, Eigen::Index m) {
    Rows<Scalar> cols = scratch.matrix(0, m * t, patchSize());
    im2col(in.data() + b * in.cols(), m, cols.data(), scratch);
    for (Eigen::Index e = 0; e < m; ++e) {
      ConstRows<Scalar> delta(outGrad.data() + (b + e) * outGrad.cols(), m_filters, t);
      Scalar* g = grads + (b + e) * stride;
      if (fast)
        Product::run(delta.data(), t, cols.data() + e * t * patchSize(), patchSize(), m_filters, t,
                     patchSize(), g, patchSize());
      else
        Rows<Scalar>(g, m_filters, patchSize()).noalias() = delta * cols.middleRows(e * t, t);
      Eigen::Map<Vector<Scalar>>(g + weightCount(), m_filters) = delta.rowwise().sum();
    }
  });
}

template class Conv2D<float>;
template class Conv2D<double>;

}  // namespace epsilon::nn

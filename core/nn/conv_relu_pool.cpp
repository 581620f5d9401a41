// The fused conv → ReLU → max-pool passes (conv_relu_pool.h).
#include "core/nn/conv_relu_pool.h"

#include <algorithm>

#include "core/nn/relu.h"

namespace epsilon::nn {

template <class Scalar>
std::optional<ConvReluPool<Scalar>> ConvReluPool<Scalar>::match(const Layer<Scalar>& conv,
                                                                const Layer<Scalar>& relu,
                                                                const Layer<Scalar>& pool) {
  const auto* c = dynamic_cast<const Conv2D<Scalar>*>(&conv);
  const auto* p = dynamic_cast<const MaxPool2D<Scalar>*>(&pool);
  if (c == nullptr || p == nullptr || dynamic_cast<const Relu<Scalar>*>(&relu) == nullptr)
    return std::nullopt;
  return ConvReluPool(*c, *p);
}

// Each example: bias and ReLU as Relu::forward computes them on Conv2D::forward's output
// (max(sum + bias, 0)) into a scratch plane, then MaxPool2D's pass on it while it is in
// cache. Scratch buffer 3 holds the pooling's flat maxima and that plane (the convolution
// uses 0–2).
template <class Scalar>
void ConvReluPool<Scalar>::forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> pooled,
                                   std::uint8_t* choices, ChunkScratch<Scalar>& scratch) const {
  struct Stage final : ConvOutputSink<Scalar> {
    const MaxPool2D<Scalar>& pool;
    Rows<Scalar>& pooled;
    std::uint8_t* choices;
    Eigen::Index filters, positions;
    Scalar* flat;
    Scalar* a;
    void example(Eigen::Index e, const Scalar* sums, Eigen::Index stride,
                 const Scalar* bias) override {
      for (Eigen::Index f = 0; f < filters; ++f)
        for (Eigen::Index i = 0; i < positions; ++i)
          a[f * positions + i] = std::max(sums[f * stride + i] + bias[f], Scalar(0));
      pool.poolExample(a, pooled.data() + e * pooled.cols(),
                       choices == nullptr ? nullptr : choices + e * pool.flatLength(), true, flat);
    }
    Stage(const MaxPool2D<Scalar>& p, Rows<Scalar>& o, std::uint8_t* c, Eigen::Index f,
          Eigen::Index t, Scalar* buffer)
        : pool(p),
          pooled(o),
          choices(c),
          filters(f),
          positions(t),
          flat(buffer),
          a(buffer + p.flatLength()) {}
  };
  const Eigen::Index filters = m_conv->filterCount(), t = m_conv->positionCount();
  Stage stage(*m_pool, pooled, choices, filters, t,
              scratch.buffer(3, m_pool->flatLength() + filters * t));
  m_conv->forwardExamples(params, in, scratch, stage);
}

// Each example: MaxPool2D's routing into its row of convGrad, which it writes whole
// (scratch buffer 0 holds its pending gradients). Relu::backward's mask is already in the choices:
// every input a choice routes to is its window's maximum, positive there, so the ReLU passes it.
template <class Scalar>
void ConvReluPool<Scalar>::backward(const std::uint8_t* choices, ConstRows<Scalar> pooledGrad,
                                    Rows<Scalar> convGrad, ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index size = convGrad.cols(), count = choicesPerExample();
  Scalar* pending = scratch.buffer(0, m_pool->flatLength());
  for (Eigen::Index e = 0; e < convGrad.rows(); ++e)
    m_pool->routeExample(choices + e * count, pooledGrad.data() + e * pooledGrad.cols(),
                         convGrad.data() + e * size, pending);
}

template class ConvReluPool<float>;
template class ConvReluPool<double>;

}  // namespace epsilon::nn

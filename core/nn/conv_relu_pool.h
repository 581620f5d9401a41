// A convolution followed by ReLU and max pooling (the tfp-cnn's and LeNet-5's blocks) in
// one pass over the activations each way, chosen by Model::backward() when its layers have
// that pattern; the layer list, and so the model's description and files, stay as they are.
// Forward: each output plane of the convolution, still in cache after its GEMM, gets its
// bias and the ReLU and is pooled at once, where the layers one by one write the
// convolution's output, read it back for the ReLU, and read that back for the pooling.
// Backward: the pooling's gradient is routed straight into the convolution's output
// gradient by the choices forward() recorded, which also carry the ReLU's mask (a window
// whose maximum is not positive routes nothing), so backward() reads no activation. Every
// value is computed by the same operations in the same order as the layers one by one, so
// results are bit-identical to them. The Workspace entries between the three layers (the
// convolution's output, the ReLU's output and the ReLU's output gradient) are neither
// written nor needed.
#pragma once

#include <cstdint>
#include <optional>

#include "core/nn/conv2d.h"
#include "core/nn/maxpool2d.h"

namespace epsilon::nn {

template <class Scalar>
class ConvReluPool {
 public:
  // The fused block over layers conv, relu, pool when they are Conv2D, Relu and MaxPool2D.
  static std::optional<ConvReluPool> match(const Layer<Scalar>& conv, const Layer<Scalar>& relu,
                                           const Layer<Scalar>& pool);

  // pooled = maxpool(ReLU(conv(in))) for a chunk's rows; unless `choices` is null, each
  // window's choice goes there for backward() (MaxPool2D's, one byte per window position,
  // choicesPerExample() a row).
  void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> pooled,
               std::uint8_t* choices, ChunkScratch<Scalar>& scratch) const;
  // convGrad = dLoss/d(conv output) from pooledGrad = dLoss/d(pooled) and forward()'s choices.
  void backward(const std::uint8_t* choices, ConstRows<Scalar> pooledGrad, Rows<Scalar> convGrad,
                ChunkScratch<Scalar>& scratch) const;
  Eigen::Index choicesPerExample() const { return m_pool->flatLength(); }

 private:
  ConvReluPool(const Conv2D<Scalar>& conv, const MaxPool2D<Scalar>& pool)
      : m_conv(&conv), m_pool(&pool) {}

  const Conv2D<Scalar>* m_conv;
  const MaxPool2D<Scalar>* m_pool;
};

extern template class ConvReluPool<float>;
extern template class ConvReluPool<double>;

}  // namespace epsilon::nn

// The hyperbolic tangent elementwise; its derivative 1 − tanh² is read from the output.
// Papernot et al. (2021), "Tempered Sigmoid Activations for Deep Learning with Differential
// Privacy", show bounded activations like tanh train better than ReLU under DP-SGD.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class Tanh final : public Layer<Scalar> {
 public:
  std::unique_ptr<Layer<Scalar>> clone() const override { return std::make_unique<Tanh>(*this); }
  std::string kind() const override { return "tanh"; }
  std::string describe() const override { return "tanh"; }
  data::SampleShape configure(const data::SampleShape& input) override { return input; }

  void forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>&) const override {
    out = in.array().tanh();
  }
  void backward(const Scalar*, ConstRows<Scalar>, ConstRows<Scalar> out, ConstRows<Scalar> outGrad,
                Rows<Scalar> inGrad, ChunkScratch<Scalar>&) const override {
    inGrad = outGrad.array() * (Scalar(1) - out.array().square());
  }
};

}  // namespace epsilon::nn

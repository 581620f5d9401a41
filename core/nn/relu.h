// The rectified linear unit, max(x, 0) elementwise; its derivative at 0 is taken as 0.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class Relu final : public Layer<Scalar> {
 public:
  std::unique_ptr<Layer<Scalar>> clone() const override { return std::make_unique<Relu>(*this); }
  std::string kind() const override { return "relu"; }
  std::string describe() const override { return "relu"; }
  data::SampleShape configure(const data::SampleShape& input) override { return input; }

  void forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>&) const override {
    out = in.cwiseMax(Scalar(0));
  }
  void backward(const Scalar*, ConstRows<Scalar> in, ConstRows<Scalar>, ConstRows<Scalar> outGrad,
                Rows<Scalar> inGrad, ChunkScratch<Scalar>&) const override {
    inGrad = (in.array() > Scalar(0)).select(outGrad, Scalar(0));
  }
};

}  // namespace epsilon::nn

// Turns a C×H×W image into a flat vector of C·H·W features. Rows already hold samples in
// C×H×W order, so only the shape changes; the values are copied unchanged.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class Flatten final : public Layer<Scalar> {
 public:
  std::unique_ptr<Layer<Scalar>> clone() const override { return std::make_unique<Flatten>(*this); }
  std::string kind() const override { return "flatten"; }
  std::string describe() const override { return "flatten"; }
  data::SampleShape configure(const data::SampleShape& input) override {
    return data::SampleShape::features(input.featureCount());
  }

  void forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>&) const override {
    out = in;
  }
  void backward(const Scalar*, ConstRows<Scalar>, ConstRows<Scalar>, ConstRows<Scalar> outGrad,
                Rows<Scalar> inGrad, ChunkScratch<Scalar>&) const override {
    inGrad = outGrad;
  }
};

}  // namespace epsilon::nn

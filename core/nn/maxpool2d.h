// Max pooling over each channel of a C×H×W image with a square window, one stride for both
// axes and "valid" padding (only windows that fit entirely), as Keras' MaxPool2D defaults.
#pragma once

#include <cstdint>

#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class MaxPool2D final : public Layer<Scalar> {
 public:
  MaxPool2D(int size, int stride);

  std::unique_ptr<Layer<Scalar>> clone() const override {
    return std::make_unique<MaxPool2D>(*this);
  }
  std::string kind() const override { return "maxpool"; }
  std::string describe() const override;
  data::SampleShape configure(const data::SampleShape& input) override;

  void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>& scratch) const override;
  void backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar> out,
                ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                ChunkScratch<Scalar>& scratch) const override;

  // The passes on one example (forward() and backward() run them for each example of the
  // chunk; core/nn/conv_relu_pool.h on an example still in cache).
  //
  // A window's choice is the offset dy·size + dx (row-major) of its first maximum, the input
  // its gradient goes to (the subgradient every framework uses); kNoRoute sends it nowhere.
  static constexpr std::uint8_t kNoRoute = 255;
  static constexpr int kMaxSize = 15;  // so that every offset fits a choice's byte
  // Pools x into y and, unless `choice` is null, records each window's choice there, in
  // the flat layout of maxpool2d.cpp (flatLength() bytes). With positiveOnly, a window whose
  // maximum is not positive gets kNoRoute: where a ReLU comes before the pooling, its mask
  // would zero that gradient anyway. `flat` holds flatLength() scalars.
  Eigen::Index flatLength() const;
  void poolExample(const Scalar* x, Scalar* y, std::uint8_t* choice, bool positiveOnly,
                   Scalar* flat) const;
  // dx (the example's input gradient) = g routed by poolExample()'s choices; every input
  // is written. `pending` holds flatLength() scalars.
  void routeExample(const std::uint8_t* choice, const Scalar* g, Scalar* dx, Scalar* pending) const;

 private:
  Eigen::Index corner(int c, int oy) const;

  int m_size;
  int m_stride;
  data::SampleShape m_in;
  int m_outH = 0;
  int m_outW = 0;
};

extern template class MaxPool2D<float>;
extern template class MaxPool2D<double>;

}  // namespace epsilon::nn

// A fully connected layer: out = W·in + b for each example, with W (outputs × inputs,
// row-major) followed by b in the layer's parameter slice. Any input shape is read as a
// flat vector of its features.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class Dense final : public Layer<Scalar> {
 public:
  explicit Dense(int outputs);

  std::unique_ptr<Layer<Scalar>> clone() const override { return std::make_unique<Dense>(*this); }
  std::string kind() const override { return "dense"; }
  std::string describe() const override;
  data::SampleShape configure(const data::SampleShape& input) override;

  Eigen::Index parameterCount() const override { return weightCount() + m_outputs; }
  Eigen::Index weightCount() const override { return Eigen::Index{m_inputs} * m_outputs; }
  Eigen::Index fanIn() const override { return m_inputs; }
  Eigen::Index fanOut() const override { return m_outputs; }
  LayerCost cost() const override;

  void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>& scratch) const override;
  void backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar> out,
                ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                ChunkScratch<Scalar>& scratch) const override;
  void addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, const Scalar* weights,
                           Scalar* grad, ChunkScratch<Scalar>& scratch) const override;
  Eigen::Index gradientRowCount() const override { return m_outputs; }
  void weightedGradientRows(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, const Scalar* weights,
                            Eigen::Index rowBegin, Eigen::Index rowEnd, Scalar* grad,
                            ChunkScratch<Scalar>& scratch) const override;
  void forwardRows(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                   Eigen::Index rowBegin, Eigen::Index rowEnd) const override;
  void perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, Scalar* grads,
                           Eigen::Index stride, ChunkScratch<Scalar>& scratch) const override;
  void perExampleSquaredNorms(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, Scalar* norms,
                              ChunkScratch<Scalar>& scratch) const override;

 private:
  int m_inputs = 0;
  int m_outputs = 0;
};

extern template class Dense<float>;
extern template class Dense<double>;

}  // namespace epsilon::nn

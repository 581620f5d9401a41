// Group normalisation (Wu & He 2018): each example's channels are split into groups and
// every group is standardised by its own mean and variance, so no statistic crosses
// examples — which keeps per-example gradients, and hence DP-SGD's clipping, exact.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

// y = (1 + γ'_c)·x̂ + β_c with x̂ = (x − μ_g)/√(σ²_g + ε) (Wu & He 2018, eqs. 1–2 and the
// per-channel affine transform). γ is stored as γ' = γ − 1, so the zero-initialised
// parameters start at the identity affine map (γ = 1, β = 0); slice: γ'_1..C, then β_1..C.
// Without the affine map the layer has no parameters (Tramèr & Boneh 2021 normalise
// ScatterNet features that way).
template <class Scalar>
class GroupNorm final : public Layer<Scalar> {
 public:
  explicit GroupNorm(int groups, bool affine = true, double epsilon = 1e-5);

  std::unique_ptr<Layer<Scalar>> clone() const override {
    return std::make_unique<GroupNorm>(*this);
  }
  std::string kind() const override { return "groupnorm"; }
  std::string describe() const override;
  data::SampleShape configure(const data::SampleShape& input) override;

  // All parameters count as "biases" for the initialisation, which zeroes them.
  Eigen::Index parameterCount() const override {
    return m_affine ? 2 * Eigen::Index{m_channels} : 0;
  }
  LayerCost cost() const override;

  void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>& scratch) const override;
  void backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar> out,
                ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                ChunkScratch<Scalar>& scratch) const override;
  void addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, const Scalar* weights,
                           Scalar* grad, ChunkScratch<Scalar>& scratch) const override;
  void perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, Scalar* grads,
                           Eigen::Index stride, ChunkScratch<Scalar>& scratch) const override;

 private:
  // x̂ of one example into `normalised`; returns 1/√(σ²+ε) of each group in `inverseStd`.
  void normalise(const Scalar* x, Scalar* normalised, Scalar* inverseStd) const;

  int m_groups;
  bool m_affine;
  double m_epsilon;
  int m_channels = 0;
  Eigen::Index m_plane = 0;  // height × width
};

extern template class GroupNorm<float>;
extern template class GroupNorm<double>;

}  // namespace epsilon::nn

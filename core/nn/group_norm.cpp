// Group normalisation passes. The input gradient is the standard normalisation backward
// pass (Ioffe & Szegedy 2015, §3, applied per group as Wu & He 2018 do):
// ∂L/∂x = (1/√(σ²+ε))·(g − mean(g) − x̂·mean(g·x̂)) with g = ∂L/∂x̂ = γ_c·∂L/∂y, the means
// over the group; the parameter gradients are ∂L/∂γ_c = Σ_hw ∂L/∂y·x̂, ∂L/∂β_c = Σ_hw ∂L/∂y.
#include "core/nn/group_norm.h"

#include <cmath>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::nn {

template <class Scalar>
GroupNorm<Scalar>::GroupNorm(int groups, bool affine, double epsilon)
    : m_groups(groups), m_affine(affine), m_epsilon(epsilon) {
  if (groups < 1)
    throw ModelError("group norm: expected at least 1 group, found " + std::to_string(groups));
  if (!(epsilon > 0)) throw ModelError("group norm: expected ε > 0, found " + shortNumber(epsilon));
}

template <class Scalar>
std::string GroupNorm<Scalar>::describe() const {
  return "group norm " + std::to_string(m_groups) + " groups of " +
         std::to_string(m_channels / std::max(1, m_groups)) + " channels" +
         (m_affine ? "" : ", no affine");
}

template <class Scalar>
data::SampleShape GroupNorm<Scalar>::configure(const data::SampleShape& input) {
  if (input.channels % m_groups != 0)
    throw ModelError("group norm: expected a channel count divisible by " +
                     std::to_string(m_groups) + " groups, found " + shapeText(input));
  m_channels = input.channels;
  m_plane = Eigen::Index{input.height} * input.width;
  return input;
}

template <class Scalar>
LayerCost GroupNorm<Scalar>::cost() const {
  const double n = double(m_channels) * double(m_plane);
  return {4 * n, 6 * n, m_affine ? 2 * n : 0};
}

template <class Scalar>
void GroupNorm<Scalar>::normalise(const Scalar* x, Scalar* normalised, Scalar* inverseStd) const {
  const Eigen::Index n = Eigen::Index{m_channels / m_groups} * m_plane;
  for (int g = 0; g < m_groups; ++g) {
    Eigen::Map<const Vector<Scalar>> v(x + g * n, n);
    const Scalar mean = v.mean();
    const Scalar variance = (v.array() - mean).square().mean();
    const Scalar inv = Scalar(1) / std::sqrt(variance + Scalar(m_epsilon));
    Eigen::Map<Vector<Scalar>>(normalised + g * n, n) = (v.array() - mean) * inv;
    inverseStd[g] = inv;
  }
}

template <class Scalar>
void GroupNorm<Scalar>::forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                                ChunkScratch<Scalar>& scratch) const {
  Scalar* inv = scratch.buffer(0, m_groups);
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    normalise(in.row(e).data(), out.row(e).data(), inv);
    if (!m_affine) continue;
    for (int c = 0; c < m_channels; ++c)
      out.row(e).segment(c * m_plane, m_plane).array() =
          (Scalar(1) + params[c]) * out.row(e).segment(c * m_plane, m_plane).array() +
          params[m_channels + c];
  }
}

template <class Scalar>
void GroupNorm<Scalar>::backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar>,
                                 ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                                 ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index n = Eigen::Index{m_channels / m_groups} * m_plane;
  Scalar* inv = scratch.buffer(0, m_groups);
  Scalar* xhat = scratch.buffer(1, in.cols());
  Scalar* g = scratch.buffer(2, in.cols());
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    normalise(in.row(e).data(), xhat, inv);
    for (int c = 0; c < m_channels; ++c) {
      const Scalar gamma = m_affine ? Scalar(1) + params[c] : Scalar(1);
      Eigen::Map<Vector<Scalar>>(g + c * m_plane, m_plane) =
          gamma * outGrad.row(e).segment(c * m_plane, m_plane).transpose();
    }
    for (int k = 0; k < m_groups; ++k) {
      Eigen::Map<const Vector<Scalar>> gk(g + k * n, n), xk(xhat + k * n, n);
      const Scalar meanG = gk.mean(), meanGx = gk.dot(xk) / Scalar(n);
      inGrad.row(e).segment(k * n, n) =
          (inv[k] * (gk.array() - meanG - xk.array() * meanGx)).transpose();
    }
  }
}

// One example's ∂L/∂γ' (= ∂L/∂γ) and ∂L/∂β into grad[0..2C).
template <class Scalar>
void GroupNorm<Scalar>::perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                            Scalar* grads, Eigen::Index stride,
                                            ChunkScratch<Scalar>& scratch) const {
  if (!m_affine) return;
  Scalar* inv = scratch.buffer(0, m_groups);
  Scalar* xhat = scratch.buffer(1, in.cols());
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    normalise(in.row(e).data(), xhat, inv);
    Scalar* out = grads + e * stride;
    for (int c = 0; c < m_channels; ++c) {
      const auto dy = outGrad.row(e).segment(c * m_plane, m_plane);
      out[c] = dy.dot(Eigen::Map<const Vector<Scalar>>(xhat + c * m_plane, m_plane).transpose());
      out[m_channels + c] = dy.sum();
    }
  }
}

template <class Scalar>
void GroupNorm<Scalar>::addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                            const Scalar* weights, Scalar* grad,
                                            ChunkScratch<Scalar>& scratch) const {
  if (!m_affine) return;
  const Eigen::Index p = parameterCount();
  Scalar* one = scratch.buffer(3, p);
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    perExampleGradients(ConstRows<Scalar>(in.row(e).data(), 1, in.cols()),
                        ConstRows<Scalar>(outGrad.row(e).data(), 1, outGrad.cols()), one, p,
                        scratch);
    for (Eigen::Index j = 0; j < p; ++j) grad[j] += weights[e] * one[j];
  }
}

template class GroupNorm<float>;
template class GroupNorm<double>;

}  // namespace epsilon::nn

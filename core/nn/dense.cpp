// Dense layer passes. Per-example gradients follow Goodfellow (2015), "Efficient Per-Example
// Gradient Computations": for out = W·a + b the example's weight gradient is the outer
// product δ aᵀ, so everything DP-SGD needs comes from δ (outGrad) and a (in) alone.
#include "core/nn/dense.h"

#include "core/common/errors.h"

namespace epsilon::nn {

template <class Scalar>
Dense<Scalar>::Dense(int outputs) : m_outputs(outputs) {
  if (outputs < 1)
    throw ModelError("dense layer: expected at least 1 output, found " + std::to_string(outputs));
}

template <class Scalar>
std::string Dense<Scalar>::describe() const {
  return "dense " + std::to_string(m_inputs) + "→" + std::to_string(m_outputs);
}

template <class Scalar>
data::SampleShape Dense<Scalar>::configure(const data::SampleShape& input) {
  if (input.featureCount() < 1)
    throw ModelError("dense layer: expected a non-empty input, found " + shapeText(input));
  m_inputs = input.featureCount();
  return data::SampleShape::features(m_outputs);
}

template <class Scalar>
LayerCost Dense<Scalar>::cost() const {
  const double macs = double(m_inputs) * m_outputs;
  return {macs, macs, macs};
}

template <class Scalar>
void Dense<Scalar>::forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                            ChunkScratch<Scalar>&) const {
  ConstRows<Scalar> w(params, m_outputs, m_inputs);
  Eigen::Map<const Eigen::Matrix<Scalar, 1, Eigen::Dynamic>> b(params + weightCount(), m_outputs);
  out.noalias() = in * w.transpose();
  out.rowwise() += b;
}

template <class Scalar>
void Dense<Scalar>::backward(const Scalar* params, ConstRows<Scalar>, ConstRows<Scalar>,
                             ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                             ChunkScratch<Scalar>&) const {
  ConstRows<Scalar> w(params, m_outputs, m_inputs);
  inGrad.noalias() = outGrad * w;
}

// Σ_e w_e δ_e a_eᵀ = (diag(w)·Δ)ᵀ·A: one matrix product for the whole chunk.
template <class Scalar>
void Dense<Scalar>::addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                        const Scalar* weights, Scalar* grad,
                                        ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index n = in.rows();
  Rows<Scalar> scaled = scratch.matrix(0, n, m_outputs);
  Eigen::Map<const Vector<Scalar>> wv(weights, n);
  scaled.noalias() = wv.asDiagonal() * outGrad;
  Rows<Scalar> gw(grad, m_outputs, m_inputs);
  gw.noalias() += scaled.transpose() * in;
  Eigen::Map<Eigen::Matrix<Scalar, 1, Eigen::Dynamic>> gb(grad + weightCount(), m_outputs);
  gb += scaled.colwise().sum();
}

// Rows [r0, r1) of the same product over the whole batch: (Δ[:, r0:r1]ᵀ·diag(w))·A.
template <class Scalar>
void Dense<Scalar>::weightedGradientRows(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                         const Scalar* weights, Eigen::Index rowBegin,
                                         Eigen::Index rowEnd, Scalar* grad,
                                         ChunkScratch<Scalar>& scratch) const {
  const Eigen::Index n = in.rows(), rows = rowEnd - rowBegin;
  Rows<Scalar> scaled = scratch.matrix(0, rows, n);
  Eigen::Map<const Vector<Scalar>> wv(weights, n);
  scaled.noalias() = outGrad.middleCols(rowBegin, rows).transpose() * wv.asDiagonal();
  Rows<Scalar>(grad + rowBegin * m_inputs, rows, m_inputs).noalias() = scaled * in;
  Eigen::Map<Vector<Scalar>>(grad + weightCount() + rowBegin, rows) = scaled.rowwise().sum();
}

// Outputs [r0, r1) of the whole batch: A·W[r0:r1, :]ᵀ + b[r0:r1].
template <class Scalar>
void Dense<Scalar>::forwardRows(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                                Eigen::Index rowBegin, Eigen::Index rowEnd) const {
  const Eigen::Index rows = rowEnd - rowBegin;
  ConstRows<Scalar> w(params + rowBegin * m_inputs, rows, m_inputs);
  Eigen::Map<const Eigen::Matrix<Scalar, 1, Eigen::Dynamic>> b(params + weightCount() + rowBegin,
                                                               rows);
  auto block = out.middleCols(rowBegin, rows);
  block.noalias() = in * w.transpose();
  block.rowwise() += b;
}

template <class Scalar>
void Dense<Scalar>::perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                        Scalar* grads, Eigen::Index stride,
                                        ChunkScratch<Scalar>&) const {
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    Scalar* g = grads + e * stride;
    Rows<Scalar> gw(g, m_outputs, m_inputs);
    gw.noalias() = outGrad.row(e).transpose() * in.row(e);
    Eigen::Map<Eigen::Matrix<Scalar, 1, Eigen::Dynamic>>(g + weightCount(), m_outputs) =
        outGrad.row(e);
  }
}

// ‖δ aᵀ‖²_F = ‖δ‖²·‖a‖² (the Frobenius norm of a rank-one matrix), plus ‖δ‖² for the bias.
template <class Scalar>
void Dense<Scalar>::perExampleSquaredNorms(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                           Scalar* norms, ChunkScratch<Scalar>&) const {
  for (Eigen::Index e = 0; e < in.rows(); ++e) {
    const Scalar d = outGrad.row(e).squaredNorm();
    norms[e] = d * (in.row(e).squaredNorm() + Scalar(1));
  }
}

template class Dense<float>;
template class Dense<double>;

}  // namespace epsilon::nn

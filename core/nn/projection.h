// A fixed linear projection of the input onto k directions (x ↦ xP, P a d × k matrix), with no
// trainable parameters: the DP-PCA input layer of Abadi et al. 2016 (§5). P is computed from
// the data once per run and shared by every copy of the model.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "core/common/errors.h"
#include "core/nn/layer.h"

namespace epsilon::nn {

template <class Scalar>
class Projection final : public Layer<Scalar> {
 public:
  // `projection` may be null: the network then has its final shape (for parameter counts and
  // summaries) but refuses to run until a model with the computed projection is built.
  Projection(int dims, std::shared_ptr<const Eigen::MatrixXd> projection) : m_dims(dims) {
    if (dims < 1)
      throw ModelError("projection: expected at least 1 direction, found " + std::to_string(dims));
    if (projection) {
      if (projection->cols() != dims) {
        throw ModelError("projection: expected a matrix with " + std::to_string(dims) +
                         " columns, found " + std::to_string(projection->cols()));
      }
      m_matrix = std::make_shared<const Matrix<Scalar>>(projection->cast<Scalar>());
    }
  }

  std::unique_ptr<Layer<Scalar>> clone() const override {
    return std::make_unique<Projection>(*this);
  }
  std::string kind() const override { return "projection"; }
  std::string describe() const override {
    return "projection " + std::to_string(m_inputs) + " → " + std::to_string(m_dims) +
           (m_matrix ? " (fixed, DP-PCA)" : " (not computed yet)");
  }
  data::SampleShape configure(const data::SampleShape& input) override {
    m_inputs = input.featureCount();
    if (m_matrix && m_matrix->rows() != m_inputs) {
      throw ModelError("projection: expected " + std::to_string(m_matrix->rows()) +
                       " input features, found " + shapeText(input));
    }
    return data::SampleShape::features(m_dims);
  }
  LayerCost cost() const override {
    const double work = static_cast<double>(m_inputs) * m_dims;
    return {work, work, 0.0};
  }
  bool computed() const { return m_matrix != nullptr; }

  // Rows are samples in C×H×W order, so an image needs no flattening first.
  void forward(const Scalar*, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>&) const override {
    out.noalias() = in * matrix();
  }
  void backward(const Scalar*, ConstRows<Scalar>, ConstRows<Scalar>, ConstRows<Scalar> outGrad,
                Rows<Scalar> inGrad, ChunkScratch<Scalar>&) const override {
    inGrad.noalias() = outGrad * matrix().transpose();
  }

 private:
  const Matrix<Scalar>& matrix() const {
    if (!m_matrix)
      throw ModelError("projection: the DP-PCA projection has not been computed from the data");
    return *m_matrix;
  }

  int m_dims = 0;
  int m_inputs = 0;
  std::shared_ptr<const Matrix<Scalar>> m_matrix;
};

}  // namespace epsilon::nn

// The base class of a network layer: a stateless function of a chunk of examples' inputs
// (and its slice of the flat parameter vector) with its backward pass and, for layers with
// parameters, the per-example parameter gradients DP-SGD needs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/data/dataset.h"
#include "core/nn/tensor.h"

namespace epsilon::nn {

// Multiply-adds one example costs a layer (a flop count is twice these).
struct LayerCost {
  double forward = 0;            // outputs from inputs
  double inputGradient = 0;      // dLoss/dInput from dLoss/dOutput
  double parameterGradient = 0;  // dLoss/dParameters (the batch sum; per example costs the same)
};

// A layer must override:
//   clone()      a deep copy (Model is copyable)
//   kind()       short lower-case name: "dense", "conv", "maxpool", "relu", "tanh", "flatten"
//   describe()   one line with its hyper-parameters, for Model::summary()
//   configure()  remember the input shape and return the output shape; throw ModelError
//                naming the layer and the shape when it cannot take that input
//   forward()    outputs of a chunk of examples from their inputs
//   backward()   dLoss/dInput of the chunk from dLoss/dOutput (overwrites inGrad)
// and a layer with parameters (weights first, then biases, in its slice) also:
//   parameterCount(), weightCount(), fanIn(), fanOut()   (for the seeded initialisation)
//   addWeightedGradient()   grad += Σ_e w_e ∂loss_e/∂θ over the chunk (accumulates)
//   perExampleGradients()   ∂loss_e/∂θ for each example of the chunk, one row each
// optionally perExampleSquaredNorms() when a closed form beats materialising,
// keepsPerExampleGradients() when it does not, gradientRowCount(), weightedGradientRows() and
// forwardRows() when the weighted sum and the output are one product over the batch, and cost()
// for the benchmark's flop count.
// A layer holds no per-batch state: everything a pass needs is passed in (the batch's
// caches live in the Workspace, scratch memory in a ChunkScratch), so one layer object
// serves every thread at once. Rows are examples, each row a sample in C×H×W order.
template <class Scalar>
class Layer {
 public:
  virtual ~Layer() = default;

  virtual std::unique_ptr<Layer> clone() const = 0;
  virtual std::string kind() const = 0;
  virtual std::string describe() const = 0;
  virtual data::SampleShape configure(const data::SampleShape& input) = 0;

  virtual Eigen::Index parameterCount() const { return 0; }
  virtual Eigen::Index weightCount() const { return 0; }
  virtual Eigen::Index fanIn() const { return 0; }
  virtual Eigen::Index fanOut() const { return 0; }
  virtual LayerCost cost() const { return {}; }

  // `in`, `out`, `outGrad` and `inGrad` are the chunk's rows; backward() may read the
  // outputs forward() produced (tanh and max-pool do).
  virtual void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
                       ChunkScratch<Scalar>& scratch) const = 0;
  virtual void backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar> out,
                        ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                        ChunkScratch<Scalar>& scratch) const = 0;

  virtual void addWeightedGradient(ConstRows<Scalar> /*in*/, ConstRows<Scalar> /*outGrad*/,
                                   const Scalar* /*weights*/, Scalar* /*grad*/,
                                   ChunkScratch<Scalar>& /*scratch*/) const {}
  // A layer whose parameter gradient is one matrix product over the batch (dense) may
  // instead report its weight-matrix rows here and compute rows [rowBegin, rowEnd) of
  // Σ_e w_e ∂loss_e/∂θ (those weight rows and their biases, overwritten) for the whole
  // batch: the model then splits the work by rows, with no partial sums to add up.
  virtual Eigen::Index gradientRowCount() const { return 0; }
  virtual void weightedGradientRows(ConstRows<Scalar> /*in*/, ConstRows<Scalar> /*outGrad*/,
                                    const Scalar* /*weights*/, Eigen::Index /*rowBegin*/,
                                    Eigen::Index /*rowEnd*/, Scalar* /*grad*/,
                                    ChunkScratch<Scalar>& /*scratch*/) const {}
  // Such a layer also computes its output's columns [rowBegin, rowEnd) (those weight rows'
  // outputs) for the whole batch, overwriting them: the model's first dense layer then packs
  // each block of its weights once per batch instead of once per chunk.
  virtual void forwardRows(const Scalar* /*params*/, ConstRows<Scalar> /*in*/, Rows<Scalar> /*out*/,
                           Eigen::Index /*rowBegin*/, Eigen::Index /*rowEnd*/) const {}
  // Row e of the chunk goes to grads + e * stride (parameterCount() scalars).
  virtual void perExampleGradients(ConstRows<Scalar> /*in*/, ConstRows<Scalar> /*outGrad*/,
                                   Scalar* /*grads*/, Eigen::Index /*stride*/,
                                   ChunkScratch<Scalar>& /*scratch*/) const {}
  // ‖∂loss_e/∂θ‖² for each example of the chunk. The default materialises the gradients in
  // the last scratch buffer (which layers must leave to it) and sums their squares.
  virtual void perExampleSquaredNorms(ConstRows<Scalar> in, ConstRows<Scalar> outGrad,
                                      Scalar* norms, ChunkScratch<Scalar>& scratch) const {
    const Eigen::Index p = parameterCount();
    Rows<Scalar> g = scratch.matrix(ChunkScratch<Scalar>::kBufferCount - 1, in.rows(), p);
    perExampleGradients(in, outGrad, g.data(), p, scratch);
    for (Eigen::Index e = 0; e < in.rows(); ++e) norms[e] = g.row(e).squaredNorm();
  }
  // True when the norms cost as much as the per-example gradients themselves (conv layers):
  // the model then keeps those gradients from perExampleGroupSquaredNorms() for
  // weightedGradientSum() instead of computing them twice.
  virtual bool keepsPerExampleGradients() const { return false; }

 protected:
  Layer() = default;
  Layer(const Layer&) = default;
  Layer& operator=(const Layer&) = default;
};

// "1×28×28" for an image, "12 features" for a flat vector: how errors name a shape.
inline std::string shapeText(const data::SampleShape& s) {
  if (!s.isImage) return std::to_string(s.featureCount()) + " features";
  return std::to_string(s.channels) + "×" + std::to_string(s.height) + "×" +
         std::to_string(s.width);
}

}  // namespace epsilon::nn

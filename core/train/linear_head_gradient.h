// The per-example quantities of DP-SGD for a model whose only layer with parameters is its
// last, a Dense layer on a fixed per-example map (scatter-linear: GroupNorm without affine
// map, Flatten, Dense), computed without a Workspace: no layer-by-layer batch copies.
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/privacy/privatizer.h"

namespace epsilon::train {

// For out = W·a + b the example's gradient is δ aᵀ (and δ for b), so its squared norm is
// ‖δ‖²·(‖a‖² + 1) and the weighted sum over the lot is (diag(w)·Δ)ᵀ·A, one matrix product
// (Goodfellow 2015, "Efficient Per-Example Gradient Computations", §2). The parameter-free
// layers before the Dense layer run once per example, chunk by chunk, straight into one
// lot × inputs matrix that only grows, so Poisson lots of changing size allocate nothing.
// Fixed chunks and column blocks make every result independent of the thread count.
class LinearHeadGradient {
 public:
  // True when every layer but the last has no parameters and the last is a Dense layer.
  static bool applies(const nn::Model<float>& model);

  explicit LinearHeadGradient(const nn::Model<float>& model);

  // Pass 1 over the lot: the Dense layer's inputs, the logits, each example's loss and
  // δ = ∂loss/∂logits, and (when `norms`) each example's squared gradient norm into
  // `squaredNorms` (lot × 1). Returns the lot's summed loss.
  double forward(const data::Split& train, std::span<const int> lot, bool norms,
                 privacy::GradientMatrix& squaredNorms);
  // Pass 2: sum (parameterCount() long, overwritten) = Σ_i weights[i]·g_i over the lot.
  void weightedSum(std::span<const float> weights, Eigen::VectorXf& sum);

 private:
  struct ChunkBuffers {
    nn::Matrix<float> ping, pong, logits;
    nn::ChunkScratch<float> scratch;
  };
  void forwardChunk(const data::Split& train, std::span<const int> rows, Eigen::Index begin,
                    ChunkBuffers& buffers);

  const nn::Model<float>& m_model;
  Eigen::Index m_inputs = 0;   // the Dense layer's input width
  Eigen::Index m_outputs = 0;  // classes
  Eigen::Index m_rows = 0;     // examples of the current lot
  std::vector<int> m_prefix;   // the layers before the Dense layer that change a row
  // Row-major lot × inputs and lot × outputs storage that only grows.
  std::vector<float, Eigen::aligned_allocator<float>> m_features, m_deltas, m_losses, m_scaled;
  std::vector<ChunkBuffers> m_chunks;
};

}  // namespace epsilon::train

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
// ‖δ‖²·(‖a‖² + 1) and a weighted sum over examples is (diag(w)·Δ)ᵀ·A, one matrix product
// (Goodfellow 2015, "Efficient Per-Example Gradient Computations", §2). A clip factor
// depends on its own example's norm only, so each fixed chunk of the lot is done in one
// pass while its rows are in cache: the parameter-free layers straight from the split's
// rows, the norms, the privatizer's factors, and the chunk's weighted sum, which are then
// added in chunk order, so the result does not depend on the thread count.
class LinearHeadGradient {
 public:
  // True when every layer but the last has no parameters and the last is a Dense layer.
  static bool applies(const nn::Model<float>& model);

  explicit LinearHeadGradient(const nn::Model<float>& model);

  struct Step {
    double lossSum = 0.0;
    privacy::PrivatizeStats stats;
  };
  // sum (parameterCount() long, overwritten) = Σ_i w_i·g_i over the lot, w_i the factors
  // `privatizer` gives each example's norm (all 1, and no norms, when it is null). With
  // `unitNorms`, each example's pre-clip norm is appended to it.
  Step compute(const data::Split& train, std::span<const int> lot,
               const privacy::Privatizer* privatizer, std::vector<double>* unitNorms,
               Eigen::VectorXf& sum);

 private:
  // Working memory of one thread (a chunk's rows, logits, deltas, norms): one set per
  // thread of the arena, so it stays in cache from chunk to chunk instead of one cold set
  // per chunk of the lot.
  struct ChunkBuffers {
    nn::Matrix<float> features, ping, pong, logits, deltas;
    privacy::GradientMatrix norms, weights;
    nn::ChunkScratch<float> scratch;
  };
  // What a chunk adds to the step besides its partial sum, kept per chunk so the step's
  // totals are added in chunk order.
  struct ChunkResult {
    privacy::PrivatizeStats stats;
    double lossSum = 0.0;
  };
  void forwardChunk(const data::Split& train, std::span<const int> rows, ChunkBuffers& buffers);
  void chunkSum(const data::Split& train, std::span<const int> rows,
                const privacy::Privatizer* privatizer, double* unitNorms, ChunkBuffers& b,
                ChunkResult& result, float* partial);

  const nn::Model<float>& m_model;
  Eigen::Index m_inputs = 0;            // the Dense layer's input width
  Eigen::Index m_outputs = 0;           // classes
  std::vector<int> m_prefix;            // the layers before the Dense layer that change a row
  std::vector<ChunkBuffers> m_buffers;  // per thread of the arena
  std::vector<ChunkResult> m_results;   // per chunk of the lot
  nn::Matrix<float> m_partials;         // one row per chunk: its weighted sum
};

}  // namespace epsilon::train

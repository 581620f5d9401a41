// A feed-forward network as a sequence of layers over one flat parameter vector, with the
// per-example quantities DP-SGD needs: each example's gradient, its norm, and the sum of
// the examples' gradients each scaled by its own factor (Abadi et al. 2016, Alg. 1).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/nn/tensor.h"

namespace epsilon::nn {

// Matrix<Scalar> (row-major, one example per row) and Vector<Scalar> come from tensor.h.

// A contiguous slice of the flat parameter vector owned by one layer (weights and bias
// together); per-layer clipping bounds each group separately.
struct ParameterGroup {
  std::string name;  // e.g. "conv1", "dense2"
  Eigen::Index offset = 0;
  Eigen::Index size = 0;
};

template <class Scalar>
class Layer;

// Everything a backward pass over one batch leaves behind for the per-example queries:
// per-example losses and each layer's cached inputs and output gradients. Reuse one
// Workspace across steps: its buffers keep their memory, so a step allocates no large
// ones. The const queries fill its caches, so a Workspace serves one thread at a time.
template <class Scalar>
struct Workspace {
  Vector<Scalar> losses;  // per example, softmax cross-entropy
  Matrix<Scalar> logits;  // batch × classes (the output of the last layer)
  // Input of layer l, batch rows (but see chunkLocalLayers).
  std::vector<Matrix<Scalar>> activations;
  // dLoss_i/d(output of layer l), batch rows; not computed (left as they were) below the
  // first layer with parameters, whose input gradient nothing needs. Nor, where a conv,
  // a relu and a maxpool layer follow each other (run as one block, conv_relu_pool.h), are
  // the conv's and the relu's outputs (the relu's and the maxpool's entries in activations)
  // and the relu's output gradient.
  std::vector<Matrix<Scalar>> outputGrads;
  // Per layer starting such a block, its pooling's choices (conv_relu_pool.h), batch rows;
  // empty for the other layers.
  std::vector<std::vector<std::uint8_t>> poolChoices;

  // Filled by the queries after backward(): per-chunk scratch memory; the per-example
  // gradients of the layers whose norms need them anyway (conv), batch × group size, kept
  // by perExampleGroupSquaredNorms() so weightedGradientSum() reduces them instead of
  // recomputing them; and the per-chunk partial sums of the layers summed chunk by chunk
  // (conv), chunks × their sizes.
  mutable std::vector<ChunkScratch<Scalar>> chunkScratch;
  mutable std::vector<Matrix<Scalar>> keptGradients;
  // Per layer, what the norm query left for the sums (detail::Kept in model_impl.h);
  // backward() clears it.
  mutable std::vector<char> keptValid;
  mutable Matrix<Scalar> chunkSums;
  // Set by the caller before backward(): backward() then also computes what
  // perExampleGroupSquaredNorms() returns, chunk by chunk right after each chunk's backward
  // pass, while its inputs and output gradients are still in the core's cache (the same
  // values; a tfp-cnn DP epoch 3 % faster, its second unfolding of the convolutions' inputs
  // 7.8 → 3.3 % of the samples). Only for callers that ask for the norms after backward().
  bool normsInBackward = false;
  mutable Matrix<Scalar> groupNorms;  // perExampleGroupSquaredNorms()'s result once computed
  mutable bool normsReady = false;
  // Set by the caller, with normsInBackward, to clip inside backward(): called once per chunk
  // (its index, its rows of group squared norms) as soon as that chunk's norms exist, it gives
  // the chunk's weights, n × clipColumns (1, or one column per group). backward() then sums
  // each kept layer's weighted per-example gradients chunk by chunk while they are in the
  // core's cache (a thread's buffer, never the lot-wide keptGradients) and clippedGradientSum()
  // returns Σ_i w_i g_i. Called from several threads at once, each chunk once; it must start
  // no parallel work, since the thread running a chunk keeps that chunk's values in buffers
  // of its own (threadGradients, and chunkLocalLayers below) until the chunk is done.
  std::function<void(std::size_t chunk, const Matrix<Scalar>& norms, Matrix<Scalar>& weights)>
      clipChunk;
  Eigen::Index clipColumns = 1;
  mutable Matrix<Scalar> clipWeights;                   // batch × clipColumns, from clipChunk
  mutable std::vector<Matrix<Scalar>> threadGradients;  // per thread: a chunk's kept gradients
  // Set by a backward() that clips: the layers below this one are all summed chunk by chunk
  // (conv) or have no parameters, so nothing reads their entries of activations, outputGrads
  // and poolChoices once their chunk is done. Those entries hold one chunk per thread (the
  // thread's rows start at its index × chunkSize()), the same memory from chunk to chunk,
  // which stays in the core's cache. The queries that would read them for the whole batch
  // then refuse; clippedGradientSum() and the norms read none.
  std::size_t chunkLocalLayers = 0;

  Eigen::Index batchSize() const { return losses.size(); }
};

// A moved-from Model may only be assigned to or destroyed.
template <class Scalar>
class Model {
 public:
  Model();
  Model(const Model& other);
  Model& operator=(const Model& other);
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

  // Appends a layer; its parameters get the next slice of the flat vector.
  void add(std::unique_ptr<Layer<Scalar>> layer);
  // Seeded initialisation of every layer (He for ReLU nets, Glorot otherwise).
  void initialise(std::uint64_t seed);

  const data::SampleShape& inputShape() const;
  void setInputShape(const data::SampleShape& shape);
  int outputCount() const;
  Eigen::Index parameterCount() const;
  Vector<Scalar>& parameters();
  const Vector<Scalar>& parameters() const;
  std::vector<ParameterGroup> parameterGroups() const;
  std::string summary() const;  // one line per layer with shapes and parameter counts
  int layerCount() const;
  const Layer<Scalar>& layer(int index) const;
  // Floating-point operations of one example's forward and backward pass (GEMM-like work
  // only: 2 per multiply-add; no input gradient for the first layer with parameters).
  double flopsPerExample() const;

  // Examples per chunk of the parallel loops for a batch of `batch` rows: set by the batch
  // alone, never by the thread count, so sums never depend on the thread count. A batch of
  // kSmallChunksFrom rows or more is cut into chunks of 16: a Poisson lot of about 256 then has
  // 16 or 17 chunks, which two threads share within 3 %, where chunks of 32 (8 or 9 of them)
  // left one thread up to a chunk behind the other (docs/ARCHITECTURE.md, "Eighth pass").
  // Smaller batches (the 2-D teaching sets' lots of 16 to 64) keep chunks of kChunkSize.
  static constexpr Eigen::Index kChunkSize = 32;
  static constexpr Eigen::Index kSmallChunksFrom = 128;
  static constexpr Eigen::Index chunkSize(Eigen::Index batch) {
    return batch >= kSmallChunksFrom ? kChunkSize / 2 : kChunkSize;
  }

  // Inference: logits for each row of x. Thread-safe (const, no shared state).
  Matrix<Scalar> logits(const Matrix<Scalar>& x) const;

  // Forward and backward for a batch; fills `ws` (losses, caches). Parallel over examples
  // with oneTBB in fixed chunks, so results do not depend on the thread count.
  void backward(const Matrix<Scalar>& x, std::span<const int> labels, Workspace<Scalar>& ws) const;

  // After backward(): each example's full gradient, batch × parameterCount (materialised).
  Matrix<Scalar> perExampleGradients(const Workspace<Scalar>& ws) const;
  // After backward(): squared L2 norm of each example's gradient per parameter group,
  // batch × groups, without materialising batch × parameterCount where a layer allows it
  // (Dense: ||δ_i||²·||a_i||² + ||δ_i||²). A conv layer's per-example gradients are
  // computed for their norms anyway; they stay in `ws` for weightedGradientSum().
  Matrix<Scalar> perExampleGroupSquaredNorms(const Workspace<Scalar>& ws) const;
  // After backward(): out = Σ_i weights[i] · g_i (one matrix product per Dense layer; per
  // conv layer one product per block of examples, or a matrix-vector product over the
  // gradients perExampleGroupSquaredNorms() kept). With weights all 1 this is the batch
  // gradient of the summed loss.
  void weightedGradientSum(const Workspace<Scalar>& ws, std::span<const Scalar> weights,
                           Vector<Scalar>& out) const;
  // After backward(), for per-layer clipping: group g's slice of out is
  // Σ_i weights(i, g) · (g_i restricted to group g); weights is batch × groups. One pass,
  // where a loop of weightedGradientSum() calls would compute every slice once per group.
  void groupWeightedGradientSum(const Workspace<Scalar>& ws, const Matrix<Scalar>& weights,
                                Vector<Scalar>& out) const;
  // After backward() with Workspace::clipChunk set: out = Σ_i w_i g_i with the weights
  // clipChunk gave (each group's slice by its own column when there are several). A conv
  // layer's part is the chunks' sums added in chunk order.
  void clippedGradientSum(const Workspace<Scalar>& ws, Vector<Scalar>& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Network presets that adapt to the input shape and class count:
//   "logistic", "mlp" (hidden widths, default {256}), "tfp-cnn", "tfp-cnn-tanh", "lenet5",
//   "pca-mlp" (a fixed DP-PCA projection, Dense(1000), ReLU, Dense(classes); Abadi et al. 2016).
// Throws ModelError naming the preset and the shape when it cannot take the input.
struct PresetOptions {
  std::vector<int> hiddenWidths{256};  // for "mlp"
  // "pca-mlp": k and the d × k DP-PCA projection (null: built, but refuses to run).
  int projectionDims = 60;
  std::shared_ptr<const Eigen::MatrixXd> projection = nullptr;
};
template <class Scalar>
Model<Scalar> buildPreset(const std::string& preset, const data::SampleShape& input, int classes,
                          std::uint64_t seed, const PresetOptions& options = {});
// The parameter count of buildPreset's network, from the same assembly, allocating none of
// them (a network too big for memory is refused before it is built). Throws as buildPreset.
long long presetParameterCount(const std::string& preset, const data::SampleShape& input,
                               int classes, const PresetOptions& options = {});
std::vector<std::string> presetNames();
// "scatter-linear" and "scatter-cnn" train on the scattering features of an image input
// (core/nn/scattering.h): buildPreset takes the image's shape, and the model's input shape
// is scatteringOutputShape(image) (81×7×7 for 1×28×28); the Trainer computes the features.
bool usesScatteringFeatures(const std::string& preset);

extern template class Model<float>;
extern template class Model<double>;

}  // namespace epsilon::nn

// The state behind Model (model.h): its layers, their shapes and parameter slices, and the
// flat parameter vector, shared by model.cpp (building, initialising, forward and backward
// passes) and model_gradients.cpp (per-example gradients, their norms and weighted sums).
#pragma once

#include <tbb/task_arena.h>

#include <memory>
#include <string>
#include <vector>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/conv_relu_pool.h"
#include "core/nn/layer.h"
#include "core/nn/model.h"

namespace epsilon::nn {

namespace detail {

// Keep a layer's per-example gradients between the norm and the sum queries only while
// they fit in this many scalars (256 MiB of floats); beyond it they are recomputed.
inline constexpr Eigen::Index kKeepLimit = Eigen::Index{64} << 20;

// A dense layer's batch-wide products go in blocks of this many weight rows: each block's
// product packs the batch's inputs again (mlp: 256 × 784), so 128 rather than 32 rows packs
// them 2 rather than 8 times a step and still gives 2 threads a block each.
inline constexpr std::size_t kRowBlock = 128;

// Workspace::keptValid: a layer's per-example gradients gone (0), kept for the lot in
// keptGradients (1), or already weighted and summed chunk by chunk into chunkSums by a
// backward() that clipped (2).
enum Kept : char { kNotKept = 0, kKeptForLot = 1, kSummedInChunks = 2 };

// Weights as the layers read them: each group's column contiguous.
template <class Scalar>
using ColumnMajor = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
template <class Scalar>
ColumnMajor<Scalar> columnMajor(const Matrix<Scalar>& weights) {
  return weights;
}

inline std::size_t chunksOf(Eigen::Index count) {
  return chunkCount(static_cast<std::size_t>(count),
                    static_cast<std::size_t>(Model<float>::chunkSize(count)));
}

}  // namespace detail

template <class Scalar>
struct Model<Scalar>::Impl {
  data::SampleShape input = data::SampleShape::features(1);
  std::vector<std::unique_ptr<Layer<Scalar>>> layers;
  std::vector<data::SampleShape> shapes{input};  // shapes[l]: input of layer l; back(): output
  std::vector<Eigen::Index> offsets;             // layer l's slice of the parameters
  Vector<Scalar> params;

  Eigen::Index layerSize(std::size_t l) const { return layers[l]->parameterCount(); }
  // The first layer with parameters (the last layer when none has any): backward() computes
  // no input gradient at or below it, since no parameter gradient needs one.
  std::size_t firstTrainedLayer() const {
    std::size_t l = 0;
    while (l + 1 < layers.size() && layerSize(l) == 0) ++l;
    return l;
  }

  // Recomputes shapes and offsets after the layers were (re)configured.
  void layOut() {
    offsets.assign(layers.size(), 0);
    Eigen::Index total = 0;
    for (std::size_t l = 0; l < layers.size(); ++l) {
      offsets[l] = total;
      total += layers[l]->parameterCount();
    }
    if (params.size() != total) params = Vector<Scalar>::Zero(total);
  }

  // The row where layer l's entries (activations, outputGrads, poolChoices) hold the chunk
  // starting at row b: b itself, or the running thread's rows for a layer below
  // ws.chunkLocalLayers (model.h).
  static Eigen::Index entryRow(const Workspace<Scalar>& ws, std::size_t l, Eigen::Index b) {
    if (l >= ws.chunkLocalLayers) return b;
    return tbb::this_task_arena::current_thread_index() * Model<Scalar>::chunkSize(ws.batchSize());
  }
  // Workspace::chunkLocalLayers for a backward() of `batch` rows into ws, once keptValid is set.
  std::size_t chunkLocalLayers(const Workspace<Scalar>& ws, Eigen::Index batch) const {
    if (!ws.clipChunk || !ws.normsInBackward) return 0;
    const std::size_t end = batchWideLayer(batch);
    std::size_t l = 0, summed = 0;  // summed: past the last layer summed chunk by chunk
    for (; l < end && (layerSize(l) == 0 || ws.keptValid[l] == detail::kSummedInChunks); ++l)
      if (layerSize(l) > 0) summed = l + 1;
    return summed > 0 ? l : 0;  // parameter-free layers alone gain nothing
  }
  // The rows of the chunk [b, b + n) of layer l's input (l = L means the model's output) and
  // of its output gradient.
  ConstRows<Scalar> layerInput(const Workspace<Scalar>& ws, std::size_t l, Eigen::Index b,
                               Eigen::Index n) const {
    return rowBlock(l < layers.size() ? ws.activations[l] : ws.logits, entryRow(ws, l, b), n);
  }
  static ConstRows<Scalar> outputGrad(const Workspace<Scalar>& ws, std::size_t l, Eigen::Index b,
                                      Eigen::Index n) {
    return rowBlock(ws.outputGrads[l], entryRow(ws, l, b), n);
  }
  static Rows<Scalar> outputGrad(Workspace<Scalar>& ws, std::size_t l, Eigen::Index b,
                                 Eigen::Index n) {
    return rowBlock(ws.outputGrads[l], entryRow(ws, l, b), n);
  }

  // blocks[l]: the fused conv → ReLU → max-pool block starting at layer l, if any
  // (conv_relu_pool.h), for backward() and logits(); the layers' own passes give the same.
  using Blocks = std::vector<std::optional<ConvReluPool<Scalar>>>;
  Blocks fusedBlocks() const {
    Blocks blocks(layers.size());
    for (std::size_t l = 0; l + 2 < layers.size(); ++l)
      blocks[l] = ConvReluPool<Scalar>::match(*layers[l], *layers[l + 1], *layers[l + 2]);
    return blocks;
  }
  // The first layer with parameters when it is dense with at least kWideInputs inputs, the
  // batch spans more than one chunk and only parameter-free layers come before it;
  // layers.size() otherwise. The training pass computes that layer for the whole batch by
  // weight rows (forwardByRows), so each block of its weights is packed once per batch
  // rather than once per chunk. Narrow layers (2-D teaching sets) keep the chunked pass: the
  // packing they would save is small, and the other block shapes round their outputs'
  // last bits differently, which moved a sensitive 2-D run (docs/ARCHITECTURE.md, "Sixth
  // pass").
  static constexpr Eigen::Index kWideInputs = 256;
  std::size_t batchWideLayer(Eigen::Index batch) const {
    const std::size_t l = firstTrainedLayer();
    const bool wideDense = layerSize(l) > 0 && layers[l]->gradientRowCount() > 0 &&
                           shapes[l].featureCount() >= kWideInputs;
    return wideDense && batch > Model<Scalar>::kChunkSize ? l : layers.size();
  }
  void sizeWorkspace(Workspace<Scalar>& ws, Eigen::Index batch, const Blocks& blocks) const;
  void forwardByRows(Workspace<Scalar>& ws, std::size_t l) const;
  // Layers [from, to) of rows [b, b + n).
  void forwardChunk(Workspace<Scalar>& ws, const Blocks& blocks, Eigen::Index b, Eigen::Index n,
                    ChunkScratch<Scalar>& scratch, std::size_t from, std::size_t to) const;
  void backwardChunk(Workspace<Scalar>& ws, const Blocks& blocks, Eigen::Index b, Eigen::Index n,
                     ChunkScratch<Scalar>& scratch) const;

  // perExampleGroupSquaredNorms() in three parts, so backward() can run the middle one for
  // each chunk as soon as its output gradients exist (Workspace::normsInBackward).
  void prepareNorms(const Workspace<Scalar>& ws) const;
  // chunkNorms() of chunk c also clips and sums when ws.clipChunk is set.
  void chunkNorms(const Workspace<Scalar>& ws, std::size_t c, Eigen::Index b, Eigen::Index n,
                  ChunkScratch<Scalar>& scratch) const;
  void clipChunk(const Workspace<Scalar>& ws, std::size_t c, Eigen::Index b, Eigen::Index n,
                 const Matrix<Scalar>& gradients) const;
  void finishNorms(const Workspace<Scalar>& ws) const;

  // The column of layer l's slice in ws.chunkSums, or -1 for a layer whose sum has a direct
  // form (dense) or that has no parameters; `width` gets the slices' total.
  std::vector<Eigen::Index> chunkSumColumns(Eigen::Index& width) const {
    std::vector<Eigen::Index> column(layers.size(), -1);
    width = 0;
    for (std::size_t l = 0; l < layers.size(); ++l)
      if (layerSize(l) > 0 && layers[l]->gradientRowCount() == 0) {
        column[l] = width;
        width += layerSize(l);
      }
    return column;
  }
  // Per layer, its group's column of `columns` (batch × groups, each column contiguous).
  std::vector<const Scalar*> groupWeights(const detail::ColumnMajor<Scalar>& columns) const {
    std::vector<const Scalar*> weights(layers.size(), nullptr);
    Eigen::Index g = 0;
    for (std::size_t l = 0; l < layers.size(); ++l)
      if (layerSize(l) > 0) weights[l] = columns.col(g++).data();
    return weights;
  }
  // One task of weightedSum(): parameters [begin, end) of layer l's kept gradients or chunk
  // sums, or its weight rows [begin, end) (dense).
  enum class SumKind { Kept, Rows, ChunkSums };
  struct SumBlock {
    std::size_t layer;
    SumKind kind;
    Eigen::Index begin, end;
  };
  std::vector<SumBlock> sumBlocks(const Workspace<Scalar>& ws, bool useChunkSums,
                                  std::vector<std::size_t>& chunked) const;
  void weightedSum(const Workspace<Scalar>& ws, const std::vector<const Scalar*>& layerWeights,
                   bool useChunkSums, Vector<Scalar>& out) const;
  void chunkedWeightedSum(const Workspace<Scalar>& ws, const std::vector<std::size_t>& chunked,
                          const std::vector<const Scalar*>& layerWeights) const;

  // `lotRows`: the query reads every layer's entries for the whole batch.
  void checkWorkspace(const Workspace<Scalar>& ws, const char* query, bool lotRows) const {
    const Eigen::Index b = ws.batchSize();
    bool ok = ws.activations.size() == layers.size() && ws.outputGrads.size() == layers.size() &&
              ws.keptValid.size() == layers.size() && ws.chunkLocalLayers <= layers.size();
    for (std::size_t l = 0; ok && l < layers.size(); ++l) {
      const bool lot = l >= ws.chunkLocalLayers;  // otherwise one chunk per thread
      ok = (!lot || (ws.activations[l].rows() == b && ws.outputGrads[l].rows() == b)) &&
           ws.activations[l].cols() == shapes[l].featureCount() &&
           ws.outputGrads[l].cols() == shapes[l + 1].featureCount();
    }
    if (!ok)
      throw ModelError(std::string("Model::") + query +
                       ": expected a workspace filled by backward() of this model, found one "
                       "with other layers or shapes");
    if (lotRows && ws.chunkLocalLayers > 0)
      throw ModelError(std::string("Model::") + query +
                       ": this workspace's backward() clipped (Workspace::clipChunk), so it kept "
                       "the first " +
                       std::to_string(ws.chunkLocalLayers) +
                       " layers' values for one chunk at a time only; run backward() without "
                       "clipChunk for this query");
  }
};

}  // namespace epsilon::nn

// Model's per-example queries (model.h): per-example gradients, their per-group squared
// norms, and weighted gradient sums. Like model.cpp, every parallel loop runs over fixed
// chunks whose results are combined in chunk order, so results are bit-identical whatever
// the number of threads.
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/layer.h"
#include "core/nn/model.h"
#include "core/nn/model_impl.h"

namespace epsilon::nn {

using detail::chunksOf;
using detail::ColumnMajor;
using detail::columnMajor;
using detail::kKeepLimit;
using detail::kKeptForLot;
using detail::kNotKept;
using detail::kRowBlock;
using detail::kSummedInChunks;

template <class Scalar>
Matrix<Scalar> Model<Scalar>::perExampleGradients(const Workspace<Scalar>& ws) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "perExampleGradients", true);
  const Eigen::Index batch = ws.batchSize(), p = parameterCount();
  Matrix<Scalar> grads(batch, p);  // every column belongs to exactly one layer's slice
  forEachChunk(static_cast<std::size_t>(batch), chunkSize(batch),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 for (std::size_t l = 0; l < m.layers.size(); ++l)
                   if (m.layerSize(l) > 0)
                     m.layers[l]->perExampleGradients(
                         m.layerInput(ws, l, b, n), rowBlock(ws.outputGrads[l], b, n),
                         grads.data() + b * p + m.offsets[l], p, ws.chunkScratch[c]);
               });
  return grads;
}

template <class Scalar>
Matrix<Scalar> Model<Scalar>::perExampleGroupSquaredNorms(const Workspace<Scalar>& ws) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "perExampleGroupSquaredNorms", !ws.normsReady);
  if (ws.normsReady) return ws.groupNorms;
  m.prepareNorms(ws);
  forEachChunk(static_cast<std::size_t>(ws.batchSize()), chunkSize(ws.batchSize()),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 m.chunkNorms(ws, c, static_cast<Eigen::Index>(begin),
                              static_cast<Eigen::Index>(end - begin), ws.chunkScratch[c]);
               });
  m.finishNorms(ws);
  return ws.groupNorms;
}

// A layer keeps its per-example gradients when its norms need them anyway (conv) and the
// lot's would fit in kKeepLimit: for the lot (keptGradients, reduced by a matrix-vector
// product once the weights are known), or, when the caller clips in the chunk loop
// (ws.clipChunk), only a chunk's at a time in the running thread's buffer.
template <class Scalar>
void Model<Scalar>::Impl::prepareNorms(const Workspace<Scalar>& ws) const {
  const Eigen::Index batch = ws.batchSize();
  const bool clip = static_cast<bool>(ws.clipChunk);
  Eigen::Index groups = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layerSize(l) == 0) continue;
    ++groups;
    const bool keep = layers[l]->keepsPerExampleGradients() && batch * layerSize(l) <= kKeepLimit;
    ws.keptValid[l] = keep && clip ? kSummedInChunks : kNotKept;
    if (keep && !clip)
      ws.keptGradients[l].resize(batch, layerSize(l));
    else
      ws.keptGradients[l].resize(0, 0);
  }
  ws.groupNorms.resize(batch, groups);
  if (!clip) return;
  if (ws.clipColumns != 1 && ws.clipColumns != groups)
    throw ModelError("Model: expected clip weights in 1 column or one per group (" +
                     std::to_string(groups) + "), found " + std::to_string(ws.clipColumns));
  ws.clipWeights.resize(batch, ws.clipColumns);
  Eigen::Index width = 0;
  chunkSumColumns(width);
  ws.chunkSums.resize(static_cast<Eigen::Index>(chunksOf(batch)), width);
  ws.threadGradients.resize(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()));
}

template <class Scalar>
void Model<Scalar>::Impl::chunkNorms(const Workspace<Scalar>& ws, std::size_t c, Eigen::Index b,
                                     Eigen::Index n, ChunkScratch<Scalar>& scratch) const {
  std::array<Scalar, kChunkSize> chunkNorms{};
  // With clipping here, the kept layers' gradients of this chunk side by side: a thread runs
  // one chunk at a time (a chunk starts no parallel work), so its buffer is never shared.
  Matrix<Scalar>* chunkGradients = nullptr;
  if (ws.clipChunk) {
    Eigen::Index width = 0;
    for (std::size_t l = 0; l < layers.size(); ++l)
      if (ws.keptValid[l] == kSummedInChunks) width += layerSize(l);
    chunkGradients =
        &ws.threadGradients[static_cast<std::size_t>(tbb::this_task_arena::current_thread_index())];
    chunkGradients->resize(n, width);
  }
  Eigen::Index g = 0, column = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layerSize(l) == 0) continue;
    const ConstRows<Scalar> in = layerInput(ws, l, b, n);
    const ConstRows<Scalar> delta = outputGrad(ws, l, b, n);
    Matrix<Scalar>& kept = ws.keptGradients[l];
    if (ws.keptValid[l] == kSummedInChunks) {
      layers[l]->perExampleGradients(in, delta, chunkGradients->data() + column,
                                     chunkGradients->cols(), scratch);
      for (Eigen::Index e = 0; e < n; ++e)
        chunkNorms[e] = chunkGradients->row(e).segment(column, layerSize(l)).squaredNorm();
      column += layerSize(l);
    } else if (kept.size() > 0) {
      layers[l]->perExampleGradients(in, delta, kept.data() + b * kept.cols(), kept.cols(),
                                     scratch);
      for (Eigen::Index e = 0; e < n; ++e) chunkNorms[e] = kept.row(b + e).squaredNorm();
    } else {
      layers[l]->perExampleSquaredNorms(in, delta, chunkNorms.data(), scratch);
    }
    for (Eigen::Index e = 0; e < n; ++e) ws.groupNorms(b + e, g) = chunkNorms[e];
    ++g;
  }
  if (chunkGradients) clipChunk(ws, c, b, n, *chunkGradients);
}

// The chunk's weights from ws.clipChunk, then each kept layer's Σ_e w_e g_e over the chunk
// into its slice of the chunk's row of ws.chunkSums, from the gradients still in cache.
template <class Scalar>
void Model<Scalar>::Impl::clipChunk(const Workspace<Scalar>& ws, std::size_t c, Eigen::Index b,
                                    Eigen::Index n, const Matrix<Scalar>& gradients) const {
  const Matrix<Scalar> norms = ws.groupNorms.middleRows(b, n);
  Matrix<Scalar> weights;
  ws.clipChunk(c, norms, weights);
  if (weights.rows() != n || weights.cols() != ws.clipColumns)
    throw ModelError("Model: expected clip weights of " + std::to_string(n) + " × " +
                     std::to_string(ws.clipColumns) + ", found " + std::to_string(weights.rows()) +
                     " × " + std::to_string(weights.cols()));
  ws.clipWeights.middleRows(b, n) = weights;
  Eigen::Index width = 0;
  const std::vector<Eigen::Index> sumColumn = chunkSumColumns(width);
  Scalar* sums = ws.chunkSums.data() + static_cast<Eigen::Index>(c) * width;
  Eigen::Index g = 0, column = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layerSize(l) == 0) continue;
    if (ws.keptValid[l] == kSummedInChunks) {
      Eigen::Map<Vector<Scalar>>(sums + sumColumn[l], layerSize(l)).noalias() =
          gradients.middleCols(column, layerSize(l)).transpose() *
          weights.col(weights.cols() == 1 ? 0 : g);
      column += layerSize(l);
    }
    ++g;
  }
}

template <class Scalar>
void Model<Scalar>::Impl::finishNorms(const Workspace<Scalar>& ws) const {
  for (std::size_t l = 0; l < layers.size(); ++l)
    if (layerSize(l) > 0 && ws.keptValid[l] != kSummedInChunks)
      ws.keptValid[l] = ws.keptGradients[l].size() > 0 ? kKeptForLot : kNotKept;
  ws.normsReady = true;
}

// Three ways to the same sum, each free of scheduling-dependent order:
//  - gradients kept by perExampleGroupSquaredNorms(): out = Gᵀw, split by parameter blocks;
//  - layers whose gradient is one product over the batch (dense): split by output rows, so
//    no partial sums exist at all;
//  - the rest (conv): per-chunk partial sums in ws.chunkSums, added in chunk order, split
//    by parameter blocks. With useChunkSums, a layer a clipping backward() already summed
//    (kSummedInChunks) takes its sums from there; otherwise its chunks are computed again
//    (`chunked`).
// Every layer's blocks form one parallel loop, each block writing its own slice of the sum:
// one layer at a time, a layer of a single block (tfp-cnn's first convolution and both dense
// layers) left the other threads idle.
template <class Scalar>
auto Model<Scalar>::Impl::sumBlocks(const Workspace<Scalar>& ws, bool useChunkSums,
                                    std::vector<std::size_t>& chunked) const
    -> std::vector<SumBlock> {
  constexpr Eigen::Index kParameterBlock = 4096;  // dense layers: detail::kRowBlock rows
  std::vector<SumBlock> blocks;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Eigen::Index size = layerSize(l), rows = layers[l]->gradientRowCount();
    if (size == 0) continue;
    const SumKind kind = ws.keptValid[l] == kKeptForLot ? SumKind::Kept
                         : rows > 0                     ? SumKind::Rows
                                                        : SumKind::ChunkSums;
    if (kind == SumKind::ChunkSums && !(useChunkSums && ws.keptValid[l] == kSummedInChunks))
      chunked.push_back(l);
    const Eigen::Index extent = kind == SumKind::Rows ? rows : size;
    const Eigen::Index step = kind == SumKind::Rows ? Eigen::Index{kRowBlock} : kParameterBlock;
    for (Eigen::Index b = 0; b < extent; b += step)
      blocks.push_back({l, kind, b, std::min(extent, b + step)});
  }
  return blocks;
}

// layerWeights[l] points at the batch's weights for layer l.
template <class Scalar>
void Model<Scalar>::Impl::weightedSum(const Workspace<Scalar>& ws,
                                      const std::vector<const Scalar*>& layerWeights,
                                      bool useChunkSums, Vector<Scalar>& out) const {
  const Eigen::Index batch = ws.batchSize();
  if (batch == 0) {
    out.setZero(params.size());
    return;
  }
  out.resize(params.size());
  std::vector<std::size_t> chunked;
  const std::vector<SumBlock> blocks = sumBlocks(ws, useChunkSums, chunked);
  if (!chunked.empty()) chunkedWeightedSum(ws, chunked, layerWeights);
  Eigen::Index width = 0;
  const std::vector<Eigen::Index> sumColumn = chunkSumColumns(width);
  if (ws.chunkScratch.size() < blocks.size()) ws.chunkScratch.resize(blocks.size());
  forEachChunk(blocks.size(), 1, [&](std::size_t c, std::size_t, std::size_t) {
    const SumBlock& block = blocks[c];
    const std::size_t l = block.layer;
    const Eigen::Index offset = offsets[l], length = block.end - block.begin;
    auto slice = out.segment(offset + block.begin, length);
    switch (block.kind) {
      case SumKind::Kept:
        slice.noalias() = ws.keptGradients[l].middleCols(block.begin, length).transpose() *
                          Eigen::Map<const Vector<Scalar>>(layerWeights[l], batch);
        break;
      case SumKind::Rows:
        layers[l]->weightedGradientRows(
            layerInput(ws, l, 0, batch), rowBlock(ws.outputGrads[l], 0, batch), layerWeights[l],
            block.begin, block.end, out.data() + offset, ws.chunkScratch[c]);
        break;
      case SumKind::ChunkSums: {
        const Eigen::Index column = sumColumn[l] + block.begin;
        slice = ws.chunkSums.row(0).segment(column, length).transpose();
        for (Eigen::Index k = 1; k < ws.chunkSums.rows(); ++k)
          slice += ws.chunkSums.row(k).segment(column, length).transpose();
        break;
      }
    }
  });
}

// The layers without a direct form (conv) that no clipping backward() summed: each chunk of
// examples sums into its own row of ws.chunkSums (weightedSum() adds the rows in chunk
// order). Such a layer's sums are this call's from now on.
template <class Scalar>
void Model<Scalar>::Impl::chunkedWeightedSum(const Workspace<Scalar>& ws,
                                             const std::vector<std::size_t>& chunked,
                                             const std::vector<const Scalar*>& layerWeights) const {
  const Impl& m = *this;
  const Eigen::Index batch = ws.batchSize();
  Eigen::Index width = 0;
  const std::vector<Eigen::Index> sumColumn = m.chunkSumColumns(width);
  const auto chunks = static_cast<Eigen::Index>(chunksOf(batch));
  if (ws.chunkSums.rows() != chunks || ws.chunkSums.cols() != width)
    ws.chunkSums.resize(chunks, width);
  forEachChunk(static_cast<std::size_t>(batch), chunkSize(batch),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 Scalar* row = ws.chunkSums.data() + static_cast<Eigen::Index>(c) * width;
                 for (std::size_t l : chunked) {
                   Scalar* sum = row + sumColumn[l];
                   std::fill(sum, sum + m.layerSize(l), Scalar(0));
                   m.layers[l]->addWeightedGradient(m.layerInput(ws, l, b, n),
                                                    rowBlock(ws.outputGrads[l], b, n),
                                                    layerWeights[l] + b, sum, ws.chunkScratch[c]);
                 }
               });
  for (std::size_t l : chunked) ws.keptValid[l] = kNotKept;
}

template <class Scalar>
void Model<Scalar>::weightedGradientSum(const Workspace<Scalar>& ws,
                                        std::span<const Scalar> weights,
                                        Vector<Scalar>& out) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "weightedGradientSum", true);
  if (static_cast<Eigen::Index>(weights.size()) != ws.batchSize())
    throw ModelError("Model::weightedGradientSum: expected one weight per example (" +
                     std::to_string(ws.batchSize()) + "), found " + std::to_string(weights.size()));
  m.weightedSum(ws, std::vector<const Scalar*>(m.layers.size(), weights.data()), false, out);
}

template <class Scalar>
void Model<Scalar>::groupWeightedGradientSum(const Workspace<Scalar>& ws,
                                             const Matrix<Scalar>& weights,
                                             Vector<Scalar>& out) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "groupWeightedGradientSum", true);
  const auto groups = static_cast<Eigen::Index>(parameterGroups().size());
  if (weights.rows() != ws.batchSize() || weights.cols() != groups)
    throw ModelError("Model::groupWeightedGradientSum: expected weights of " +
                     std::to_string(ws.batchSize()) + " examples × " + std::to_string(groups) +
                     " groups, found " + std::to_string(weights.rows()) + " × " +
                     std::to_string(weights.cols()));
  m.weightedSum(ws, m.groupWeights(columnMajor(weights)), false, out);
}

template <class Scalar>
void Model<Scalar>::clippedGradientSum(const Workspace<Scalar>& ws, Vector<Scalar>& out) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "clippedGradientSum", false);
  if (!ws.clipChunk || !ws.normsReady || ws.clipWeights.rows() != ws.batchSize())
    throw ModelError(
        "Model::clippedGradientSum: expected a workspace whose backward() clipped "
        "(Workspace::clipChunk and normsInBackward set)");
  const ColumnMajor<Scalar> columns = columnMajor(ws.clipWeights);
  const std::vector<const Scalar*> layerWeights =
      columns.cols() == 1 ? std::vector<const Scalar*>(m.layers.size(), columns.data())
                          : m.groupWeights(columns);
  m.weightedSum(ws, layerWeights, true, out);
}

// Model<Scalar> itself is instantiated in model.cpp; the members defined here are instantiated
// here.
template Matrix<float> Model<float>::perExampleGradients(const Workspace<float>&) const;
template Matrix<float> Model<float>::perExampleGroupSquaredNorms(const Workspace<float>&) const;
template void Model<float>::weightedGradientSum(const Workspace<float>&, std::span<const float>,
                                                Vector<float>&) const;
template void Model<float>::groupWeightedGradientSum(const Workspace<float>&, const Matrix<float>&,
                                                     Vector<float>&) const;
template void Model<float>::clippedGradientSum(const Workspace<float>&, Vector<float>&) const;
template Matrix<double> Model<double>::perExampleGradients(const Workspace<double>&) const;
template Matrix<double> Model<double>::perExampleGroupSquaredNorms(const Workspace<double>&) const;
template void Model<double>::weightedGradientSum(const Workspace<double>&, std::span<const double>,
                                                 Vector<double>&) const;
template void Model<double>::groupWeightedGradientSum(const Workspace<double>&,
                                                      const Matrix<double>&, Vector<double>&) const;
template void Model<double>::clippedGradientSum(const Workspace<double>&, Vector<double>&) const;
// backward() (model.cpp) runs the norms' parts chunk by chunk.
template void Model<float>::Impl::prepareNorms(const Workspace<float>&) const;
template void Model<float>::Impl::chunkNorms(const Workspace<float>&, std::size_t, Eigen::Index,
                                             Eigen::Index, ChunkScratch<float>&) const;
template void Model<float>::Impl::finishNorms(const Workspace<float>&) const;
template void Model<double>::Impl::prepareNorms(const Workspace<double>&) const;
template void Model<double>::Impl::chunkNorms(const Workspace<double>&, std::size_t, Eigen::Index,
                                              Eigen::Index, ChunkScratch<double>&) const;
template void Model<double>::Impl::finishNorms(const Workspace<double>&) const;

}  // namespace epsilon::nn

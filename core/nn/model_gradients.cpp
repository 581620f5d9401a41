// Model's per-example queries (model.h): per-example gradients, their per-group squared
// norms, and weighted gradient sums. Like model.cpp, every parallel loop runs over fixed
// chunks whose results are combined in chunk order, so results are bit-identical whatever
// the number of threads.
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
using detail::kKeepLimit;
using detail::kRowBlock;

template <class Scalar>
Matrix<Scalar> Model<Scalar>::perExampleGradients(const Workspace<Scalar>& ws) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "perExampleGradients");
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
  m.checkWorkspace(ws, "perExampleGroupSquaredNorms");
  if (ws.normsReady) return ws.groupNorms;
  m.prepareNorms(ws);
  forEachChunk(static_cast<std::size_t>(ws.batchSize()), chunkSize(ws.batchSize()),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 m.chunkNorms(ws, static_cast<Eigen::Index>(begin),
                              static_cast<Eigen::Index>(end - begin), ws.chunkScratch[c]);
               });
  m.finishNorms(ws);
  return ws.groupNorms;
}

template <class Scalar>
void Model<Scalar>::Impl::prepareNorms(const Workspace<Scalar>& ws) const {
  const Eigen::Index batch = ws.batchSize();
  Eigen::Index groups = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layerSize(l) == 0) continue;
    ++groups;
    const bool keep = layers[l]->keepsPerExampleGradients() && batch * layerSize(l) <= kKeepLimit;
    ws.keptValid[l] = 0;
    if (keep)
      ws.keptGradients[l].resize(batch, layerSize(l));
    else
      ws.keptGradients[l].resize(0, 0);
  }
  ws.groupNorms.resize(batch, groups);
}

template <class Scalar>
void Model<Scalar>::Impl::chunkNorms(const Workspace<Scalar>& ws, Eigen::Index b, Eigen::Index n,
                                     ChunkScratch<Scalar>& scratch) const {
  std::array<Scalar, kChunkSize> chunkNorms{};
  Eigen::Index g = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layerSize(l) == 0) continue;
    const ConstRows<Scalar> in = layerInput(ws, l, b, n);
    const ConstRows<Scalar> delta = rowBlock(ws.outputGrads[l], b, n);
    Matrix<Scalar>& kept = ws.keptGradients[l];
    if (kept.size() > 0) {
      layers[l]->perExampleGradients(in, delta, kept.data() + b * kept.cols(), kept.cols(),
                                     scratch);
      for (Eigen::Index e = 0; e < n; ++e) chunkNorms[e] = kept.row(b + e).squaredNorm();
    } else {
      layers[l]->perExampleSquaredNorms(in, delta, chunkNorms.data(), scratch);
    }
    for (Eigen::Index e = 0; e < n; ++e) ws.groupNorms(b + e, g) = chunkNorms[e];
    ++g;
  }
}

template <class Scalar>
void Model<Scalar>::Impl::finishNorms(const Workspace<Scalar>& ws) const {
  for (std::size_t l = 0; l < layers.size(); ++l)
    if (layerSize(l) > 0) ws.keptValid[l] = ws.keptGradients[l].size() > 0;
  ws.normsReady = true;
}

// Three ways to the same sum, each free of scheduling-dependent order:
//  - gradients kept by perExampleGroupSquaredNorms(): out = Gᵀw, split by parameter blocks;
//  - layers whose gradient is one product over the batch (dense): split by output rows, so
//    no partial sums exist at all;
//  - the rest (conv): per-chunk partial sums, added in chunk order.
// layerWeights[l] points at the batch's weights for layer l.
template <class Scalar>
void Model<Scalar>::Impl::weightedSum(const Workspace<Scalar>& ws,
                                      const std::vector<const Scalar*>& layerWeights,
                                      Vector<Scalar>& out) const {
  constexpr std::size_t kParameterBlock = 4096;  // dense layers: detail::kRowBlock rows
  const Impl& m = *this;
  const Eigen::Index batch = ws.batchSize(), p = params.size();
  if (batch == 0) {
    out.setZero(p);
    return;
  }
  out.resize(p);
  // Every kept layer's parameter blocks and every dense layer's row blocks form one parallel
  // loop, each block writing its own slice of `out`: one layer at a time, a layer of a single
  // block (tfp-cnn's first convolution and both dense layers) left the other threads idle.
  struct Block {
    std::size_t layer;
    Eigen::Index begin, end;
  };
  std::vector<Block> blocks;
  std::vector<std::size_t> chunked;
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const Eigen::Index size = m.layerSize(l);
    if (size == 0) continue;
    const Eigen::Index rows = ws.keptValid[l] ? 0 : m.layers[l]->gradientRowCount();
    if (!ws.keptValid[l] && rows == 0) {
      chunked.push_back(l);
      continue;
    }
    const Eigen::Index extent = ws.keptValid[l] ? size : rows;
    const auto step = static_cast<Eigen::Index>(ws.keptValid[l] ? kParameterBlock : kRowBlock);
    for (Eigen::Index b = 0; b < extent; b += step)
      blocks.push_back({l, b, std::min(extent, b + step)});
  }
  if (ws.chunkScratch.size() < blocks.size()) ws.chunkScratch.resize(blocks.size());
  forEachChunk(blocks.size(), 1, [&](std::size_t c, std::size_t, std::size_t) {
    const Block& block = blocks[c];
    const std::size_t l = block.layer;
    const Eigen::Index offset = m.offsets[l];
    if (ws.keptValid[l]) {
      const Eigen::Map<const Vector<Scalar>> w(layerWeights[l], batch);
      out.segment(offset + block.begin, block.end - block.begin).noalias() =
          ws.keptGradients[l].middleCols(block.begin, block.end - block.begin).transpose() * w;
    } else {
      m.layers[l]->weightedGradientRows(
          m.layerInput(ws, l, 0, batch), rowBlock(ws.outputGrads[l], 0, batch), layerWeights[l],
          block.begin, block.end, out.data() + offset, ws.chunkScratch[c]);
    }
  });
  if (!chunked.empty()) chunkedWeightedSum(ws, chunked, layerWeights, out);
}

// The layers without a direct form (conv): each chunk of examples sums into its own row of
// ws.chunkSums, and the rows are added in chunk order.
template <class Scalar>
void Model<Scalar>::Impl::chunkedWeightedSum(const Workspace<Scalar>& ws,
                                             const std::vector<std::size_t>& chunked,
                                             const std::vector<const Scalar*>& layerWeights,
                                             Vector<Scalar>& out) const {
  const Impl& m = *this;
  const Eigen::Index batch = ws.batchSize();
  Eigen::Index chunkedSize = 0;
  for (std::size_t l : chunked) chunkedSize += m.layerSize(l);
  const std::size_t chunks = chunksOf(batch);
  ws.chunkSums.resize(static_cast<Eigen::Index>(chunks), chunkedSize);
  forEachChunk(static_cast<std::size_t>(batch), chunkSize(batch),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 Scalar* sum = ws.chunkSums.data() + static_cast<Eigen::Index>(c) * chunkedSize;
                 std::fill(sum, sum + chunkedSize, Scalar(0));
                 for (std::size_t l : chunked) {
                   m.layers[l]->addWeightedGradient(m.layerInput(ws, l, b, n),
                                                    rowBlock(ws.outputGrads[l], b, n),
                                                    layerWeights[l] + b, sum, ws.chunkScratch[c]);
                   sum += m.layerSize(l);
                 }
               });
  Eigen::Index local = 0;
  for (std::size_t l : chunked) {
    auto slice = out.segment(m.offsets[l], m.layerSize(l));
    slice = ws.chunkSums.row(0).segment(local, m.layerSize(l)).transpose();
    for (std::size_t c = 1; c < chunks; ++c)
      slice +=
          ws.chunkSums.row(static_cast<Eigen::Index>(c)).segment(local, m.layerSize(l)).transpose();
    local += m.layerSize(l);
  }
}

template <class Scalar>
void Model<Scalar>::weightedGradientSum(const Workspace<Scalar>& ws,
                                        std::span<const Scalar> weights,
                                        Vector<Scalar>& out) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "weightedGradientSum");
  if (static_cast<Eigen::Index>(weights.size()) != ws.batchSize())
    throw ModelError("Model::weightedGradientSum: expected one weight per example (" +
                     std::to_string(ws.batchSize()) + "), found " + std::to_string(weights.size()));
  m.weightedSum(ws, std::vector<const Scalar*>(m.layers.size(), weights.data()), out);
}

template <class Scalar>
void Model<Scalar>::groupWeightedGradientSum(const Workspace<Scalar>& ws,
                                             const Matrix<Scalar>& weights,
                                             Vector<Scalar>& out) const {
  const Impl& m = *m_impl;
  m.checkWorkspace(ws, "groupWeightedGradientSum");
  const auto groups = static_cast<Eigen::Index>(parameterGroups().size());
  if (weights.rows() != ws.batchSize() || weights.cols() != groups)
    throw ModelError("Model::groupWeightedGradientSum: expected weights of " +
                     std::to_string(ws.batchSize()) + " examples × " + std::to_string(groups) +
                     " groups, found " + std::to_string(weights.rows()) + " × " +
                     std::to_string(weights.cols()));
  // Each group's weights contiguous, as the layers read them.
  const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> columns = weights;
  std::vector<const Scalar*> layerWeights(m.layers.size(), nullptr);
  Eigen::Index g = 0;
  for (std::size_t l = 0; l < m.layers.size(); ++l)
    if (m.layerSize(l) > 0) layerWeights[l] = columns.col(g++).data();
  m.weightedSum(ws, layerWeights, out);
}

// Model<Scalar> itself is instantiated in model.cpp; the members defined here are instantiated
// here.
template Matrix<float> Model<float>::perExampleGradients(const Workspace<float>&) const;
template Matrix<float> Model<float>::perExampleGroupSquaredNorms(const Workspace<float>&) const;
template void Model<float>::weightedGradientSum(const Workspace<float>&, std::span<const float>,
                                                Vector<float>&) const;
template void Model<float>::groupWeightedGradientSum(const Workspace<float>&, const Matrix<float>&,
                                                     Vector<float>&) const;
template Matrix<double> Model<double>::perExampleGradients(const Workspace<double>&) const;
template Matrix<double> Model<double>::perExampleGroupSquaredNorms(const Workspace<double>&) const;
template void Model<double>::weightedGradientSum(const Workspace<double>&, std::span<const double>,
                                                 Vector<double>&) const;
template void Model<double>::groupWeightedGradientSum(const Workspace<double>&,
                                                      const Matrix<double>&, Vector<double>&) const;
// backward() (model.cpp) runs the norms' parts chunk by chunk.
template void Model<float>::Impl::prepareNorms(const Workspace<float>&) const;
template void Model<float>::Impl::chunkNorms(const Workspace<float>&, Eigen::Index, Eigen::Index,
                                             ChunkScratch<float>&) const;
template void Model<float>::Impl::finishNorms(const Workspace<float>&) const;
template void Model<double>::Impl::prepareNorms(const Workspace<double>&) const;
template void Model<double>::Impl::chunkNorms(const Workspace<double>&, Eigen::Index, Eigen::Index,
                                              ChunkScratch<double>&) const;
template void Model<double>::Impl::finishNorms(const Workspace<double>&) const;

}  // namespace epsilon::nn

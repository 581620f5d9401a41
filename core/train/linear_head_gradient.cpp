#include "core/train/linear_head_gradient.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/layer.h"
#include "core/nn/loss.h"

namespace epsilon::train {

namespace {

// Examples per chunk: a chunk's 128 rows of 3969 features (2 MiB) stay in cache from the
// parameter-free layers to the chunk's weighted sum; a lot of 8192 has 64 partial sums.
constexpr std::size_t kChunk = 128;
// Parameters per task when the chunks' partial sums are added up.
constexpr std::size_t kParameterBlock = 4096;

}  // namespace

bool LinearHeadGradient::applies(const nn::Model<float>& model) {
  const int layers = model.layerCount();
  if (layers < 1) return false;
  const nn::Layer<float>& last = model.layer(layers - 1);
  if (last.kind() != "dense" || last.parameterCount() != model.parameterCount()) return false;
  // Every earlier layer keeps the feature count, so the chunk buffers have one width.
  return last.fanIn() == model.inputShape().featureCount();
}

LinearHeadGradient::LinearHeadGradient(const nn::Model<float>& model) : m_model(model) {
  if (!applies(model))
    throw ModelError(
        "LinearHeadGradient: expected a model whose only layer with parameters is a final "
        "dense layer on width-preserving layers, found:\n" +
        model.summary());
  m_inputs = model.layer(model.layerCount() - 1).fanIn();
  m_outputs = model.outputCount();
  for (int l = 0; l + 1 < model.layerCount(); ++l)
    if (model.layer(l).kind() != "flatten") m_prefix.push_back(l);
}

// Each example goes from its row of the split through the parameter-free layers straight
// into its row of the chunk's matrix: no gathered copy, and Flatten (the identity on a
// row-major C×H×W row) is skipped.
void LinearHeadGradient::forwardChunk(const data::Split& train, std::span<const int> rows,
                                      ChunkBuffers& buffers) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  buffers.features.resize(n, m_inputs);
  const float* params = m_model.parameters().data();
  buffers.ping.resize(1, m_inputs);
  buffers.pong.resize(1, m_inputs);
  for (Eigen::Index i = 0; i < n; ++i) {
    const float* in = train.features.row(rows[static_cast<std::size_t>(i)]).data();
    float* target = buffers.features.row(i).data();
    if (m_prefix.empty()) std::copy_n(in, m_inputs, target);
    for (std::size_t k = 0; k < m_prefix.size(); ++k) {
      float* out = k + 1 == m_prefix.size() ? target
                   : k % 2 == 0             ? buffers.ping.data()
                                            : buffers.pong.data();
      m_model.layer(m_prefix[k])
          .forward(params, nn::ConstRows<float>(in, 1, m_inputs), nn::Rows<float>(out, 1, m_inputs),
                   buffers.scratch);
      in = out;
    }
  }
  buffers.logits.resize(n, m_outputs);
  m_model.layer(m_model.layerCount() - 1)
      .forward(params, nn::rowBlock(std::as_const(buffers.features), 0, n),
               nn::rowBlock(buffers.logits, 0, n), buffers.scratch);
}

// One chunk: forward, δ, norms and clip factors, then Σ w_i δ_i a_iᵀ (the weights,
// row-major) and Σ w_i δ_i (the bias) into `partial`.
void LinearHeadGradient::chunkSum(const data::Split& train, std::span<const int> rows,
                                  const privacy::Privatizer* privatizer, double* unitNorms,
                                  ChunkBuffers& b, ChunkResult& result, float* partial) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  const nn::Layer<float>& dense = m_model.layer(m_model.layerCount() - 1);
  forwardChunk(train, rows, b);
  int labels[kChunk];
  float losses[kChunk];
  for (std::size_t i = 0; i < rows.size(); ++i)
    labels[i] = train.labels[static_cast<std::size_t>(rows[i])];
  b.deltas.resize(n, m_outputs);
  nn::softmaxCrossEntropy<float>(nn::rowBlock(std::as_const(b.logits), 0, n), labels, losses,
                                 nn::rowBlock(b.deltas, 0, n));
  result.lossSum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) result.lossSum += losses[i];
  result.stats = {};
  if (privatizer) {
    b.norms.resize(n, 1);
    dense.perExampleSquaredNorms(nn::rowBlock(std::as_const(b.features), 0, n),
                                 nn::rowBlock(std::as_const(b.deltas), 0, n), b.norms.data(),
                                 b.scratch);
    if (unitNorms)
      for (Eigen::Index i = 0; i < n; ++i)
        unitNorms[i] = std::sqrt(static_cast<double>(b.norms(i, 0)));
    privatizer->clipWeights(b.norms, b.weights, result.stats);
    b.deltas = b.weights.col(0).asDiagonal() * b.deltas;
  } else {
    result.stats.units += n;
  }
  // This chunk's Σ w_i δ_i a_iᵀ (weights, row-major) and Σ w_i δ_i (bias).
  nn::Rows<float>(partial, m_outputs, m_inputs).noalias() = b.deltas.transpose() * b.features;
  Eigen::Map<Eigen::RowVectorXf>(partial + m_outputs * m_inputs, m_outputs) =
      b.deltas.colwise().sum();
}

LinearHeadGradient::Step LinearHeadGradient::compute(const data::Split& train,
                                                     std::span<const int> lot,
                                                     const privacy::Privatizer* privatizer,
                                                     std::vector<double>* unitNorms,
                                                     Eigen::VectorXf& sum) {
  const Eigen::Index p = m_model.parameterCount();
  sum.setZero(p);
  Step step;
  if (lot.empty()) return step;
  const std::size_t chunks = chunkCount(lot.size(), kChunk);
  if (m_results.size() < chunks) m_results.resize(chunks);
  const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  if (m_buffers.size() < threads) m_buffers.resize(threads);
  if (m_partials.rows() < static_cast<Eigen::Index>(chunks) || m_partials.cols() != p)
    m_partials.resize(static_cast<Eigen::Index>(chunks), p);
  const std::size_t normsBefore = unitNorms ? unitNorms->size() : 0;
  if (unitNorms) unitNorms->resize(normsBefore + lot.size());
  forEachChunk(lot.size(), kChunk, [&](std::size_t c, std::size_t begin, std::size_t end) {
    // A thread runs one chunk at a time (the chunk starts no parallel work of its own), so
    // its buffers are never shared.
    ChunkBuffers& b =
        m_buffers[static_cast<std::size_t>(tbb::this_task_arena::current_thread_index())];
    double* norms = unitNorms ? unitNorms->data() + normsBefore + begin : nullptr;
    chunkSum(train, lot.subspan(begin, end - begin), privatizer, norms, b, m_results[c],
             m_partials.row(static_cast<Eigen::Index>(c)).data());
  });
  forEachChunk(static_cast<std::size_t>(p), kParameterBlock,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto j = static_cast<Eigen::Index>(begin),
                            len = static_cast<Eigen::Index>(end - begin);
                 for (std::size_t c = 0; c < chunks; ++c)
                   sum.segment(j, len) +=
                       m_partials.row(static_cast<Eigen::Index>(c)).segment(j, len).transpose();
               });
  for (std::size_t c = 0; c < chunks; ++c) {
    step.lossSum += m_results[c].lossSum;
    step.stats.merge(m_results[c].stats);
  }
  return step;
}

}  // namespace epsilon::train

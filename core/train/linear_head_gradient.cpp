#include "core/train/linear_head_gradient.h"

#include <algorithm>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/layer.h"
#include "core/nn/loss.h"

namespace epsilon::train {

namespace {

// Examples per chunk of pass 1: a chunk's 64 rows of 3969 features (1 MiB) stay in cache
// while the parameter-free layers and the Dense layer pass over them.
constexpr std::size_t kChunk = 64;
// Parameter columns per task of pass 2: each task reads its columns of every example.
constexpr std::size_t kColumnBlock = 256;

// Grows `v` to at least `size` floats (never shrinks: a Poisson lot of another size reuses
// the pages already touched) and returns its data.
float* atLeast(std::vector<float, Eigen::aligned_allocator<float>>& v, Eigen::Index size) {
  if (v.size() < static_cast<std::size_t>(size))
    v.resize(static_cast<std::size_t>(size + size / 16));
  return v.data();
}

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
// into its row of the lot's matrix: no gathered copy, and Flatten (the identity on a
// row-major C×H×W row) is skipped.
void LinearHeadGradient::forwardChunk(const data::Split& train, std::span<const int> rows,
                                      Eigen::Index begin, ChunkBuffers& buffers) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  float* features = m_features.data() + begin * m_inputs;
  const float* params = m_model.parameters().data();
  buffers.ping.resize(1, m_inputs);
  buffers.pong.resize(1, m_inputs);
  for (Eigen::Index i = 0; i < n; ++i) {
    const float* in = train.features.row(rows[static_cast<std::size_t>(i)]).data();
    float* target = features + i * m_inputs;
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
      .forward(params, nn::ConstRows<float>(features, n, m_inputs),
               nn::rowBlock(buffers.logits, 0, n), buffers.scratch);
}

double LinearHeadGradient::forward(const data::Split& train, std::span<const int> lot, bool norms,
                                   privacy::GradientMatrix& squaredNorms) {
  m_rows = static_cast<Eigen::Index>(lot.size());
  atLeast(m_features, m_rows * m_inputs);
  atLeast(m_deltas, m_rows * m_outputs);
  atLeast(m_losses, m_rows);
  if (norms) squaredNorms.resize(m_rows, 1);
  const std::size_t chunks = chunkCount(lot.size(), kChunk);
  if (m_chunks.size() < chunks) m_chunks.resize(chunks);
  const nn::Layer<float>& dense = m_model.layer(m_model.layerCount() - 1);
  forEachChunk(lot.size(), kChunk, [&](std::size_t c, std::size_t begin, std::size_t end) {
    const auto b = static_cast<Eigen::Index>(begin), n = static_cast<Eigen::Index>(end - begin);
    ChunkBuffers& buffers = m_chunks[c];
    const auto rows = lot.subspan(begin, end - begin);
    forwardChunk(train, rows, b, buffers);
    int labels[kChunk];
    for (std::size_t i = 0; i < rows.size(); ++i)
      labels[i] = train.labels[static_cast<std::size_t>(rows[i])];
    float* delta = m_deltas.data() + b * m_outputs;
    nn::softmaxCrossEntropy<float>(nn::rowBlock(std::as_const(buffers.logits), 0, n), labels,
                                   m_losses.data() + b, nn::Rows<float>(delta, n, m_outputs));
    if (norms)
      dense.perExampleSquaredNorms(
          nn::ConstRows<float>(m_features.data() + b * m_inputs, n, m_inputs),
          nn::ConstRows<float>(delta, n, m_outputs), squaredNorms.data() + b, buffers.scratch);
  });
  double total = 0.0;
  for (Eigen::Index i = 0; i < m_rows; ++i) total += m_losses[static_cast<std::size_t>(i)];
  return total;
}

// Σ_i w_i δ_i a_iᵀ = (diag(w)·Δ)ᵀ·A and Σ_i w_i δ_i for the bias (Goodfellow 2015, §2),
// split by blocks of A's columns: every parameter is written by one task, no partial sums.
void LinearHeadGradient::weightedSum(std::span<const float> weights, Eigen::VectorXf& sum) {
  if (static_cast<Eigen::Index>(weights.size()) != m_rows)
    throw ModelError("LinearHeadGradient::weightedSum: expected one weight per example (" +
                     std::to_string(m_rows) + "), found " + std::to_string(weights.size()));
  sum.setZero(m_model.parameterCount());
  if (m_rows == 0) return;
  const nn::ConstRows<float> deltas(m_deltas.data(), m_rows, m_outputs);
  const nn::ConstRows<float> inputs(m_features.data(), m_rows, m_inputs);
  nn::Rows<float> scaled(atLeast(m_scaled, m_rows * m_outputs), m_rows, m_outputs);
  scaled.noalias() =
      Eigen::Map<const Eigen::VectorXf>(weights.data(), m_rows).asDiagonal() * deltas;
  nn::Rows<float> gradient(sum.data(), m_outputs, m_inputs);
  forEachChunk(static_cast<std::size_t>(m_inputs), kColumnBlock,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto j = static_cast<Eigen::Index>(begin),
                            len = static_cast<Eigen::Index>(end - begin);
                 gradient.middleCols(j, len).noalias() =
                     scaled.transpose() * inputs.middleCols(j, len);
               });
  sum.tail(m_outputs) = scaled.colwise().sum().transpose();
}

}  // namespace epsilon::train

// Model: the layer sequence, its flat parameter vector, and the batch passes. Every parallel
// loop runs over fixed chunks (core/common/parallel.h) — chunkSize(batch) examples, or a fixed
// block of parameters or weight rows — and a chunk writes only its own rows, its own slice
// of the result or its own partial-sum slot, with slots added in chunk order, so every
// result is bit-identical whatever the number of threads.
#include "core/nn/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <utility>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/nn/layer.h"
#include "core/nn/loss.h"
#include "core/nn/model_impl.h"

namespace epsilon::nn {

using detail::chunksOf;

template <class Scalar>
Model<Scalar>::Model() : m_impl(std::make_unique<Impl>()) {}

template <class Scalar>
Model<Scalar>::Model(const Model& other) : m_impl(std::make_unique<Impl>()) {
  *this = other;
}

template <class Scalar>
Model<Scalar>& Model<Scalar>::operator=(const Model& other) {
  if (this == &other) return *this;
  auto copy = std::make_unique<Impl>();
  copy->input = other.m_impl->input;
  for (const auto& layer : other.m_impl->layers) copy->layers.push_back(layer->clone());
  copy->shapes = other.m_impl->shapes;
  copy->offsets = other.m_impl->offsets;
  copy->params = other.m_impl->params;
  m_impl = std::move(copy);
  return *this;
}

template <class Scalar>
Model<Scalar>::Model(Model&&) noexcept = default;
template <class Scalar>
Model<Scalar>& Model<Scalar>::operator=(Model&&) noexcept = default;
template <class Scalar>
Model<Scalar>::~Model() = default;

template <class Scalar>
void Model<Scalar>::add(std::unique_ptr<Layer<Scalar>> layer) {
  if (!layer) throw ModelError("Model::add: expected a layer, found a null pointer");
  const data::SampleShape out = layer->configure(m_impl->shapes.back());
  m_impl->layers.push_back(std::move(layer));
  m_impl->shapes.push_back(out);
  const Eigen::Index old = m_impl->params.size();
  m_impl->offsets.push_back(old);
  m_impl->params.conservativeResize(old + m_impl->layers.back()->parameterCount());
  m_impl->params.tail(m_impl->params.size() - old).setZero();
}

// Weights: He et al. (2015), "Delving Deep into Rectifiers", eq. 10 — N(0, 2/fan_in) — when
// a ReLU follows the layer; otherwise Glorot & Bengio (2010), "Understanding the difficulty
// of training deep feedforward neural networks", eq. 16 — U(±√(6/(fan_in + fan_out))).
// Biases start at 0. Layer l draws from its own Philox sub-stream (seed, l).
template <class Scalar>
void Model<Scalar>::initialise(std::uint64_t seed) {
  auto& layers = m_impl->layers;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer<Scalar>& layer = *layers[l];
    if (layer.parameterCount() == 0) continue;
    const PhiloxStream stream(seed, RandomPurpose::Initialisation, static_cast<std::uint32_t>(l));
    Scalar* p = m_impl->params.data() + m_impl->offsets[l];
    const bool he = l + 1 < layers.size() && layers[l + 1]->kind() == "relu";
    const double fanIn = double(layer.fanIn()), fanOut = double(layer.fanOut());
    const double scale = he ? std::sqrt(2.0 / fanIn) : std::sqrt(6.0 / (fanIn + fanOut));
    for (Eigen::Index j = 0; j < layer.weightCount(); ++j) {
      const auto u = static_cast<std::uint64_t>(j);
      p[j] = static_cast<Scalar>(he ? scale * stream.normal(u)
                                    : scale * (2.0 * stream.uniform(u) - 1.0));
    }
    std::fill(p + layer.weightCount(), p + layer.parameterCount(), Scalar(0));
  }
}

template <class Scalar>
const data::SampleShape& Model<Scalar>::inputShape() const {
  return m_impl->input;
}

// Reconfigures every layer for the new shape (on copies, so a failure changes nothing).
// The parameters are kept when their count is unchanged, otherwise zeroed: initialise again.
template <class Scalar>
void Model<Scalar>::setInputShape(const data::SampleShape& shape) {
  if (shape.channels < 1 || shape.height < 1 || shape.width < 1)
    throw ModelError("Model::setInputShape: expected channels, height and width >= 1, found " +
                     std::to_string(shape.channels) + "×" + std::to_string(shape.height) + "×" +
                     std::to_string(shape.width));
  std::vector<std::unique_ptr<Layer<Scalar>>> layers;
  std::vector<data::SampleShape> shapes{shape};
  for (const auto& layer : m_impl->layers) {
    layers.push_back(layer->clone());
    shapes.push_back(layers.back()->configure(shapes.back()));
  }
  m_impl->input = shape;
  m_impl->layers = std::move(layers);
  m_impl->shapes = std::move(shapes);
  m_impl->layOut();
}

template <class Scalar>
int Model<Scalar>::outputCount() const {
  return m_impl->shapes.back().featureCount();
}

template <class Scalar>
Eigen::Index Model<Scalar>::parameterCount() const {
  return m_impl->params.size();
}

template <class Scalar>
Vector<Scalar>& Model<Scalar>::parameters() {
  return m_impl->params;
}

template <class Scalar>
const Vector<Scalar>& Model<Scalar>::parameters() const {
  return m_impl->params;
}

template <class Scalar>
std::vector<ParameterGroup> Model<Scalar>::parameterGroups() const {
  std::vector<ParameterGroup> groups;
  std::vector<std::pair<std::string, int>> counters;
  for (std::size_t l = 0; l < m_impl->layers.size(); ++l) {
    const Layer<Scalar>& layer = *m_impl->layers[l];
    if (layer.parameterCount() == 0) continue;
    const std::string kind = layer.kind();
    auto it = std::find_if(counters.begin(), counters.end(),
                           [&](const auto& c) { return c.first == kind; });
    if (it == counters.end()) it = counters.insert(counters.end(), {kind, 0});
    groups.push_back(
        {kind + std::to_string(++it->second), m_impl->offsets[l], layer.parameterCount()});
  }
  return groups;
}

template <class Scalar>
std::string Model<Scalar>::summary() const {
  std::ostringstream out;
  for (std::size_t l = 0; l < m_impl->layers.size(); ++l) {
    const Layer<Scalar>& layer = *m_impl->layers[l];
    out << layer.describe() << ": " << shapeText(m_impl->shapes[l]) << " → "
        << shapeText(m_impl->shapes[l + 1]);
    if (layer.parameterCount() > 0) out << ", " << layer.parameterCount() << " parameters";
    out << '\n';
  }
  out << "total: " << parameterCount() << " parameters\n";
  return out.str();
}

template <class Scalar>
int Model<Scalar>::layerCount() const {
  return static_cast<int>(m_impl->layers.size());
}

template <class Scalar>
const Layer<Scalar>& Model<Scalar>::layer(int index) const {
  if (index < 0 || index >= layerCount())
    throw ModelError("Model::layer: expected an index in [0, " + std::to_string(layerCount()) +
                     "), found " + std::to_string(index));
  return *m_impl->layers[static_cast<std::size_t>(index)];
}

template <class Scalar>
double Model<Scalar>::flopsPerExample() const {
  double macs = 0;
  const std::size_t firstTrained = m_impl->firstTrainedLayer();
  for (std::size_t l = 0; l < m_impl->layers.size(); ++l) {
    const LayerCost c = m_impl->layers[l]->cost();
    macs += c.forward + c.parameterGradient + (l > firstTrained ? c.inputGradient : 0.0);
  }
  return 2 * macs;
}

// Inference over fixed chunks; each chunk ping-pongs between two local buffers.
template <class Scalar>
Matrix<Scalar> Model<Scalar>::logits(const Matrix<Scalar>& x) const {
  const Impl& m = *m_impl;
  if (x.cols() != m.input.featureCount())
    throw ModelError("Model::logits: expected rows of " + std::to_string(m.input.featureCount()) +
                     " features (" + shapeText(m.input) + "), found " + std::to_string(x.cols()));
  if (m.layers.empty()) return x;
  Matrix<Scalar> result(x.rows(), outputCount());
  const typename Impl::Blocks blocks = m.fusedBlocks();
  forEachChunk(static_cast<std::size_t>(x.rows()), chunkSize(x.rows()),
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 ChunkScratch<Scalar> scratch;
                 std::array<Matrix<Scalar>, 2> buffers;
                 const Scalar* in = x.data() + b * x.cols();
                 auto output = [&](std::size_t l, Matrix<Scalar>& next) {
                   if (l + 1 == m.layers.size()) return rowBlock(result, b, n);
                   next.resize(n, m.shapes[l + 1].featureCount());
                   return Rows<Scalar>(next.data(), n, next.cols());
                 };
                 for (std::size_t l = 0; l < m.layers.size(); ++l) {
                   const ConstRows<Scalar> input(in, n, m.shapes[l].featureCount());
                   const Scalar* p = m.params.data() + m.offsets[l];
                   Rows<Scalar> out = output(blocks[l] ? l + 2 : l, buffers[l % 2]);
                   if (blocks[l]) {
                     blocks[l]->forward(p, input, out, nullptr, scratch);
                     l += 2;
                   } else {
                     m.layers[l]->forward(p, input, out, scratch);
                   }
                   in = out.data();
                 }
               });
  return result;
}

template <class Scalar>
void Model<Scalar>::backward(const Matrix<Scalar>& x, std::span<const int> labels,
                             Workspace<Scalar>& ws) const {
  const Impl& m = *m_impl;
  const std::size_t layerCount = m.layers.size();
  if (layerCount == 0) throw ModelError("Model::backward: the model has no layers");
  if (x.cols() != m.input.featureCount())
    throw ModelError("Model::backward: expected rows of " + std::to_string(m.input.featureCount()) +
                     " features (" + shapeText(m.input) + "), found " + std::to_string(x.cols()));
  if (static_cast<Eigen::Index>(labels.size()) != x.rows())
    throw ModelError("Model::backward: expected one label per row (" + std::to_string(x.rows()) +
                     "), found " + std::to_string(labels.size()));
  const int classes = outputCount();
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] < 0 || labels[i] >= classes)
      throw ModelError("Model::backward: expected labels in [0, " + std::to_string(classes) +
                       "), found " + std::to_string(labels[i]) + " at row " + std::to_string(i));

  const Eigen::Index batch = x.rows();
  const typename Impl::Blocks blocks = m.fusedBlocks();
  m.sizeWorkspace(ws, batch, blocks);
  // Each chunk copies its own rows of the input: one copy of an mlp's lot (0.8 MB) before
  // the parallel loop was a serial part of every step.
  auto copyInput = [&](Eigen::Index b, Eigen::Index n) {
    rowBlock(ws.activations[0], Impl::entryRow(ws, 0, b), n) = rowBlock(x, b, n);
  };
  const std::size_t wide = m.batchWideLayer(batch);
  std::size_t from = 0;
  if (wide < layerCount) {
    forEachChunk(static_cast<std::size_t>(batch), chunkSize(batch),
                 [&](std::size_t c, std::size_t begin, std::size_t end) {
                   const auto b = static_cast<Eigen::Index>(begin),
                              n = static_cast<Eigen::Index>(end - begin);
                   copyInput(b, n);
                   m.forwardChunk(ws, blocks, b, n, ws.chunkScratch[c], 0, wide);
                 });
    m.forwardByRows(ws, wide);
    from = wide + 1;
  }
  forEachChunk(static_cast<std::size_t>(batch), chunkSize(batch),
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 if (from == 0) copyInput(b, n);
                 m.forwardChunk(ws, blocks, b, n, ws.chunkScratch[c], from, layerCount);
                 softmaxCrossEntropy<Scalar>(rowBlock(std::as_const(ws.logits), b, n),
                                             labels.data() + b, ws.losses.data() + b,
                                             Impl::outputGrad(ws, layerCount - 1, b, n));
                 m.backwardChunk(ws, blocks, b, n, ws.chunkScratch[c]);
                 if (ws.normsInBackward) m.chunkNorms(ws, c, b, n, ws.chunkScratch[c]);
               });
  if (ws.normsInBackward) m.finishNorms(ws);
}

// Every buffer backward() fills, for a batch of `batch` rows; no per-example gradient kept.
// The entries below ws.chunkLocalLayers get one chunk's rows per thread.
template <class Scalar>
void Model<Scalar>::Impl::sizeWorkspace(Workspace<Scalar>& ws, Eigen::Index batch,
                                        const Blocks& blocks) const {
  const std::size_t count = layers.size();
  ws.losses.resize(batch);
  ws.logits.resize(batch, shapes.back().featureCount());
  const std::size_t chunks = chunksOf(batch);
  if (ws.chunkScratch.size() < chunks) ws.chunkScratch.resize(chunks);
  ws.keptGradients.resize(count);
  ws.keptValid.assign(count, 0);
  ws.normsReady = false;
  if (ws.normsInBackward) prepareNorms(ws);
  ws.chunkLocalLayers = chunkLocalLayers(ws, batch);
  const Eigen::Index local = tbb::this_task_arena::max_concurrency() * chunkSize(batch);
  ws.activations.resize(count);
  ws.outputGrads.resize(count);
  ws.poolChoices.resize(count);
  for (std::size_t l = 0; l < count; ++l) {
    const Eigen::Index rows = l < ws.chunkLocalLayers ? local : batch;
    ws.activations[l].resize(rows, shapes[l].featureCount());
    ws.outputGrads[l].resize(rows, shapes[l + 1].featureCount());
    ws.poolChoices[l].resize(blocks[l] ? std::size_t(rows * blocks[l]->choicesPerExample()) : 0);
  }
}

// Layer l (dense) for the whole batch, one block of kRowBlock weight rows per task: the same
// dot products as the chunked pass, rounded as the matrix kernel does for these block shapes
// (the last bits may differ from logits()'s; the blocks never depend on the thread count).
template <class Scalar>
void Model<Scalar>::Impl::forwardByRows(Workspace<Scalar>& ws, std::size_t l) const {
  const Eigen::Index batch = ws.batchSize();
  Rows<Scalar> out = rowBlock(l + 1 < layers.size() ? ws.activations[l + 1] : ws.logits, 0, batch);
  forEachChunk(static_cast<std::size_t>(layers[l]->gradientRowCount()), detail::kRowBlock,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 layers[l]->forwardRows(params.data() + offsets[l], layerInput(ws, l, 0, batch),
                                        out, static_cast<Eigen::Index>(begin),
                                        static_cast<Eigen::Index>(end));
               });
}

// Layers [from, to) of rows [b, b + n) into the workspace; a fused block writes only the
// pooling's output.
template <class Scalar>
void Model<Scalar>::Impl::forwardChunk(Workspace<Scalar>& ws, const Blocks& blocks, Eigen::Index b,
                                       Eigen::Index n, ChunkScratch<Scalar>& scratch,
                                       std::size_t from, std::size_t to) const {
  const std::size_t count = layers.size();
  auto output = [&](std::size_t l) {
    return rowBlock(l + 1 < count ? ws.activations[l + 1] : ws.logits, entryRow(ws, l + 1, b), n);
  };
  for (std::size_t l = from; l < to; ++l) {
    const Scalar* p = params.data() + offsets[l];
    if (blocks[l]) {
      std::uint8_t* choices =
          ws.poolChoices[l].data() + entryRow(ws, l, b) * blocks[l]->choicesPerExample();
      blocks[l]->forward(p, layerInput(ws, l, b, n), output(l + 2), choices, scratch);
      l += 2;
    } else {
      layers[l]->forward(p, layerInput(ws, l, b, n), output(l), scratch);
    }
  }
}

// The backward pass of rows [b, b + n). No input gradient is needed below the first layer
// with parameters (for an MLP on images, the first Dense layer's would be a third of its
// work). A fused block takes its pooling's output gradient to its convolution's.
template <class Scalar>
void Model<Scalar>::Impl::backwardChunk(Workspace<Scalar>& ws, const Blocks& blocks, Eigen::Index b,
                                        Eigen::Index n, ChunkScratch<Scalar>& scratch) const {
  const std::size_t firstTrained = firstTrainedLayer();
  for (std::size_t l = layers.size() - 1; l > firstTrained; --l) {
    if (l >= 2 && blocks[l - 2]) {
      const ConvReluPool<Scalar>& block = *blocks[l - 2];
      block.backward(
          ws.poolChoices[l - 2].data() + entryRow(ws, l - 2, b) * block.choicesPerExample(),
          outputGrad(std::as_const(ws), l, b, n), outputGrad(ws, l - 2, b, n), scratch);
      l -= 1;  // the loop's decrement steps over the ReLU to the convolution
      continue;
    }
    layers[l]->backward(params.data() + offsets[l], layerInput(ws, l, b, n),
                        layerInput(ws, l + 1, b, n), outputGrad(std::as_const(ws), l, b, n),
                        outputGrad(ws, l - 1, b, n), scratch);
  }
}

template class Model<float>;
template class Model<double>;

}  // namespace epsilon::nn

// The state behind Model (model.h): its layers, their shapes and parameter slices, and the
// flat parameter vector, shared by model.cpp (building, initialising, forward and backward
// passes) and model_gradients.cpp (per-example gradients, their norms and weighted sums).
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/nn/layer.h"
#include "core/nn/loss.h"
#include "core/nn/model.h"

namespace epsilon::nn {

namespace detail {

// Keep a layer's per-example gradients between the norm and the sum queries only while
// they fit in this many scalars (256 MiB of floats); beyond it they are recomputed.
inline constexpr Eigen::Index kKeepLimit = Eigen::Index{64} << 20;

inline std::size_t chunksOf(Eigen::Index count) {
  return chunkCount(static_cast<std::size_t>(count),
                    static_cast<std::size_t>(Model<float>::kChunkSize));
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

  // Rows of one forward-and-backward pass inside a chunk: as many examples as keep their
  // activations and output gradients (about twice the widths of all layers) within ~1 MiB,
  // so backward() reads back from the core's cache what forward() wrote; a tfp-cnn example
  // needs ~100 KB, and 32 of them spilled every layer's inputs out of a 2 MiB L2 cache.
  // Depends only on the layer shapes and splits a chunk evenly, so results stay the same at
  // any thread count.
  Eigen::Index passRows() const {
    constexpr Eigen::Index kPassBytes = Eigen::Index{1} << 20, chunk = Model<Scalar>::kChunkSize;
    Eigen::Index perExample = 0;
    for (const data::SampleShape& s : shapes) perExample += 2 * s.featureCount();
    perExample *= static_cast<Eigen::Index>(sizeof(Scalar));
    const Eigen::Index fit =
        std::clamp<Eigen::Index>(kPassBytes / std::max<Eigen::Index>(1, perExample), 1, chunk);
    const Eigen::Index passes = (chunk + fit - 1) / fit;
    return (chunk + passes - 1) / passes;
  }

  // Forward and backward of the rows [b, b + n) (backward()'s work for one pass).
  void pass(Workspace<Scalar>& ws, std::span<const int> labels, Eigen::Index b, Eigen::Index n,
            ChunkScratch<Scalar>& scratch) const {
    const std::size_t count = layers.size();
    for (std::size_t l = 0; l < count; ++l)
      layers[l]->forward(params.data() + offsets[l], layerInput(ws, l, b, n),
                         rowBlock(l + 1 < count ? ws.activations[l + 1] : ws.logits, b, n),
                         scratch);
    softmaxCrossEntropy<Scalar>(rowBlock(std::as_const(ws.logits), b, n), labels.data() + b,
                                ws.losses.data() + b, rowBlock(ws.outputGrads[count - 1], b, n));
    // The first layer's input gradient is never needed.
    for (std::size_t l = count - 1; l > 0; --l)
      layers[l]->backward(params.data() + offsets[l], layerInput(ws, l, b, n),
                          layerInput(ws, l + 1, b, n),
                          rowBlock(std::as_const(ws.outputGrads[l]), b, n),
                          rowBlock(ws.outputGrads[l - 1], b, n), scratch);
  }

  // The rows [begin, begin + n) of layer l's input (l = L means the model's output).
  ConstRows<Scalar> layerInput(const Workspace<Scalar>& ws, std::size_t l, Eigen::Index begin,
                               Eigen::Index n) const {
    return rowBlock(l < layers.size() ? ws.activations[l] : ws.logits, begin, n);
  }

  void weightedSum(const Workspace<Scalar>& ws, const std::vector<const Scalar*>& layerWeights,
                   Vector<Scalar>& out) const;
  void chunkedWeightedSum(const Workspace<Scalar>& ws, const std::vector<std::size_t>& chunked,
                          const std::vector<const Scalar*>& layerWeights,
                          Vector<Scalar>& out) const;

  void checkWorkspace(const Workspace<Scalar>& ws, const char* query) const {
    const Eigen::Index b = ws.batchSize();
    bool ok = ws.activations.size() == layers.size() && ws.outputGrads.size() == layers.size() &&
              ws.keptValid.size() == layers.size();
    for (std::size_t l = 0; ok && l < layers.size(); ++l)
      ok = ws.activations[l].rows() == b && ws.activations[l].cols() == shapes[l].featureCount() &&
           ws.outputGrads[l].rows() == b &&
           ws.outputGrads[l].cols() == shapes[l + 1].featureCount();
    if (!ok)
      throw ModelError(std::string("Model::") + query +
                       ": expected a workspace filled by backward() of this model, found one "
                       "with other layers or shapes");
  }
};

}  // namespace epsilon::nn

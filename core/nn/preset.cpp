// The network presets: the architectures the DP-SGD literature's tutorials train, adapted to
// any input shape and class count.
#include <algorithm>

#include "core/common/errors.h"
#include "core/nn/conv2d.h"
#include "core/nn/dense.h"
#include "core/nn/flatten.h"
#include "core/nn/group_norm.h"
#include "core/nn/maxpool2d.h"
#include "core/nn/model.h"
#include "core/nn/projection.h"
#include "core/nn/relu.h"
#include "core/nn/scattering.h"
#include "core/nn/tanh.h"

namespace epsilon::nn {

namespace {

template <class Scalar, class Sink>
void addActivation(Sink& model, bool tanh) {
  if (tanh)
    model.add(std::make_unique<Tanh<Scalar>>());
  else
    model.add(std::make_unique<Relu<Scalar>>());
}

template <class Scalar, class Sink>
void addFlattenIfImage(Sink& model, const data::SampleShape& input) {
  if (input.isImage) model.add(std::make_unique<Flatten<Scalar>>());
}

// TensorFlow Privacy's MNIST tutorial CNN (tutorials/mnist_dpsgd_tutorial_keras.py):
// 16@8×8 /2 same, pool 2 /1, 32@4×4 /2 valid, pool 2 /1, dense 32, dense classes.
template <class Scalar, class Sink>
void buildTfpCnn(Sink& model, int classes, bool tanh) {
  model.add(std::make_unique<Conv2D<Scalar>>(16, 8, 2, Padding::Same));
  addActivation<Scalar>(model, tanh);
  model.add(std::make_unique<MaxPool2D<Scalar>>(2, 1));
  model.add(std::make_unique<Conv2D<Scalar>>(32, 4, 2, Padding::Valid));
  addActivation<Scalar>(model, tanh);
  model.add(std::make_unique<MaxPool2D<Scalar>>(2, 1));
  model.add(std::make_unique<Flatten<Scalar>>());
  model.add(std::make_unique<Dense<Scalar>>(32));
  addActivation<Scalar>(model, tanh);
  model.add(std::make_unique<Dense<Scalar>>(classes));
}

// MindArmour's differential-privacy tutorial LeNet-5: 6@5×5 valid, pool 2/2, 16@5×5 valid,
// pool 2/2, dense 120, dense 84, dense classes (it pads MNIST to 32×32; we take the input
// as given, so 28×28 works too and anything below 16×16 is refused).
template <class Scalar, class Sink>
void buildLenet5(Sink& model, int classes) {
  model.add(std::make_unique<Conv2D<Scalar>>(6, 5, 1, Padding::Valid));
  model.add(std::make_unique<Relu<Scalar>>());
  model.add(std::make_unique<MaxPool2D<Scalar>>(2, 2));
  model.add(std::make_unique<Conv2D<Scalar>>(16, 5, 1, Padding::Valid));
  model.add(std::make_unique<Relu<Scalar>>());
  model.add(std::make_unique<MaxPool2D<Scalar>>(2, 2));
  model.add(std::make_unique<Flatten<Scalar>>());
  for (int width : {120, 84}) {
    model.add(std::make_unique<Dense<Scalar>>(width));
    model.add(std::make_unique<Relu<Scalar>>());
  }
  model.add(std::make_unique<Dense<Scalar>>(classes));
}

// Abadi et al. 2016, §5.1: a 60-dimensional DP-PCA projection, one 1,000-unit ReLU layer.
template <class Scalar, class Sink>
void buildPcaMlp(Sink& model, int classes, const PresetOptions& options) {
  model.add(std::make_unique<Projection<Scalar>>(options.projectionDims, options.projection));
  model.add(std::make_unique<Dense<Scalar>>(1000));
  model.add(std::make_unique<Relu<Scalar>>());
  model.add(std::make_unique<Dense<Scalar>>(classes));
}

// Tramèr & Boneh (ICLR 2021, §3 and App. B): ScatterNet features (J = 2, L = 8), each
// example's 81 channels normalised in 27 groups of 3 without an affine map, then a linear
// classifier or a small tanh CNN (conv 3×3 → GroupNorm → tanh, max-pool, conv, GroupNorm,
// tanh, linear). The model's input is the features, computed once per data set.
template <class Scalar, class Sink>
void buildScatter(Sink& model, int classes, bool cnn) {
  model.add(std::make_unique<GroupNorm<Scalar>>(27, false));
  if (cnn) {
    for (int filters : {16, 32}) {
      model.add(std::make_unique<Conv2D<Scalar>>(filters, 3, 1, Padding::Same));
      model.add(std::make_unique<GroupNorm<Scalar>>(4));
      model.add(std::make_unique<Tanh<Scalar>>());
      if (filters == 16) model.add(std::make_unique<MaxPool2D<Scalar>>(2, 2));
    }
  }
  model.add(std::make_unique<Flatten<Scalar>>());
  model.add(std::make_unique<Dense<Scalar>>(classes));
}

bool isConvolutional(const std::string& preset) {
  return preset == "tfp-cnn" || preset == "tfp-cnn-tanh" || preset == "lenet5" ||
         usesScatteringFeatures(preset);
}

// The layers of `preset` after the input shape is set.
template <class Scalar, class Sink>
void addPresetLayers(Sink& model, const std::string& preset, const data::SampleShape& input,
                     int classes, const PresetOptions& options) {
  if (usesScatteringFeatures(preset)) {
    buildScatter<Scalar>(model, classes, preset == "scatter-cnn");
  } else if (preset == "logistic") {
    addFlattenIfImage<Scalar>(model, input);
    model.add(std::make_unique<Dense<Scalar>>(classes));
  } else if (preset == "mlp") {
    addFlattenIfImage<Scalar>(model, input);
    for (int width : options.hiddenWidths) {
      model.add(std::make_unique<Dense<Scalar>>(width));
      model.add(std::make_unique<Relu<Scalar>>());
    }
    model.add(std::make_unique<Dense<Scalar>>(classes));
  } else if (preset == "tfp-cnn" || preset == "tfp-cnn-tanh") {
    buildTfpCnn<Scalar>(model, classes, preset == "tfp-cnn-tanh");
  } else if (preset == "pca-mlp") {
    buildPcaMlp<Scalar>(model, classes, options);
  } else {
    buildLenet5<Scalar>(model, classes);
  }
}

// Where a preset's layers go: a Model (buildPreset), or a count of their parameters that
// allocates none (presetParameterCount), so a network too big for memory is refused first.
template <class Scalar>
struct ParameterCounter {
  data::SampleShape shape;
  long long parameters = 0;
  void setInputShape(const data::SampleShape& input) { shape = input; }
  void add(std::unique_ptr<Layer<Scalar>> layer) {
    shape = layer->configure(shape);
    parameters += static_cast<long long>(layer->parameterCount());
  }
};

// The one assembly of every preset's layers into `model` (a Model or a ParameterCounter).
template <class Scalar, class Sink>
void assemblePreset(Sink& model, const std::string& preset, const data::SampleShape& input,
                    int classes, const PresetOptions& options) {
  const std::string where = "preset '" + preset + "'";
  const auto names = presetNames();
  if (std::find(names.begin(), names.end(), preset) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw ModelError("unknown model preset '" + preset + "'; expected one of: " + list);
  }
  if (classes < 2)
    throw ModelError(where + ": expected at least 2 classes, found " + std::to_string(classes));
  if (input.channels < 1 || input.height < 1 || input.width < 1)
    throw ModelError(where + ": expected an input shape with every size >= 1, found " +
                     std::to_string(input.channels) + "×" + std::to_string(input.height) + "×" +
                     std::to_string(input.width));
  if (isConvolutional(preset) && !input.isImage)
    throw ModelError(where +
                     " needs an image input (channels×height×width), found a flat vector of " +
                     shapeText(input));
  for (int width : options.hiddenWidths)
    if (width < 1)
      throw ModelError(where + ": expected hidden widths >= 1, found " + std::to_string(width));
  try {
    model.setInputShape(usesScatteringFeatures(preset) ? scatteringOutputShape(input) : input);
    addPresetLayers<Scalar>(model, preset, input, classes, options);
  } catch (const ModelError& e) {
    throw ModelError(where + " cannot take input shape " + shapeText(input) + ": " + e.what());
  }
}

}  // namespace

bool usesScatteringFeatures(const std::string& preset) {
  return preset == "scatter-linear" || preset == "scatter-cnn";
}

std::vector<std::string> presetNames() {
  return {"logistic",       "mlp",         "tfp-cnn", "tfp-cnn-tanh", "lenet5",
          "scatter-linear", "scatter-cnn", "pca-mlp"};
}

long long presetParameterCount(const std::string& preset, const data::SampleShape& input,
                               int classes, const PresetOptions& options) {
  ParameterCounter<float> counter;
  assemblePreset<float>(counter, preset, input, classes, options);
  return counter.parameters;
}

template <class Scalar>
Model<Scalar> buildPreset(const std::string& preset, const data::SampleShape& input, int classes,
                          std::uint64_t seed, const PresetOptions& options) {
  Model<Scalar> model;
  assemblePreset<Scalar>(model, preset, input, classes, options);
  model.initialise(seed);
  return model;
}

template Model<float> buildPreset<float>(const std::string&, const data::SampleShape&, int,
                                         std::uint64_t, const PresetOptions&);
template Model<double> buildPreset<double>(const std::string&, const data::SampleShape&, int,
                                           std::uint64_t, const PresetOptions&);

}  // namespace epsilon::nn

// Helpers shared by the suites that check the DP-SGD gradient pipeline against materialised
// per-example gradients: the small real data set and that slow but obviously correct path.
#pragma once

// GCC 12 reports false "may be used uninitialized" warnings from inside Eigen's AVX-512
// reductions wherever they are inlined into the suites that include this header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <vector>

#include "core/data/registry.h"
#include "core/nn/model.h"

namespace epsilon::train::test {

inline const data::Dataset& digits() {
  static const data::Dataset d = data::loadDataset("uci-digits");
  return d;
}

// Every example's gradient, one row each, through the Workspace.
inline nn::Matrix<float> perExample(const nn::Model<float>& model, const data::Split& split,
                                    const std::vector<int>& lot) {
  nn::Matrix<float> x(static_cast<Eigen::Index>(lot.size()), split.features.cols());
  std::vector<int> labels;
  for (std::size_t i = 0; i < lot.size(); ++i) {
    x.row(static_cast<Eigen::Index>(i)) = split.features.row(lot[i]);
    labels.push_back(split.labels[static_cast<std::size_t>(lot[i])]);
  }
  nn::Workspace<float> ws;
  model.backward(x, labels, ws);
  return model.perExampleGradients(ws);
}

}  // namespace epsilon::train::test

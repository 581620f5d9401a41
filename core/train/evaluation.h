// Test accuracy and mean cross-entropy of a model on a split, from batched logits computed
// in parallel fixed chunks (deterministic for any thread count).
#pragma once

#include <vector>

#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::train {

struct Evaluation {
  double accuracy = 0.0;  // fraction of rows whose largest logit is the label
  double loss = 0.0;      // mean softmax cross-entropy
  // Per class (the model's outputs, in label order): the fraction of that class's rows
  // classified right; NaN for a class with no rows in the split. DP-SGD's cost in accuracy
  // falls unequally on classes (Bagdasaryan, Poursaeed & Shmatikov, NeurIPS 2019).
  std::vector<double> classAccuracy;
};

Evaluation evaluate(const nn::Model<float>& model, const data::Split& split);

}  // namespace epsilon::train

// Test accuracy and mean cross-entropy of a model on a split, from batched logits computed
// in parallel fixed chunks (deterministic for any thread count).
#pragma once

#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::train {

struct Evaluation {
  double accuracy = 0.0;  // fraction of rows whose largest logit is the label
  double loss = 0.0;      // mean softmax cross-entropy
};

Evaluation evaluate(const nn::Model<float>& model, const data::Split& split);

}  // namespace epsilon::train

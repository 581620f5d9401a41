// Softmax cross-entropy, the loss every preset trains with: for logits z and label y,
// loss = log Σ_j exp(z_j) − z_y and ∂loss/∂z = softmax(z) − onehot(y) (Goodfellow, Bengio
// & Courville 2016, "Deep Learning", §6.2.2.3).
#pragma once

#include <cmath>

#include "core/nn/tensor.h"

namespace epsilon::nn {

// Per-example losses and logit gradients for a block of rows (labels already validated).
// Log-sum-exp is computed as m + log Σ_j exp(z_j − m) with m = max_j z_j, so no exponential
// overflows and at least one term is exactly 1 (Blanchard et al. 2021, "Accurately
// computing the log-sum-exp and softmax functions"). `grad` may not alias `logits`.
template <class Scalar>
void softmaxCrossEntropy(ConstRows<Scalar> logits, const int* labels, Scalar* losses,
                         Rows<Scalar> grad) {
  for (Eigen::Index e = 0; e < logits.rows(); ++e) {
    const Scalar m = logits.row(e).maxCoeff();
    grad.row(e) = (logits.row(e).array() - m).exp();
    const Scalar sum = grad.row(e).sum();
    const Scalar logSumExp = m + std::log(sum);
    losses[e] = logSumExp - logits(e, labels[e]);
    grad.row(e) /= sum;
    grad(e, labels[e]) -= Scalar(1);
  }
}

}  // namespace epsilon::nn

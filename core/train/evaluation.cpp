#include "core/train/evaluation.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/common/parallel.h"

namespace epsilon::train {

Evaluation evaluate(const nn::Model<float>& model, const data::Split& split) {
  Evaluation result;
  const Eigen::Index n = split.size();
  if (n == 0) return result;
  const nn::Matrix<float> logits = model.logits(split.features);
  constexpr std::size_t kRows = 1024;
  const auto classes = static_cast<std::size_t>(logits.cols());
  struct Partial {
    double loss = 0.0;
    long long correct = 0;
    std::vector<long long> rows, right;  // per class
  };
  std::vector<Partial> partial(
      chunkCount(static_cast<std::size_t>(n), kRows),
      Partial{0.0, 0, std::vector<long long>(classes), std::vector<long long>(classes)});
  forEachChunk(static_cast<std::size_t>(n), kRows,
               [&](std::size_t c, std::size_t begin, std::size_t end) {
                 for (std::size_t r = begin; r < end; ++r) {
                   const auto row = logits.row(static_cast<Eigen::Index>(r));
                   const int label = split.labels[r];
                   Eigen::Index best = 0;
                   const double top = row.maxCoeff(&best);
                   // Cross-entropy −log softmax(z)_y = log Σ exp(z_j − max) + max − z_y, in double.
                   double sum = 0.0;
                   for (Eigen::Index j = 0; j < row.size(); ++j)
                     sum += std::exp(static_cast<double>(row[j]) - top);
                   partial[c].loss += std::log(sum) + top - static_cast<double>(row[label]);
                   partial[c].correct += best == label ? 1 : 0;
                   const auto k = static_cast<std::size_t>(label);
                   ++partial[c].rows[k];
                   partial[c].right[k] += best == label ? 1 : 0;
                 }
               });
  double loss = 0.0;
  long long correct = 0;
  std::vector<long long> rows(classes), right(classes);
  for (const auto& p : partial) {
    loss += p.loss;
    correct += p.correct;
    for (std::size_t k = 0; k < classes; ++k) {
      rows[k] += p.rows[k];
      right[k] += p.right[k];
    }
  }
  result.classAccuracy.resize(classes, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t k = 0; k < classes; ++k)
    if (rows[k] > 0)
      result.classAccuracy[k] = static_cast<double>(right[k]) / static_cast<double>(rows[k]);
  result.accuracy = static_cast<double>(correct) / static_cast<double>(n);
  result.loss = loss / static_cast<double>(n);
  return result;
}

}  // namespace epsilon::train

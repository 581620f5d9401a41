// Deterministic splits and standardisation (see split_utils.h).
#include "core/data/split_utils.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/common/random.h"

namespace epsilon::data {

SplitIndices stratifiedSplit(const std::vector<int>& labels, int classCount, double testFraction,
                             std::uint64_t seed) {
  std::vector<std::vector<long>> byClass(static_cast<std::size_t>(classCount));
  for (std::size_t i = 0; i < labels.size(); ++i)
    byClass[static_cast<std::size_t>(labels[i])].push_back(static_cast<long>(i));
  std::vector<char> isTest(labels.size(), 0);
  for (int c = 0; c < classCount; ++c) {
    auto& rows = byClass[static_cast<std::size_t>(c)];
    const PhiloxStream stream(seed, RandomPurpose::DataSplit, static_cast<std::uint32_t>(c));
    // Fisher-Yates (Knuth, TAOCP vol. 2, Algorithm 3.4.2P): swap element i-1 with a uniform j in
    // [0, i-1].
    for (std::size_t i = rows.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(stream.uniform(i) * static_cast<double>(i));
      std::swap(rows[i - 1], rows[std::min(j, i - 1)]);
    }
    const auto testCount =
        static_cast<std::size_t>(std::lround(testFraction * static_cast<double>(rows.size())));
    for (std::size_t i = 0; i < testCount; ++i) isTest[static_cast<std::size_t>(rows[i])] = 1;
  }
  SplitIndices split;
  for (std::size_t i = 0; i < labels.size(); ++i)
    (isTest[i] ? split.test : split.train).push_back(static_cast<long>(i));
  return split;
}

Split selectRows(const LabelledTable& table, const std::vector<long>& indices) {
  Split split;
  split.features.resize(static_cast<Eigen::Index>(indices.size()), table.features.cols());
  split.labels.reserve(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    split.features.row(static_cast<Eigen::Index>(i)) = table.features.row(indices[i]);
    split.labels.push_back(table.labels[static_cast<std::size_t>(indices[i])]);
  }
  return split;
}

void keepFirst(Split& split, long maxCount) {
  if (maxCount <= 0 || maxCount >= split.size()) return;
  split.features.conservativeResize(maxCount, Eigen::NoChange);
  split.labels.resize(static_cast<std::size_t>(maxCount));
}

void keepFractionOfClass(Split& split, int label, double keep) {
  const auto n = std::count(split.labels.begin(), split.labels.end(), label);
  const auto kept = std::lround(keep * static_cast<double>(n));
  std::vector<Eigen::Index> rows;
  long seen = 0;
  for (Eigen::Index i = 0; i < split.size(); ++i) {
    const int y = split.labels[static_cast<std::size_t>(i)];
    if (y == label && seen++ >= kept) continue;
    rows.push_back(i);
  }
  FeatureMatrix features(static_cast<Eigen::Index>(rows.size()), split.features.cols());
  std::vector<int> labels(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    features.row(static_cast<Eigen::Index>(k)) = split.features.row(rows[k]);
    labels[k] = split.labels[static_cast<std::size_t>(rows[k])];
  }
  split.features = std::move(features);
  split.labels = std::move(labels);
}

void standardise(Split& train, Split& test) {
  const Eigen::Index n = train.size();
  const Eigen::Index features = train.features.cols();
  if (n == 0) return;
  // Two passes in double (mean, then squared deviations): features such as area reach
  // thousands while others are 1e-3, and the textbook one-pass formula loses digits.
  std::vector<double> mean(static_cast<std::size_t>(features), 0.0);
  std::vector<double> scale(static_cast<std::size_t>(features), 0.0);
  for (Eigen::Index j = 0; j < features; ++j) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) sum += train.features(i, j);
    const double mu = sum / static_cast<double>(n);
    double squares = 0.0;
    for (Eigen::Index i = 0; i < n; ++i)
      squares += (train.features(i, j) - mu) * (train.features(i, j) - mu);
    const double variance = squares / static_cast<double>(n);
    mean[static_cast<std::size_t>(j)] = mu;
    scale[static_cast<std::size_t>(j)] = variance > 0 ? 1.0 / std::sqrt(variance) : 1.0;
  }
  for (Split* split : {&train, &test}) {
    for (Eigen::Index i = 0; i < split->size(); ++i) {
      for (Eigen::Index j = 0; j < features; ++j) {
        const auto k = static_cast<std::size_t>(j);
        split->features(i, j) = static_cast<float>((split->features(i, j) - mean[k]) * scale[k]);
      }
    }
  }
}

}  // namespace epsilon::data

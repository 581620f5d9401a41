#include "core/audit/canaries.h"

#include <algorithm>

#include "core/common/errors.h"
#include "core/common/random.h"

namespace epsilon::audit {

namespace {

// Sub-streams of RandomPurpose::Audit (3 is the membership attack's member sample).
constexpr std::uint32_t kInclusionStream = 0;
constexpr std::uint32_t kLabelStream = 1;
constexpr std::uint32_t kNoiseStream = 2;

int randomClass(const PhiloxStream& stream, std::uint64_t i, int classes) {
  return std::min(classes - 1, static_cast<int>(stream.uniform(i) * classes));
}

void makeMislabelled(const data::Split& source, long long first, int classes, std::uint64_t seed,
                     data::Split& out) {
  const PhiloxStream labels(seed, RandomPurpose::Audit, kLabelStream);
  const long long m = out.size();
  for (long long i = 0; i < m; ++i) {
    out.features.row(i) = source.features.row(first + i);
    // A wrong label uniform over the other C − 1 classes: y + 1 + U{0..C−2} (mod C).
    const int shift = 1 + randomClass(labels, static_cast<std::uint64_t>(i), classes - 1);
    out.labels[static_cast<std::size_t>(i)] =
        (source.labels[static_cast<std::size_t>(first + i)] + shift) % classes;
  }
}

void makeOutOfDistribution(const data::Split& source, int classes, std::uint64_t seed,
                           data::Split& out) {
  const float low = source.features.minCoeff();
  const float high = source.features.maxCoeff();
  const PhiloxStream labels(seed, RandomPurpose::Audit, kLabelStream);
  for (long long i = 0; i < out.size(); ++i) {
    const PhiloxStream noise(seed, RandomPurpose::Audit, kNoiseStream,
                             static_cast<std::uint32_t>(i));
    for (Eigen::Index j = 0; j < out.features.cols(); ++j) {
      out.features(i, j) =
          low + (high - low) * static_cast<float>(noise.uniform(static_cast<std::uint64_t>(j)));
    }
    out.labels[static_cast<std::size_t>(i)] =
        randomClass(labels, static_cast<std::uint64_t>(i), classes);
  }
}

}  // namespace

std::string canaryKindName(CanaryKind kind) {
  return kind == CanaryKind::Mislabel ? "mislabel" : "ood";
}

CanaryKind parseCanaryKind(const std::string& text, const std::string& field) {
  if (text == "mislabel") return CanaryKind::Mislabel;
  if (text == "ood") return CanaryKind::OutOfDistribution;
  throw ConfigError(field + ": expected mislabel or ood, got '" + text + "'");
}

long long auditBaseTrainSize(long long trainSize, long long canaries, CanaryKind kind) {
  return kind == CanaryKind::Mislabel ? trainSize - canaries : trainSize;
}

long long auditedTrainSize(long long trainSize, long long canaries, CanaryKind kind,
                           long long included) {
  return auditBaseTrainSize(trainSize, canaries, kind) + included;
}

CanaryData makeCanaryData(const data::Dataset& dataset, long long canaries, CanaryKind kind,
                          std::uint64_t seed) {
  const long long n = dataset.train.size();
  const int classes = dataset.classCount();
  if (canaries < 2)
    throw ConfigError("audit.canaries: expected at least 2 canaries, got " +
                      std::to_string(canaries));
  if (classes < 2)
    throw ConfigError("audit.canaries: canaries need at least 2 classes, the data set has " +
                      std::to_string(classes));
  if (kind == CanaryKind::Mislabel && canaries >= n) {
    throw ConfigError("audit.canaries: mislabel canaries are taken from the " + std::to_string(n) +
                      " training examples, so expected fewer than that, got " +
                      std::to_string(canaries));
  }
  CanaryData out;
  out.baseTrainSize = auditBaseTrainSize(n, canaries, kind);
  out.canaries.features.resize(canaries, dataset.train.features.cols());
  out.canaries.labels.resize(static_cast<std::size_t>(canaries));
  if (kind == CanaryKind::Mislabel) {
    makeMislabelled(dataset.train, out.baseTrainSize, classes, seed, out.canaries);
  } else {
    makeOutOfDistribution(dataset.train, classes, seed, out.canaries);
  }
  // Each canary in with probability ½, independently (Steinke et al. 2023, Algorithm 1).
  const PhiloxStream inclusion(seed, RandomPurpose::Audit, kInclusionStream);
  out.included.resize(static_cast<std::size_t>(canaries));
  long long in = 0;
  for (long long i = 0; i < canaries; ++i) {
    out.included[static_cast<std::size_t>(i)] =
        inclusion.uniform(static_cast<std::uint64_t>(i)) < 0.5 ? 1 : 0;
    in += out.included[static_cast<std::size_t>(i)];
  }

  auto training = std::make_shared<data::Dataset>();
  data::Dataset& t = *training;
  t.name = dataset.name;
  t.provenance = dataset.provenance + "; with " + std::to_string(in) + " " + canaryKindName(kind) +
                 " audit canaries";
  t.shape = dataset.shape;
  t.classNames = dataset.classNames;
  t.test = dataset.test;
  t.train.features.resize(out.baseTrainSize + in, dataset.train.features.cols());
  t.train.features.topRows(out.baseTrainSize) = dataset.train.features.topRows(out.baseTrainSize);
  t.train.labels.assign(dataset.train.labels.begin(),
                        dataset.train.labels.begin() + out.baseTrainSize);
  long long row = out.baseTrainSize;
  for (long long i = 0; i < canaries; ++i) {
    if (!out.included[static_cast<std::size_t>(i)]) continue;
    t.train.features.row(row++) = out.canaries.features.row(i);
    t.train.labels.push_back(out.canaries.labels[static_cast<std::size_t>(i)]);
  }
  out.training = std::move(training);
  return out;
}

}  // namespace epsilon::audit

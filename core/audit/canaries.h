// Canaries for the one-run audit (Steinke, Nasr & Jagielski 2023, §6 "input-space" canaries):
// m extra training examples, each included independently with probability ½, so that one
// training run carries m independent membership experiments.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace epsilon::audit {

// Mislabel: real training images with a uniformly random wrong label (the last m rows of the
// training split, taken out of it, so a left-out canary is truly absent). Ood: out-of-
// distribution inputs, uniform noise over the training features' range, with a random label.
enum class CanaryKind { Mislabel, OutOfDistribution };

std::string canaryKindName(CanaryKind kind);  // "mislabel", "ood"
// Throws ConfigError "<field>: expected mislabel or ood, got '<text>'".
CanaryKind parseCanaryKind(const std::string& text, const std::string& field = "audit.canary_kind");

// The data one audited run trains on, and what the auditor keeps to itself.
struct CanaryData {
  // The base training rows first (rows [0, baseTrainSize)), then the included canaries; the
  // test split unchanged.
  // Shared, so the trainer and the attack read the same copy.
  std::shared_ptr<const data::Dataset> training;
  long long baseTrainSize = 0;
  data::Split canaries;        // all m canaries with the labels they are trained with
  std::vector<char> included;  // 1 when canary i was added to the training set
};

// The training rows an audit keeps of a split of `trainSize` rows (mislabel canaries are taken
// out of it, out-of-distribution ones are not), and the rows its run trains on with `included`
// canaries added: what makeCanaryData builds, for a stored audited run checked without its data.
long long auditBaseTrainSize(long long trainSize, long long canaries, CanaryKind kind);
long long auditedTrainSize(long long trainSize, long long canaries, CanaryKind kind,
                           long long included);

// Draws the canaries and their inclusion from Philox streams keyed by (seed, Audit), so the
// same seed gives the same audit. Throws ConfigError naming "audit.canaries" when m < 2 or
// (mislabel) the training split cannot spare m rows, or the set has fewer than 2 classes.
CanaryData makeCanaryData(const data::Dataset& dataset, long long canaries, CanaryKind kind,
                          std::uint64_t seed);

}  // namespace epsilon::audit

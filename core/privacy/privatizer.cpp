// Options, names and the factory of the privatizers (the kinds live in privatizer_*.cpp).
#include "core/privacy/privatizer.h"

#include <cmath>
#include <cstdio>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/privatizer_factories.h"

namespace epsilon::privacy {

namespace {

void requirePositive(const std::string& field, double value) {
  if (!(value > 0.0 && std::isfinite(value))) {
    throw ConfigError(field + ": expected a finite value > 0, got " + shortNumber(value));
  }
}

template <class Kind>
Kind parseName(const std::vector<std::string>& names, const std::string& text,
               const std::string& field) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<Kind>(i);
    list += (i ? ", " : "") + names[i];
  }
  throw ConfigError(field + ": expected one of " + list + ", got '" + text + "'");
}

}  // namespace

void PrivatizerOptions::validate() const {
  switch (kind) {
    case PrivatizerKind::None:
      return;
    case PrivatizerKind::Clip:
      requirePositive("privacy.clip_norm", clipNorm);
      return;
    case PrivatizerKind::Tanh:
      requirePositive("privacy.tanh_c", tanhScale);
      requirePositive("privacy.tanh_k", tanhActiveRange);
      if (perLayer)
        throw ConfigError("privacy.per_layer_clip: only the clip privatizer clips per layer");
      return;
    case PrivatizerKind::Adaptive:
      requirePositive("privacy.clip_norm", clipNorm);
      if (!(targetQuantile > 0.0 && targetQuantile < 1.0)) {
        throw ConfigError("privacy.target_quantile: expected a value in (0, 1), got " +
                          shortNumber(targetQuantile));
      }
      requirePositive("privacy.clip_learning_rate", clipLearningRate);
      if (perLayer)
        throw ConfigError("privacy.per_layer_clip: adaptive clipping adapts one flat bound");
      if (clipCountStddev && fractionStddev) {
        throw ConfigError(
            "privacy.clip_count_stddev: give it or privacy.fraction_stddev, not both");
      }
      if (clipCountStddev) requirePositive("privacy.clip_count_stddev", *clipCountStddev);
      if (fractionStddev) requirePositive("privacy.fraction_stddev", *fractionStddev);
      return;
  }
}

double PrivatizerOptions::countStddev(double expectedUnits) const {
  if (clipCountStddev) return *clipCountStddev;
  if (fractionStddev) return *fractionStddev * expectedUnits;
  return expectedUnits / 20.0;
}

std::unique_ptr<Privatizer> makePrivatizer(const PrivatizerOptions& options,
                                           const std::vector<ParameterSlice>& slices,
                                           double expectedUnitsPerStep) {
  options.validate();
  Eigen::Index parameters = 0;
  for (const auto& s : slices) parameters += s.size;
  switch (options.kind) {
    case PrivatizerKind::None:
      return makeNoPrivatizer();
    case PrivatizerKind::Clip:
      if (options.perLayer && slices.empty()) {
        throw ConfigError("privacy.per_layer_clip: the network has no parameter groups");
      }
      return makeClipPrivatizer(options.clipNorm, options.perLayer, slices);
    case PrivatizerKind::Tanh:
      return makeTanhPrivatizer(options.tanhScale, options.tanhActiveRange, parameters);
    case PrivatizerKind::Adaptive:
      return makeAdaptivePrivatizer(options, expectedUnitsPerStep);
  }
  throw ConfigError("privacy.privatizer: unknown kind");
}

std::vector<std::string> privatizerNames() {
  return {"none", "clip", "tanh", "adaptive"};
}
std::string privatizerName(PrivatizerKind kind) {
  return privatizerNames().at(static_cast<std::size_t>(kind));
}
PrivatizerKind parsePrivatizerKind(const std::string& text, const std::string& field) {
  return parseName<PrivatizerKind>(privatizerNames(), text, field);
}
std::string clipPolicyName(ClipUpdatePolicy policy) {
  return policy == ClipUpdatePolicy::Linear ? "linear" : "geometric";
}
ClipUpdatePolicy parseClipPolicy(const std::string& text, const std::string& field) {
  return parseName<ClipUpdatePolicy>({"linear", "geometric"}, text, field);
}

}  // namespace epsilon::privacy

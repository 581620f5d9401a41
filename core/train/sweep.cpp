#include "core/train/sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/common/errors.h"

namespace epsilon::train {

namespace {

[[noreturn]] void bad(const std::string& parameter, const std::string& expected,
                      const std::string& got) {
  throw ConfigError("sweep." + parameter + ": expected " + expected + ", got '" + got + "'");
}

double toNumber(const std::string& parameter, const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) bad(parameter, "a number", text);
  return value;
}

long long toInteger(const std::string& parameter, const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) bad(parameter, "a whole number", text);
  return value;
}

}  // namespace

std::vector<std::string> sweepParameterNames() {
  return {"noise_multiplier", "clip_norm",
          "learning_rate",    "optimizer",
          "privatizer",       "tanh_c",
          "tanh_k",           "lot_size",
          "epochs",           "microbatch_size",
          "noise_schedule",   "noise_decay_rate",
          "train_size",       "seed",
          "dataset",          "model",
          "pca_dims",         "pca_noise",
          "pca_sample"};
}

void applySweepValue(ExperimentConfig& c, const std::string& p, const std::string& v) {
  if (p == "noise_multiplier")
    c.privacy.noise.initial = toNumber(p, v);
  else if (p == "clip_norm")
    c.privacy.privatizer.clipNorm = toNumber(p, v);
  else if (p == "learning_rate")
    c.optimizer.learningRate = toNumber(p, v);
  else if (p == "optimizer")
    c.optimizer.options.kind = optim::parseOptimizerKind(v, "sweep.optimizer");
  else if (p == "privatizer")
    c.privacy.privatizer.kind = privacy::parsePrivatizerKind(v, "sweep.privatizer");
  else if (p == "tanh_c")
    c.privacy.privatizer.tanhScale = toNumber(p, v);
  else if (p == "tanh_k")
    c.privacy.privatizer.tanhActiveRange = toNumber(p, v);
  else if (p == "lot_size")
    c.training.lotSize = static_cast<int>(toInteger(p, v));
  else if (p == "epochs")
    c.training.epochs = toNumber(p, v);
  else if (p == "microbatch_size")
    c.privacy.microbatchSize = static_cast<int>(toInteger(p, v));
  else if (p == "noise_schedule")
    c.privacy.noise.decay = privacy::parseNoiseDecay(v, "sweep.noise_schedule");
  else if (p == "noise_decay_rate")
    c.privacy.noise.rate = toNumber(p, v);
  else if (p == "train_size")
    c.dataset.options.maxTrain = static_cast<long>(toInteger(p, v));
  else if (p == "seed")
    c.training.seed = static_cast<std::uint64_t>(toInteger(p, v));
  else if (p == "dataset")
    c.dataset.name = v;
  else if (p == "model")
    c.model.preset = v;
  // pca-mlp's DP-PCA projection (Abadi et al. 2016, §5): a larger σ_pca costs less ε.
  else if (p == "pca_dims")
    c.model.pcaDims = static_cast<int>(toInteger(p, v));
  else if (p == "pca_noise")
    c.model.pcaNoise = toNumber(p, v);
  else if (p == "pca_sample")
    c.model.pcaSampleFraction = toNumber(p, v);
  else {
    std::string list;
    for (const auto& n : sweepParameterNames()) list += (list.empty() ? "" : ", ") + n;
    throw ConfigError("sweep.parameter: expected one of " + list + ", got '" + p + "'");
  }
}

std::vector<SweepPoint> expandSweep(const ExperimentConfig& base,
                                    const std::vector<SweepAxis>& axes) {
  if (axes.empty() || axes.size() > 2)
    throw ConfigError("sweep: expected one or two parameters, got " + std::to_string(axes.size()));
  if (axes.size() == 2 && axes[0].parameter == axes[1].parameter)
    throw ConfigError("sweep: parameter '" + axes[0].parameter + "' is given twice");
  for (const auto& axis : axes)
    if (axis.values.empty())
      throw ConfigError("sweep." + axis.parameter + ": expected at least one value");
  const std::size_t second = axes.size() == 2 ? axes[1].values.size() : 1;
  if (axes[0].values.size() > kMaxSweepRuns / second)  // the product, without overflow
    throw ConfigError("sweep: " + std::to_string(axes[0].values.size()) +
                      (axes.size() == 2 ? " × " + std::to_string(second) : std::string()) +
                      " values expand to more than " + std::to_string(kMaxSweepRuns) +
                      " runs, the most one sweep may start");
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < axes[0].values.size(); ++i) {
    for (std::size_t j = 0; j < second; ++j) {
      SweepPoint point;
      point.config = base;
      point.index = static_cast<int>(points.size());
      for (std::size_t a = 0; a < axes.size(); ++a) {
        const std::string& value = axes[a].values[a == 0 ? i : j];
        applySweepValue(point.config, axes[a].parameter, value);
        point.values.emplace_back(axes[a].parameter, value);
        point.label += (point.label.empty() ? "" : ", ") + axes[a].parameter + "=" + value;
      }
      point.config.validate();
      points.push_back(std::move(point));
    }
  }
  return points;
}

std::vector<SweepPoint> shardOf(const std::vector<SweepPoint>& points, int k, int n) {
  if (n < 1 || k < 1 || k > n)
    throw ConfigError("--shard: expected K/N with 1 <= K <= N, got " + std::to_string(k) + "/" +
                      std::to_string(n));
  std::vector<SweepPoint> slice;
  for (const auto& p : points)
    if (p.index % n == k - 1) slice.push_back(p);
  return slice;
}

std::pair<int, int> parseShard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw ConfigError("--shard: expected K/N (e.g. 2/8), got '" + text + "'");
  int k = 0, n = 0;
  const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
  const auto ra = std::from_chars(a.data(), a.data() + a.size(), k);
  const auto rb = std::from_chars(b.data(), b.data() + b.size(), n);
  if (ra.ec != std::errc() || ra.ptr != a.data() + a.size() || rb.ec != std::errc() ||
      rb.ptr != b.data() + b.size() || n < 1 || k < 1 || k > n)
    throw ConfigError("--shard: expected K/N with 1 <= K <= N, got '" + text + "'");
  return {k, n};
}

}  // namespace epsilon::train

// The TensorFlow Playground point sets (see synthetic.h). The generating rules follow the
// Playground's src/dataset.ts; the random numbers come from Philox sub-streams so a seed
// fixes the set on any machine.
#include "core/data/synthetic.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "core/common/errors.h"
#include "core/common/random.h"

namespace epsilon::data {

namespace {

constexpr double kHalfSide = 5.0;  // the Playground's points lie in [-5, 5]²
constexpr std::uint32_t kPointStream = 0;
constexpr std::uint32_t kShuffleStream = 1;

struct Point {
  double x = 0;
  double y = 0;
  int label = 0;
};

// Four uniforms in (0, 1) for point i: one Philox block.
std::array<double, 4> uniforms(const PhiloxStream& stream, std::uint64_t i) {
  const auto block = stream.block(i);
  return {PhiloxStream::toOpenUnit(block[0]), PhiloxStream::toOpenUnit(block[1]),
          PhiloxStream::toOpenUnit(block[2]), PhiloxStream::toOpenUnit(block[3])};
}

double between(double unit, double low, double high) {
  return low + (high - low) * unit;
}

// Circle: the first half uniform in radius 0..2.5 around the origin, the rest in radius
// 3.5..5. A point is positive if it lies within radius 2.5 after a uniform offset of up to
// ±5·noise per axis; the offset only decides the label, the point is not moved (as in the
// Playground), so noise shows as mislabelled points near the gap.
Point circlePoint(const std::array<double, 4>& u, bool inner, double noise) {
  const double radius =
      inner ? between(u[0], 0.0, 0.5 * kHalfSide) : between(u[0], 0.7 * kHalfSide, kHalfSide);
  const double angle = between(u[1], 0.0, 2.0 * std::numbers::pi);
  const double x = radius * std::sin(angle);
  const double y = radius * std::cos(angle);
  const double shiftedX = x + between(u[2], -kHalfSide, kHalfSide) * noise;
  const double shiftedY = y + between(u[3], -kHalfSide, kHalfSide) * noise;
  return {x, y, std::hypot(shiftedX, shiftedY) < 0.5 * kHalfSide ? 1 : 0};
}

// XOR: uniform in [-5, 5]², pushed 0.3 away from both axes; positive when x·y >= 0 for
// the point offset by up to ±5·noise per axis (again only the label feels the noise).
Point xorPoint(const std::array<double, 4>& u, double noise) {
  constexpr double kPadding = 0.3;
  double x = between(u[0], -kHalfSide, kHalfSide);
  double y = between(u[1], -kHalfSide, kHalfSide);
  x += x > 0 ? kPadding : -kPadding;
  y += y > 0 ? kPadding : -kPadding;
  const double shiftedX = x + between(u[2], -kHalfSide, kHalfSide) * noise;
  const double shiftedY = y + between(u[3], -kHalfSide, kHalfSide) * noise;
  return {x, y, shiftedX * shiftedY >= 0 ? 1 : 0};
}

// Two gaussians centred at (2, 2) (positive) and (-2, -2) (negative). The Playground maps
// noise 0..0.5 linearly to a variance of 0.5..4; the same line is continued up to noise 1.
Point gaussPoint(const PhiloxStream& stream, long i, bool positive, double noise) {
  const double variance = 0.5 + 7.0 * noise;
  const double sd = std::sqrt(variance);
  double z0 = 0, z1 = 0;
  stream.normalPair(static_cast<std::uint64_t>(i), z0, z1);
  const double centre = positive ? 2.0 : -2.0;
  return {centre + sd * z0, centre + sd * z1, positive ? 1 : 0};
}

// Spiral: point k of n on arm d (d = 0 positive, π negative) at radius 5k/n and angle
// 1.75·2π·k/n + d, jittered by a uniform ±noise per axis.
Point spiralPoint(const std::array<double, 4>& u, long k, long n, bool positive, double noise) {
  const double fraction = static_cast<double>(k) / static_cast<double>(n);
  const double radius = fraction * kHalfSide;
  const double angle =
      1.75 * fraction * 2.0 * std::numbers::pi + (positive ? 0.0 : std::numbers::pi);
  return {radius * std::sin(angle) + between(u[0], -1.0, 1.0) * noise,
          radius * std::cos(angle) + between(u[1], -1.0, 1.0) * noise, positive ? 1 : 0};
}

std::string formatNoise(double noise) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", noise);
  return text;
}

void validate(const DatasetOptions& options) {
  if (!(options.noise >= 0.0 && options.noise <= 1.0)) {
    throw ConfigError("dataset noise: expected a value in [0, 1], got " +
                      std::to_string(options.noise));
  }
  if (options.size < 4 || options.size > 1'000'000) {
    throw ConfigError("dataset size: expected 4 to 1000000 points, got " +
                      std::to_string(options.size));
  }
  if (!(options.trainFraction > 0.0 && options.trainFraction < 1.0)) {
    throw ConfigError("dataset trainFraction: expected a value in (0, 1), got " +
                      std::to_string(options.trainFraction));
  }
  const long train = std::lround(options.trainFraction * options.size);
  if (train < 1 || train > options.size - 1) {
    throw ConfigError("dataset trainFraction: " + std::to_string(options.trainFraction) + " of " +
                      std::to_string(options.size) +
                      " points leaves the train or the test split empty");
  }
}

struct KindEntry {
  SyntheticKind kind;
  std::string_view name;
  std::string_view description;
};

constexpr std::array<KindEntry, 4> kKinds = {{
    {SyntheticKind::Circle, "circle", "2-D points: a disc inside a ring (TensorFlow Playground)"},
    {SyntheticKind::Xor, "xor", "2-D points labelled by the sign of x*y (TensorFlow Playground)"},
    {SyntheticKind::Gauss, "gauss", "2-D points from two Gaussian blobs (TensorFlow Playground)"},
    {SyntheticKind::Spiral, "spiral",
     "2-D points on two interleaved spirals (TensorFlow Playground)"},
}};

}  // namespace

std::optional<SyntheticKind> syntheticKindFromName(std::string_view name) {
  for (const KindEntry& entry : kKinds) {
    if (entry.name == name) return entry.kind;
  }
  return std::nullopt;
}

std::string_view syntheticName(SyntheticKind kind) {
  return kKinds[static_cast<std::size_t>(kind)].name;
}

std::string_view syntheticDescription(SyntheticKind kind) {
  return kKinds[static_cast<std::size_t>(kind)].description;
}

std::vector<SyntheticKind> allSyntheticKinds() {
  return {SyntheticKind::Circle, SyntheticKind::Xor, SyntheticKind::Gauss, SyntheticKind::Spiral};
}

std::pair<long, long> syntheticSplitSizes(const DatasetOptions& options) {
  validate(options);
  const long train = std::lround(options.trainFraction * options.size);
  return {train, options.size - train};
}

Dataset makeSyntheticDataset(SyntheticKind kind, const DatasetOptions& options) {
  const auto [trainCount, testCount] = syntheticSplitSizes(options);
  const long size = options.size;
  const long half = size / 2;  // the first half is positive where the set has halves
  const auto kindIndex = static_cast<std::uint32_t>(kind);
  const PhiloxStream points(options.seed, RandomPurpose::SyntheticData, kindIndex, kPointStream);

  std::vector<Point> all(static_cast<std::size_t>(size));
  for (long i = 0; i < size; ++i) {
    const auto u = uniforms(points, static_cast<std::uint64_t>(i));
    const bool firstHalf = i < half;
    Point& p = all[static_cast<std::size_t>(i)];
    switch (kind) {
      case SyntheticKind::Circle:
        p = circlePoint(u, firstHalf, options.noise);
        break;
      case SyntheticKind::Xor:
        p = xorPoint(u, options.noise);
        break;
      case SyntheticKind::Gauss:
        p = gaussPoint(points, i, firstHalf, options.noise);
        break;
      case SyntheticKind::Spiral:
        p = firstHalf ? spiralPoint(u, i, half, true, options.noise)
                      : spiralPoint(u, i - half, size - half, false, options.noise);
        break;
    }
  }
  // Shuffle (Fisher-Yates, Knuth TAOCP vol. 2, Algorithm 3.4.2P) so both splits mix classes.
  const PhiloxStream shuffle(options.seed, RandomPurpose::SyntheticData, kindIndex, kShuffleStream);
  for (std::size_t i = all.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(shuffle.uniform(i) * static_cast<double>(i));
    std::swap(all[i - 1], all[std::min(j, i - 1)]);
  }

  Dataset dataset;
  dataset.name = std::string(syntheticName(kind));
  dataset.provenance = "synthetic, after TensorFlow Playground's " + dataset.name + " set; noise " +
                       formatNoise(options.noise) + ", " + std::to_string(size) + " points, seed " +
                       std::to_string(options.seed);
  dataset.shape = SampleShape::features(2);
  dataset.classNames = {"negative", "positive"};
  const auto fill = [&](Split& split, long begin, long count) {
    split.features.resize(count, 2);
    split.labels.resize(static_cast<std::size_t>(count));
    for (long r = 0; r < count; ++r) {
      const Point& p = all[static_cast<std::size_t>(begin + r)];
      split.features(r, 0) = static_cast<float>(p.x / kHalfSide);
      split.features(r, 1) = static_cast<float>(p.y / kHalfSide);
      split.labels[static_cast<std::size_t>(r)] = p.label;
    }
  };
  fill(dataset.train, 0, trainCount);
  fill(dataset.test, trainCount, testCount);
  return dataset;
}

}  // namespace epsilon::data

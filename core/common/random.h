// Counter-based random numbers (Random123's Philox4x32-10), keyed by (seed, purpose) and
// addressed by counters (e.g. step, example, element), so every draw is reproducible
// whatever thread computes it and in whatever order (docs/ARCHITECTURE.md, "Determinism").
#pragma once

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>
#include <numbers>

namespace epsilon {

// What a stream of random numbers is used for: part of the key, so streams never overlap.
enum class RandomPurpose : std::uint32_t {
  Initialisation = 1,
  Sampling = 2,
  GradientNoise = 3,
  ClipCountNoise = 4,
  SyntheticData = 5,
  DataSplit = 6,
  Shuffle = 7,
  Audit = 8,  // canaries, their inclusion and the attack's member sample (core/audit)
  PcaSample = 9,
  PcaNoise = 10,
  Tuning = 11,  // private tuning: the number of runs, the points drawn, their seeds
  Test = 99,
};

// A Philox stream: (seed, purpose) is the key; (a, b) select a sub-stream (for instance a
// step and a layer); draws inside the sub-stream are addressed by a 64-bit index.
class PhiloxStream {
 public:
  PhiloxStream(std::uint64_t seed, RandomPurpose purpose, std::uint32_t a = 0, std::uint32_t b = 0)
      : m_key{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        m_a(a ^ (static_cast<std::uint32_t>(purpose) << 24)),
        m_b(b) {}

  // Four independent 32-bit words for block index i.
  r123::Philox4x32::ctr_type block(std::uint64_t i) const {
    r123::Philox4x32::ctr_type ctr = {
        {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i >> 32), m_a, m_b}};
    return r123::Philox4x32()(ctr, m_key);
  }

  // A seed for a derived run (a shadow model, a tuning draw) from block i: 53 random bits, so
  // that it survives a JSON number (experiment files hold seeds in [0, 2^53]).
  std::uint64_t seed(std::uint64_t i) const {
    const auto words = block(i);
    return ((static_cast<std::uint64_t>(words[0]) << 32) | words[1]) &
           ((std::uint64_t{1} << 53) - 1);
  }

  // Uniform in (0, 1), never exactly 0 or 1 (24-bit resolution, offset by half a step).
  static double toOpenUnit(std::uint32_t word) {
    return (static_cast<double>(word >> 8) + 0.5) * (1.0 / 16777216.0);
  }
  // Uniform in [0, 1) with 53-bit resolution from two words.
  static double toUnit53(std::uint32_t hi, std::uint32_t lo) {
    const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 21) ^ (lo >> 11);
    return static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
  }

  // The i-th uniform in [0, 1) (53-bit).
  double uniform(std::uint64_t i) const {
    const auto r = block(i);
    return toUnit53(r[0], r[1]);
  }

  // The i-th pair of independent standard normals (Box-Muller on one Philox block).
  void normalPair(std::uint64_t i, double& z0, double& z1) const {
    const auto r = block(i);
    const double u1 =
        (static_cast<double>((static_cast<std::uint64_t>(r[0]) << 21) ^ (r[1] >> 11)) + 0.5) *
        (1.0 / 9007199254740992.0);
    const double u2 = toUnit53(r[2], r[3]);
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    z0 = radius * std::cos(angle);
    z1 = radius * std::sin(angle);
  }

  // The j-th standard normal of the stream (j even and odd share one block).
  double normal(std::uint64_t j) const {
    double z0, z1;
    normalPair(j >> 1, z0, z1);
    return (j & 1) ? z1 : z0;
  }

 private:
  r123::Philox4x32::key_type m_key;
  std::uint32_t m_a;
  std::uint32_t m_b;
};

}  // namespace epsilon

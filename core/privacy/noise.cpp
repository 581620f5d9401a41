// GCC 12 reports "‘__Y’ is used uninitialized" from inside its AVX-512 intrinsics (the
// _mm512_undefined_* idiom) where Eigen's packet math is inlined here; a false positive
// fixed in GCC 13 (the project silences the "maybe" form everywhere, see ProjectOptions).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include "core/privacy/noise.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "core/common/parallel.h"
#include "core/privacy/secure_random.h"

namespace epsilon::privacy {

namespace {

// Normals per parallel chunk; a multiple of four (one Philox block gives four normals).
constexpr std::size_t kChunk = 4096;
constexpr std::size_t kMaxBlocks = kChunk / 4 + 2;  // a chunk may straddle two extra blocks

// Writes the 4·count normals of blocks [0, count) of four 32-bit words to out; block(b)
// returns block b (a Philox block, or words from the OS CSPRNG in secure mode).
// Box-Muller (Box & Muller 1958): z₀ = √(−2 ln u₁)·cos 2πu₂, z₁ = √(−2 ln u₁)·sin 2πu₂;
// words (0, 1) of a block give normals 0 and 1, words (2, 3) normals 2 and 3.
template <class BlockSource>
void normalsOfBlocks(BlockSource&& block, std::size_t count, float* out) {
  alignas(64) std::array<float, 2 * kMaxBlocks> u1;
  alignas(64) std::array<float, 2 * kMaxBlocks> angle;
  constexpr float kTwoPow32 = 2.3283064365386963e-10f;  // 2^-32
  constexpr float kTwoPow24 = 5.9604644775390625e-08f;  // 2^-24
  constexpr float kTwoPi = static_cast<float>(2.0 * std::numbers::pi);
  for (std::size_t b = 0; b < count; ++b) {
    const auto r = block(b);
    // u₁ in (0, 1]: never 0, so the log is finite; 1 (radius 0) only by rounding.
    u1[2 * b] = std::min(1.0f, static_cast<float>(r[0]) * kTwoPow32 + 0.5f * kTwoPow32);
    angle[2 * b] = static_cast<float>(r[1] >> 8) * kTwoPow24 * kTwoPi;
    u1[2 * b + 1] = std::min(1.0f, static_cast<float>(r[2]) * kTwoPow32 + 0.5f * kTwoPow32);
    angle[2 * b + 1] = static_cast<float>(r[3] >> 8) * kTwoPow24 * kTwoPi;
  }
  const auto pairs = static_cast<Eigen::Index>(2 * count);
  Eigen::Map<Eigen::ArrayXf> radius(u1.data(), pairs);
  const Eigen::Map<const Eigen::ArrayXf> theta(angle.data(), pairs);
  radius = (-2.0f * radius.log()).max(0.0f).sqrt();
  alignas(64) std::array<float, 2 * kMaxBlocks> cosine;
  alignas(64) std::array<float, 2 * kMaxBlocks> sine;
  Eigen::Map<Eigen::ArrayXf>(cosine.data(), pairs) = radius * theta.cos();
  Eigen::Map<Eigen::ArrayXf>(sine.data(), pairs) = radius * theta.sin();
  for (Eigen::Index k = 0; k < pairs; ++k) {
    out[2 * k] = cosine[static_cast<std::size_t>(k)];
    out[2 * k + 1] = sine[static_cast<std::size_t>(k)];
  }
}

// Calls sink(j, z_{offset + j}) for j in [begin, end), in order.
template <class Sink>
void forNormals(const PhiloxStream& stream, std::uint64_t offset, std::size_t begin,
                std::size_t end, Sink&& sink) {
  alignas(64) std::array<float, 4 * kMaxBlocks> buffer;
  const std::uint64_t first = offset + begin;
  const std::uint64_t last = offset + end;  // exclusive
  const std::uint64_t firstBlock = first / 4;
  const std::uint64_t blockCount = (last + 3) / 4 - firstBlock;
  normalsOfBlocks([&](std::size_t b) { return stream.block(firstBlock + b); },
                  static_cast<std::size_t>(blockCount), buffer.data());
  const std::uint64_t skip = first - 4 * firstBlock;
  for (std::size_t j = begin; j < end; ++j) sink(j, buffer[skip + (j - begin)]);
}

}  // namespace

void fillStandardNormal(std::span<float> out, const PhiloxStream& stream, std::uint64_t offset) {
  forEachChunk(out.size(), kChunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    forNormals(stream, offset, begin, end, [&](std::size_t j, float z) { out[j] = z; });
  });
}

void addGaussianNoise(std::span<float> values, double stddev, const PhiloxStream& stream) {
  if (stddev == 0.0) return;
  const auto scale = static_cast<float>(stddev);
  forEachChunk(values.size(), kChunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    forNormals(stream, 0, begin, end, [&](std::size_t j, float z) { values[j] += scale * z; });
  });
}

void addSecureGaussianNoise(std::span<float> values, double stddev) {
  if (stddev == 0.0) return;
  const auto scale = static_cast<float>(stddev);
  forEachChunk(values.size(), kChunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    // Fresh OS-random words for every block: the same Box-Muller transform as the seeded
    // path, so only the source of the uniforms differs.
    const std::size_t blocks = (end - begin + 3) / 4;
    std::array<std::array<std::uint32_t, 4>, kMaxBlocks> words;
    fillFromOsCsprng(std::as_writable_bytes(std::span(words.data(), blocks)));
    alignas(64) std::array<float, 4 * kMaxBlocks> normals;
    normalsOfBlocks([&](std::size_t b) { return words[b]; }, blocks, normals.data());
    for (std::size_t j = begin; j < end; ++j) values[j] += scale * normals[j - begin];
  });
}

}  // namespace epsilon::privacy

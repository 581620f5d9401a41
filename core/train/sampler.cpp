#include "core/train/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/common/text.h"

namespace epsilon::train {

namespace {

std::uint32_t low(long long v) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
}
std::uint32_t high(long long v) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) >> 32);
}

}  // namespace

PoissonSampler::PoissonSampler(long long populationSize, double rate, std::uint64_t seed)
    : m_populationSize(populationSize),
      m_rate(rate),
      m_logComplement(std::log1p(-rate)),
      m_seed(seed) {
  if (populationSize < 1 || !(rate >= 0.0 && rate <= 1.0)) {
    throw ConfigError("training.lot_size: the sampling rate L/N must lie in [0, 1], got " +
                      shortNumber(rate));
  }
}

std::vector<int> PoissonSampler::lot(long long step) {
  std::vector<int> indices;
  if (m_rate <= 0.0) return indices;
  indices.reserve(
      static_cast<std::size_t>(m_rate * static_cast<double>(m_populationSize) * 1.2 + 16));
  if (m_rate >= 1.0) {
    indices.resize(static_cast<std::size_t>(m_populationSize));
    std::iota(indices.begin(), indices.end(), 0);
    return indices;
  }
  const PhiloxStream stream(m_seed, RandomPurpose::Sampling, low(step), high(step));
  long long index = -1;
  for (std::uint64_t draw = 0;; ++draw) {
    const double u = stream.uniform(draw);
    if (u <= 0.0) break;  // ln 0 = −∞: an infinite gap
    const double gap = std::floor(std::log(u) / m_logComplement);
    if (gap >= static_cast<double>(m_populationSize)) break;
    index += static_cast<long long>(gap) + 1;
    if (index >= m_populationSize) break;
    indices.push_back(static_cast<int>(index));
  }
  return indices;
}

ShuffleSampler::ShuffleSampler(long long populationSize, int lotSize, std::uint64_t seed)
    : m_populationSize(populationSize),
      m_lotSize(lotSize),
      m_lotsPerEpoch(std::max<long long>(1, populationSize / std::max(1, lotSize))),
      m_seed(seed) {
  if (lotSize < 1 || lotSize > populationSize) {
    throw ConfigError("training.lot_size: expected a value in [1, " +
                      std::to_string(populationSize) + "], got " + std::to_string(lotSize));
  }
}

std::vector<int> ShuffleSampler::lot(long long step) {
  const long long epoch = step / m_lotsPerEpoch;
  if (epoch != m_cachedEpoch) {
    m_permutation.resize(static_cast<std::size_t>(m_populationSize));
    std::iota(m_permutation.begin(), m_permutation.end(), 0);
    const PhiloxStream stream(m_seed, RandomPurpose::Shuffle, low(epoch), high(epoch));
    for (long long i = m_populationSize - 1; i > 0; --i) {
      const auto j =
          std::min(i, static_cast<long long>(stream.uniform(static_cast<std::uint64_t>(i)) *
                                             static_cast<double>(i + 1)));
      std::swap(m_permutation[static_cast<std::size_t>(i)],
                m_permutation[static_cast<std::size_t>(j)]);
    }
    m_cachedEpoch = epoch;
  }
  const auto begin = m_permutation.begin() + (step % m_lotsPerEpoch) * m_lotSize;
  return std::vector<int>(begin, begin + m_lotSize);
}

std::unique_ptr<Sampler> makeSampler(SamplingKind kind, long long populationSize, int lotSize,
                                     std::uint64_t seed) {
  if (kind == SamplingKind::Shuffle)
    return std::make_unique<ShuffleSampler>(populationSize, lotSize, seed);
  return std::make_unique<PoissonSampler>(
      populationSize, static_cast<double>(lotSize) / static_cast<double>(populationSize), seed);
}

}  // namespace epsilon::train

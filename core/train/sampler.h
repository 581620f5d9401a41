// Samplers: which training examples form the lot of each step. Poisson sampling (each
// example independently with probability q; Abadi et al. 2016, §3.1 "lots") is what the
// accountants assume; shuffled fixed-size batches are the common practical substitute.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::train {

class Sampler {
 public:
  virtual ~Sampler() = default;
  // The example indices of step `step`'s lot, ascending for Poisson, in permutation order
  // for shuffle. Deterministic in (seed, step). Not thread-safe (shuffle caches its epoch).
  virtual std::vector<int> lot(long long step) = 0;
  virtual SamplingKind kind() const = 0;

 protected:
  Sampler() = default;
};

// Poisson sampling with rate q over N examples, drawn by geometric skips (Devroye 1986,
// §X.2: the gap to the next included index is ⌊ln U / ln(1 − q)⌋), so a lot costs O(qN)
// draws instead of N.
class PoissonSampler final : public Sampler {
 public:
  PoissonSampler(long long populationSize, double rate, std::uint64_t seed);
  std::vector<int> lot(long long step) override;
  SamplingKind kind() const override { return SamplingKind::Poisson; }

 private:
  long long m_populationSize;
  double m_rate;
  double m_logComplement;  // ln(1 − q)
  std::uint64_t m_seed;
};

// A fresh Fisher-Yates permutation each epoch (Knuth, TAOCP 2, Alg. 3.4.2P), cut into
// ⌊N/L⌋ lots of exactly L (the remainder of each epoch is dropped, as drop_remainder does).
class ShuffleSampler final : public Sampler {
 public:
  ShuffleSampler(long long populationSize, int lotSize, std::uint64_t seed);
  std::vector<int> lot(long long step) override;
  SamplingKind kind() const override { return SamplingKind::Shuffle; }

 private:
  long long m_populationSize;
  int m_lotSize;
  long long m_lotsPerEpoch;
  std::uint64_t m_seed;
  long long m_cachedEpoch = -1;
  std::vector<int> m_permutation;
};

std::unique_ptr<Sampler> makeSampler(SamplingKind kind, long long populationSize, int lotSize,
                                     std::uint64_t seed);

}  // namespace epsilon::train

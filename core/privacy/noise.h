// Gaussian noise for the privatized gradient sum (the Gaussian mechanism, Dwork & Roth 2014,
// Thm. A.1; Abadi et al. 2016, Alg. 1 "Add noise"), drawn from a counter-based Philox stream
// so entry j of a step's noise is the same whichever thread draws it.
#pragma once

#include <cstdint>
#include <span>

#include "core/common/random.h"

namespace epsilon::privacy {

// out[j] = the (offset + j)-th standard normal of `stream`. Vectorised Box-Muller over
// fixed blocks of four Philox words, in parallel fixed chunks (bit-identical for any thread
// count). u₁ has 32-bit resolution, so |z| ≤ √(2·ln 2³³) ≈ 6.76: the tail beyond it
// (probability 1.4e-11 per entry) is folded inward, as in every floating-point sampler.
void fillStandardNormal(std::span<float> out, const PhiloxStream& stream, std::uint64_t offset = 0);

// values[j] += stddev · z_j with z as above. stddev 0 leaves values untouched.
void addGaussianNoise(std::span<float> values, double stddev, const PhiloxStream& stream);

}  // namespace epsilon::privacy

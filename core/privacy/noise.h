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

// values[j] += stddev · z_j with every z_j drawn from fresh OS CSPRNG words (getrandom(2),
// see secure_random.h) through the same Box-Muller transform: unpredictable from any seed,
// hence never reproducible. Floating-point sampling itself is unchanged, so the caveat of
// Mironov 2012 ("On significance of the least significant bits for differential privacy")
// applies in both modes.
void addSecureGaussianNoise(std::span<float> values, double stddev);

}  // namespace epsilon::privacy

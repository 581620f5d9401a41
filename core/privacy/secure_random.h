// Random bytes from the operating system's CSPRNG (Linux getrandom(2)), for the DP noise of
// a run that asks for secure noise: unpredictable even to someone who knows the run's seed,
// and therefore not reproducible. The seeded Philox streams stay the default (docs/ARCHITECTURE.md,
// "Determinism").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace epsilon::privacy {

// Fills `out` from getrandom(2) (blocking until the kernel's pool is initialised, retrying
// on EINTR and short reads); throws PrivacyError if the system call fails.
void fillFromOsCsprng(std::span<std::byte> out);

// One 64-bit word from the OS CSPRNG.
std::uint64_t osRandom64();

}  // namespace epsilon::privacy

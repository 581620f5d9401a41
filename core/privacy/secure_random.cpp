// getrandom(2) rather than std::random_device: the standard does not require random_device
// to be a CSPRNG (it may even be a deterministic engine), whereas getrandom reads the
// kernel's ChaCha20-based CSPRNG and blocks only until it has been seeded at boot.
#include "core/privacy/secure_random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/common/errors.h"

namespace epsilon::privacy {

void fillFromOsCsprng(std::span<std::byte> out) {
  std::size_t filled = 0;
  while (filled < out.size()) {
    // Requests above 256 bytes may return fewer bytes (getrandom(2), "Interruption by a
    // signal handler"), so loop until the span is full.
    const ssize_t got = getrandom(out.data() + filled, out.size() - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw PrivacyError("secure noise: getrandom(2) failed (" + std::string(std::strerror(errno)) +
                         "); expected random bytes from the operating system");
    }
    filled += static_cast<std::size_t>(got);
  }
}

std::uint64_t osRandom64() {
  std::uint64_t word = 0;
  fillFromOsCsprng(std::as_writable_bytes(std::span(&word, 1)));
  return word;
}

}  // namespace epsilon::privacy

// Fuzz target: CIFAR-10 binary batches (Krizhevsky 2009, records of 1 + 3072 bytes) and the
// batches.meta.txt class-name list. The first input byte picks which.
#include <cstdint>

#include "core/data/cifar_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  if (size < 1) return 0;
  const auto body = fuzz::asBytes(data + 1, size - 1);
  fuzz::expectCleanRejection([&] {
    if (data[0] % 2 == 0) {
      data::parseCifarBatch(body, "fuzz_batch.bin");
    } else {
      data::parseCifarClassNames(body, "batches.meta.txt");
    }
  });
  return 0;
}

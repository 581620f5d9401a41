// Fuzz target: CIFAR-10 binary batches (Krizhevsky 2009, records of 1 + 3072 bytes) and the
// batches.meta.txt class-name list. The first input byte picks which.
#include "core/data/cifar_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  return fuzz::parseWithFirstByte<2>(
      data, size,
      {[](std::span<const std::byte> body) { data::parseCifarBatch(body, "fuzz_batch.bin"); },
       [](std::span<const std::byte> body) {
         data::parseCifarClassNames(body, "batches.meta.txt");
       }});
}

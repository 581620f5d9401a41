// Fuzz target: IDX image and label files (LeCun et al.'s MNIST format), raw and gzip'd.
// The first input byte picks the parser; the rest is the file. Mode 4 gzips the body first,
// so the IDX parser behind the inflater sees arbitrary content, not only CRC failures.
#include <zlib.h>

#include <cstdint>
#include <vector>

#include "core/data/idx_loader.h"
#include "fuzz_support.h"

namespace {

std::vector<std::byte> gzipped(std::span<const std::byte> raw) {
  // windowBits 15 + 16: a gzip wrapper (zlib manual, deflateInit2).
  z_stream stream{};
  deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::vector<std::byte> out(deflateBound(&stream, static_cast<uLong>(raw.size())) + 32);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(raw.data()));
  stream.avail_in = static_cast<uInt>(raw.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  using Body = std::span<const std::byte>;
  return fuzz::parseWithFirstByte<6>(
      data, size,
      {[](Body body) { data::parseIdxImages(body, "fuzz-images-idx3-ubyte", 64); },
       [](Body body) { data::parseIdxLabels(body, "fuzz-labels-idx1-ubyte", 10, 64); },
       [](Body body) { data::probeIdxHeader(body, "fuzz-images-idx3-ubyte"); },
       [](Body body) { data::parseIdxImages(body, "fuzz-images-idx3-ubyte.gz"); },
       [](Body body) {
         const auto compressed = gzipped(body);
         data::parseIdxImages(compressed, "fuzz-images-idx3-ubyte.gz", 64);
         data::probeIdxHeader(compressed, "fuzz-images-idx3-ubyte.gz");
       },
       [](Body body) { data::parseClassNames(body, "fuzz-classes.txt"); }});
}

// Deterministic parallel loops: work is cut into fixed-size chunks that do not depend on
// the number of threads, each chunk writes its own slot, and slots are combined in index
// order, so a sum is bit-identical with 1 thread or with all (DESIGN.md, "Determinism").
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>

namespace epsilon {

// Number of chunks of `chunk` items needed for `count` items.
inline std::size_t chunkCount(std::size_t count, std::size_t chunk) {
  return chunk == 0 ? 0 : (count + chunk - 1) / chunk;
}

// Calls body(chunkIndex, begin, end) for each fixed chunk of [0, count), in parallel.
template <class Body>
void forEachChunk(std::size_t count, std::size_t chunk, Body&& body) {
  const std::size_t chunks = chunkCount(count, chunk);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    const std::size_t begin = c * chunk;
    body(c, begin, std::min(count, begin + chunk));
  });
}

}  // namespace epsilon

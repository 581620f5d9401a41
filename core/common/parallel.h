// Deterministic parallel loops: work is cut into fixed-size chunks that do not depend on
// the number of threads, each chunk writes its own slot, and slots are combined in index
// order, so a sum is bit-identical with 1 thread or with all (docs/ARCHITECTURE.md, "Determinism").
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <vector>

#include "core/common/thread_priority.h"
#include "core/common/tsan_annotations.h"

namespace epsilon {

// Number of chunks of `chunk` items needed for `count` items.
inline std::size_t chunkCount(std::size_t count, std::size_t chunk) {
  return chunk == 0 ? 0 : (count + chunk - 1) / chunk;
}

namespace detail {

// What tbb::parallel_for runs for forEachChunk: one chunk of [0, count). The fork and join
// edges libtbb makes out of TSan's sight are stated here (core/common/tsan_annotations.h).
// The fork edge's sync is the loop's own address, which a thread running a chunk has from
// TBB without reading anything the caller wrote; everything else is read after it.
template <class Body>
struct ChunkLoop {
  std::size_t count;
  std::size_t chunk;
  Body& body;
  char join = 0;  // the join edge's sync (only its address is used)

  void operator()(std::size_t c) const {
    tsanAcquire(this);
    const std::size_t begin = c * chunk;
    body(c, begin, std::min(count, begin + chunk));
    tsanRelease(&join);
    yieldIfLoweredAndDue();
  }
};

}  // namespace detail

// Calls body(chunkIndex, begin, end) for each fixed chunk of [0, count), in parallel.
template <class Body>
void forEachChunk(std::size_t count, std::size_t chunk, Body&& body) {
  const detail::ChunkLoop<std::remove_reference_t<Body>> loop{count, chunk, body};
  tsanPublish(&loop);
  tsanRelease(&loop);
  tbb::parallel_for(std::size_t{0}, chunkCount(count, chunk), loop);
  tsanAcquire(&loop.join);
}

// Calls body(i) for each i of [0, count), in parallel chunks of `chunk`. When some calls
// throw, the exception of the lowest i is rethrown (the one a loop in order would have
// thrown), so what a caller reports does not depend on the threads.
template <class Body>
void forEachIndex(std::size_t count, std::size_t chunk, Body&& body) {
  std::vector<std::exception_ptr> errors(chunkCount(count, chunk));
  forEachChunk(count, chunk, [&](std::size_t c, std::size_t begin, std::size_t end) {
    try {
      for (std::size_t i = begin; i < end; ++i) body(i);
    } catch (...) {
      errors[c] = std::current_exception();
    }
  });
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace epsilon

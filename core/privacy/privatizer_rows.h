// Shared by the privatizers: a deterministic parallel loop over the rows of a units × P
// matrix, each fixed chunk of rows keeping its own statistics, merged in chunk order.
#pragma once

#include <vector>

#include "core/common/parallel.h"
#include "core/privacy/privatizer.h"

namespace epsilon::privacy::detail {

// Calls rowFn(row, stats) for every row (an Eigen row expression of `rows`); adds the merged
// per-chunk statistics to `stats`.
template <class RowFn>
void forEachRow(GradientRows rows, PrivatizeStats& stats, RowFn&& rowFn) {
  constexpr std::size_t kRowsPerChunk = 4;
  const auto count = static_cast<std::size_t>(rows.rows());
  std::vector<PrivatizeStats> partial(chunkCount(count, kRowsPerChunk));
  forEachChunk(count, kRowsPerChunk, [&](std::size_t c, std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r)
      rowFn(rows.row(static_cast<Eigen::Index>(r)), partial[c]);
  });
  for (const auto& p : partial) stats.merge(p);
}

// min(1, bound/norm): Abadi et al. 2016, Alg. 1, "Clip gradient": g / max(1, ‖g‖₂/C).
inline float clipFactor(double norm, double bound) {
  return norm > bound ? static_cast<float>(bound / norm) : 1.0f;
}

}  // namespace epsilon::privacy::detail

// The memory this process may use, for refusing an allocation that cannot succeed before it
// is tried (train::checkMemory for a run, the data loaders for a data set's features).
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace epsilon {

// The machine's physical memory, or less when the process's address space is limited
// (`ulimit -v`, `prlimit --as`); bytes.
inline double availableMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long size = sysconf(_SC_PAGE_SIZE);
  double bytes = pages > 0 && size > 0 ? double(pages) * double(size) : 1e18;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  return bytes;
}

// "1.23 GB".
inline std::string memoryText(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GB", bytes / 1e9);
  return text;
}

}  // namespace epsilon

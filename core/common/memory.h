// The memory this process may use, for refusing an allocation that cannot succeed before it
// is tried (train::checkMemory for a run, the data loaders for a data set's features).
#pragma once

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
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

// Asks Linux to back the whole 2 MiB pages inside [data, data + bytes) with transparent huge
// pages (in THP's "madvise" mode, Debian's default, only memory that asks gets them) and to
// move what is already written there into them at once (MADV_COLLAPSE, Linux 6.1). For a
// data set's features: a lot reads its rows at random, and with 4 KiB pages nearly every
// row costs a TLB miss (docs/ARCHITECTURE.md, "Engine speed"). Where the kernel refuses,
// nothing changes but the speed.
inline void adviseHugePages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end <= begin) return;
#ifndef MADV_COLLAPSE
  constexpr int MADV_COLLAPSE = 25;  // <linux/mman.h> of Linux 6.1; glibc 2.36 lacks it
#endif
  void* range = reinterpret_cast<void*>(begin);
  if (madvise(range, end - begin, MADV_HUGEPAGE) == 0) madvise(range, end - begin, MADV_COLLAPSE);
}

}  // namespace epsilon

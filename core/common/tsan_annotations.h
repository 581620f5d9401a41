// Happens-before edges that ThreadSanitizer cannot see: oneTBB orders a parallel loop's caller
// before each body call and each body call before the loop returns, but it does so inside
// Debian's libtbb, which is not built with TSan. In a TSan build these calls state that order
// (no-ops otherwise); they order nothing else, so two body calls stay unordered and a race
// between them is still reported.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define EPSILON_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EPSILON_TSAN 1
#endif
#endif

#ifdef EPSILON_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace epsilon {

// What the calling thread did so far happens before whatever follows a tsanAcquire(sync).
inline void tsanRelease([[maybe_unused]] const void* sync) {
#ifdef EPSILON_TSAN
  __tsan_release(const_cast<void*>(sync));
#endif
}

// Makes the stores into `object` (a loop body about to be handed to libtbb) happen before
// the next tsanRelease: until its address escapes, an optimiser may sink them past that call.
inline void tsanPublish([[maybe_unused]] const void* object) {
#ifdef EPSILON_TSAN
  asm volatile("" : : "r"(object) : "memory");
#endif
}

inline void tsanAcquire([[maybe_unused]] const void* sync) {
#ifdef EPSILON_TSAN
  __tsan_acquire(const_cast<void*>(sync));
#endif
}

}  // namespace epsilon

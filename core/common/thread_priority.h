// Background threads give way to the thread a user is waiting on (docs/ARCHITECTURE.md,
// "Threading"): the threads that train runs lower their own scheduling priority, so that
// when the GUI thread wakes (a timer, a slider event) the kernel's fair scheduler runs it
// before them instead of after their time slice.
#pragma once

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace epsilon {

// The niceness of threads that train (weight 110 against 1024 for a thread at 0 under Linux's
// CFS, sched(7)), and of those that answer a user's request in the background (a preview, a
// calibration: weight 335), which so still run before the trainers.
inline constexpr int kBackgroundNiceness = 10;
inline constexpr int kInteractiveNiceness = 5;

// Lowers the calling thread's priority to `niceness` (never raises it). On Linux,
// setpriority(2) with PRIO_PROCESS and a thread id applies to that thread alone; elsewhere
// this does nothing. An unprivileged thread cannot raise it back, so only threads that do
// background work for the rest of their life call this.
inline void lowerThreadPriority(int niceness = kBackgroundNiceness) {
#if defined(__linux__)
  thread_local int lowered = 0;
  if (lowered >= niceness) return;
  lowered = niceness;
  const auto self = static_cast<id_t>(gettid());
  if (getpriority(PRIO_PROCESS, self) < niceness) setpriority(PRIO_PROCESS, self, niceness);
#else
  (void)niceness;
#endif
}

}  // namespace epsilon

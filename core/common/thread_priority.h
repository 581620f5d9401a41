// Background threads give way to the thread a user is waiting on (docs/ARCHITECTURE.md,
// "Threading"): the threads that train runs lower their own scheduling priority, so that
// when the GUI thread wakes (a timer, a slider event) the kernel's fair scheduler runs it
// before them instead of after their time slice.
#pragma once

#include <chrono>

#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace epsilon {

// The niceness of threads that train (weight 110 against 1024 for a thread at 0 under Linux's
// CFS, sched(7)), and of those that answer a user's request in the background (a preview, a
// calibration: weight 335), which so still run before the trainers.
inline constexpr int kBackgroundNiceness = 10;
inline constexpr int kInteractiveNiceness = 5;

namespace detail {
// The niceness this thread has lowered itself to (0: never).
inline int& loweredNiceness() {
  thread_local int lowered = 0;
  return lowered;
}
// How many times this thread has called sched_yield through yieldIfLoweredAndDue.
inline int& yieldsOffered() {
  thread_local int offered = 0;
  return offered;
}
}  // namespace detail

// Lowers the calling thread's priority to `niceness` (never raises it). On Linux,
// setpriority(2) with PRIO_PROCESS and a thread id applies to that thread alone; elsewhere
// this does nothing. An unprivileged thread cannot raise it back, so only threads that do
// background work for the rest of their life call this.
inline void lowerThreadPriority(int niceness = kBackgroundNiceness) {
#if defined(__linux__)
  int& lowered = detail::loweredNiceness();
  if (lowered >= niceness) return;
  lowered = niceness;
  const auto self = static_cast<id_t>(gettid());
  if (getpriority(PRIO_PROCESS, self) < niceness) setpriority(PRIO_PROCESS, self, niceness);
#else
  (void)niceness;
#endif
}

// A lowered thread offers its core to a waiting thread at most once per millisecond of work
// (called between chunks of a parallel loop). A lower priority alone is not enough: the
// kernel lets a woken thread of higher priority wait for the running one's next scheduler
// tick (up to 4 ms at 250 Hz) instead of preempting it. sched_yield(2) with nothing waiting
// returns at once.
inline void yieldIfLoweredAndDue() {
#if defined(__linux__)
  if (detail::loweredNiceness() == 0) return;
  thread_local auto last = std::chrono::steady_clock::now();
  const auto now = std::chrono::steady_clock::now();
  if (now - last < std::chrono::milliseconds(1)) return;
  last = now;
  ++detail::yieldsOffered();
  sched_yield();
#endif
}

// How many times this thread has offered its core (tests).
inline int yieldsOffered() {
  return detail::yieldsOffered();
}

}  // namespace epsilon

#pragma once
// The CPUs a program of ours may run on, as it was started, and the repair of a child's.
//
// With OMP_PROC_BIND set (Kokkos recommends OMP_PROC_BIND=spread), the OpenMP runtime binds the
// initial thread to the first place when the program starts. A child started from that thread
// (`kpuzzles bench` handing over to kpuzzles-bench, the learner loop's cmake --build) inherits
// that one CPU: its 16 OpenMP threads all ran on CPU 0 (deep_copy measured at 14 instead of
// 90 GB/s on the 16-core Xeon), and the rebuild compiled on one core. Children therefore get
// the mask this process was started with.
#include <sched.h>

namespace kpz::cli {

struct CpuMask {
  cpu_set_t set;
  bool known = false;  // false: leave the child's mask as inherited
  int count() const;
};

// The CPUs this process was started with: the union of the OpenMP places when the runtime made
// places (they are cut from the initial mask), else this thread's current mask.
CpuMask startup_cpu_mask();

// Async-signal-safe (one system call): for a child between fork and exec, or before exec.
void restore_cpu_mask(const CpuMask& mask);

}  // namespace kpz::cli

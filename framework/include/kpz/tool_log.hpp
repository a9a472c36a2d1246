#pragma once
// What Kokkos Tools report while a learner's function runs: every kernel launch, fence and
// deep_copy, in order, for checks that judge what values cannot show (a copy nobody waited for
// reads right on a host backend, where every copy finishes before it returns). A launch and a
// fence carry the device id Kokkos gives the execution space instance they ran on
// (Kokkos::Tools::Experimental::device_id: backend, device and instance).
#include <cstdint>
#include <string>
#include <vector>

namespace kpz {

struct ToolEvent {
  enum class Kind { parallel_for, parallel_reduce, parallel_scan, fence, copy };
  Kind kind;
  std::string name;             // a kernel's or a fence's label; a copy's destination View's label
  std::uint32_t device_id = 0;  // launches and fences; a copy has none (Kokkos Tools give none)
};

// Records from construction to destruction, in-process, through Kokkos' callback setters. A tool
// already loaded (KOKKOS_TOOLS_LIBS=libkpz_kernel_times.so) keeps working: each callback of this
// log calls the one it replaced, and the destructor puts the old set back. One log at a time.
// The trace build runs flat and team kernels on its own executor, out of Kokkos Tools' sight: its
// copies and fences are Kokkos' own and are recorded, its launches are not.
//
// LateCopies::emulated makes a copy into host memory land late, on every backend: when a
// deep_copy into a View in HostSpace returns without having waited itself, the log waits for it
// (a GPU's copy may have landed or not, by timing), keeps its bytes aside, and the destination
// reads NaN (all bits set) until the next fence or launch; then the copied bytes land. A host
// loop that reads the copy before waiting for it reads poison on every run of every backend,
// where a GPU alone would read stale data only when the copy is slower than the loop. Only for
// checks of functions that copy whole Views: a strided destination would have the bytes after
// its first element poisoned too.
enum class LateCopies { real, emulated };

// What a late copy's destination reads until it lands: every bit set, a NaN whose bits differ
// from kpz::poison_value's, so a check can tell "read before the copy landed" from "never written".
inline constexpr unsigned char kLateCopyByte = 0xff;
bool is_late_copy_poison(float v);

class ToolLog {
 public:
  explicit ToolLog(LateCopies late = LateCopies::real);
  ~ToolLog();
  ToolLog(const ToolLog&) = delete;
  ToolLog& operator=(const ToolLog&) = delete;

  std::vector<ToolEvent> events() const;
};

// The instance part of a device id (its low 17 bits): 0 for Kokkos' global fences, the same
// number for every instance of a backend whose instances Kokkos does not tell apart.
std::uint32_t instance_bits(std::uint32_t device_id);

// Whether some fence follows the last copy of `events` (true when there is no copy): a copy on an
// execution space instance may still run when the function that started it returns. The fences
// Kokkos makes for itself do not count: before freeing a View (after the function read the
// data) and around each callback for a tool that asks for them.
bool last_copy_is_fenced(const std::vector<ToolEvent>& events);

// Kokkos fences a reduction's instance when its result is a host value: the launch then waits.
bool is_reduction_wait(const ToolEvent& e);

}  // namespace kpz

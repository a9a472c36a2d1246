// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "basics/basics.hpp"

namespace kpz::basics::exercise {

// Kokkos calls plain functions and hands them no pointer of ours, so what they share lives here:
// the KernelTimes that time_kernels fills, and the launches begun and not yet ended.
using Clock = std::chrono::steady_clock;
struct Begun {
  std::string label;
  Clock::time_point start;
};
KernelTimes* recording = nullptr;
std::map<std::uint64_t, Begun> begun;
std::uint64_t next_kernel_id = 0;

// Called as a kernel starts: its label (the name given to parallel_for, parallel_reduce or
// parallel_scan), the device it runs on, and where to put an id of our choosing, which Kokkos
// hands to end_kernel when the same kernel ends. Kokkos has waited for the device first.
void begin_kernel(const char* label, std::uint32_t /*device_id*/, std::uint64_t* kernel_id) {
  // TODO(roughly 3 lines): remember that a kernel named label starts now, under a new
  //   *kernel_id.
}

// Called as that kernel ends (after Kokkos has waited for it: its time is its own).
void end_kernel(std::uint64_t kernel_id) {
  // TODO(roughly 6 lines): the kernel begun under kernel_id has ended: its label's entry in
  //   *recording counts one more launch and adds the seconds since it began.
}

template <class Space>
void time_kernels(const Space& space, const Workload<Space>& workload, KernelTimes& times) {
  recording = &times;
  // TODO(roughly 6 lines): from here on, Kokkos calls begin_kernel as every parallel_for,
  //   parallel_reduce and parallel_scan starts, and end_kernel as it ends.
  workload(space);
  // TODO(roughly 6 lines): Kokkos calls neither of them any more.
  recording = nullptr;
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TOOL_KERNELS)

}  // namespace kpz::basics::exercise

// basics reference solution, step 14: Kokkos Tools, the callbacks Kokkos calls around every
// launch, registered inside the program to count and time the kernels of a workload.
// exercises/basics/tools.cpp is generated from this file by cmake/kpz-skeletons: each
// KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "basics/basics.hpp"

namespace kpz::basics::reference {

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
  // KPZ-TODO(roughly 3 lines): remember that a kernel named label starts now, under a new
  //   *kernel_id.
  *kernel_id = next_kernel_id++;
  begun[*kernel_id] = Begun{label, Clock::now()};
  // KPZ-END
}

// Called as that kernel ends (after Kokkos has waited for it: its time is its own).
void end_kernel(std::uint64_t kernel_id) {
  // KPZ-TODO(roughly 6 lines): the kernel begun under kernel_id has ended: its label's entry in
  //   *recording counts one more launch and adds the seconds since it began.
  const auto now = Clock::now();
  const auto it = begun.find(kernel_id);
  if (it == begun.end()) return;
  KernelStat& stat = (*recording)[it->second.label];
  stat.launches += 1;
  stat.seconds += std::chrono::duration<double>(now - it->second.start).count();
  begun.erase(it);
  // KPZ-END
}

template <class Space>
void time_kernels(const Space& space, const Workload<Space>& workload, KernelTimes& times) {
  recording = &times;
  // KPZ-TODO(roughly 6 lines): from here on, Kokkos calls begin_kernel as every parallel_for,
  //   parallel_reduce and parallel_scan starts, and end_kernel as it ends.
  namespace tools = Kokkos::Tools::Experimental;
  tools::set_begin_parallel_for_callback(begin_kernel);
  tools::set_end_parallel_for_callback(end_kernel);
  tools::set_begin_parallel_reduce_callback(begin_kernel);
  tools::set_end_parallel_reduce_callback(end_kernel);
  tools::set_begin_parallel_scan_callback(begin_kernel);
  tools::set_end_parallel_scan_callback(end_kernel);
  // KPZ-END
  workload(space);
  // KPZ-TODO(roughly 6 lines): Kokkos calls neither of them any more.
  tools::set_begin_parallel_for_callback(nullptr);
  tools::set_end_parallel_for_callback(nullptr);
  tools::set_begin_parallel_reduce_callback(nullptr);
  tools::set_end_parallel_reduce_callback(nullptr);
  tools::set_begin_parallel_scan_callback(nullptr);
  tools::set_end_parallel_scan_callback(nullptr);
  // KPZ-END
  recording = nullptr;
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TOOL_KERNELS)

}  // namespace kpz::basics::reference

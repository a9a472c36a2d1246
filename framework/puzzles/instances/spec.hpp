#pragma once
// What instances' files share with each other, the tests and the benchmark: the inputs, the tool
// log a run records, the instance rules it is judged by, and the run itself (run_case), which
// spec.cpp calls with the kernel table's overlap and tests/instances/ with planted mistakes.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "instances/instances.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"
#include "kpz/tool_log.hpp"
#include "kpz/transfer.hpp"

namespace kpz::instances {

// --- The inputs (inputs.cpp) --------------------------------------------------------------------

// The inputs of one run: the page's worked example, or random ones (kpz::Rng) once a size is given.
struct Inputs {
  float alpha = 0;
  std::vector<float> x, y, w;
  bool worked = false;
};
Inputs make_inputs(const RunRequest& req);

// --- The oracle and the instance rules (oracle.cpp) -------------------------------------------------------------
// The values each run must give, and the instance rules `overlap` is judged by, from what Kokkos
// Tools reported while it ran. Values right is not enough: two jobs that share one instance, or a
// fence of the whole device, give the right values and no overlap.
//
// Where each rule holds (Kokkos 5.0.2, checked in its sources): a launch's and a fence's device id
// encodes the instance (Kokkos::Tools::Experimental::device_id), but only CUDA (and HIP, SYCL)
// numbers instances apart; Serial, OpenMP and Threads give every instance instance id 1. So:
// - no global fence (Kokkos::fence, or a deep_copy without an instance): every backend (a global
//   fence has instance id 0);
// - each kernel on an instance of its own, not the default one: only where the probe below finds
//   that partition_space's instances have ids of their own (CUDA); elsewhere it is not claimed;
// - every copy into host memory followed by a fence of an instance: every backend; of the instance
//   that ran the kernel whose result it copies only where instances have ids of their own;
// - no reduction waiting on the host for its result: every backend (Kokkos' fence of it is named).

// z within the rounding of one float multiply-add, fused or not; the sum within that of each square
// rounded to float at worst and M additions in double in any order.
struct Expected {
  std::vector<double> z, z_bound;
  double sum = 0, sum_bound = 0;
};
Expected expected_of(const Inputs& in);

// What the check learnt about the space before the run.
struct Probe {
  std::string space;             // "openmp", "cuda", ...
  std::uint32_t default_id = 0;  // the device id of the default instance overlap is given
  bool ids_differ = false;       // partition_space's instances have device ids of their own
};

// One broken rule, as kpuzzles prints a wrong value: expected, got, and where to look.
struct Finding {
  std::string expected, got, where;
};

struct Verdict {
  std::vector<std::string> judged;  // the rules this run was judged by
  std::vector<Finding> findings;
};

// The labels of the host Views overlap copies into (run_case allocates them so).
inline constexpr const char* kZHostLabel = "z_host";
inline constexpr const char* kSumHostLabel = "sum_host";

Verdict judge(const std::vector<ToolEvent>& events, const Probe& probe);

// The lines a run prints about its rules: which ones, and which one is not judged on this backend.
std::vector<std::string> rules_note(const Verdict& verdict, const Probe& probe);

// --- The run (run.cpp) ------------------------------------------------------------------------------
// One run of an `overlap` (the learner's, the reference's, or a test's planted mistake): inputs,
// poisoned outputs, the call under the tool log, then its values against the oracle and the
// instance rules it was judged by.

// The report: the values (z, then sum) against the oracle, then one entry per rule judged, each
// broken rule a mismatch; `verdict` null where the rules are not judged (the trace build).
RunReport report_of(const RunRequest& req, const Inputs& in, const std::vector<float>& z, double sum,
                    const Verdict* verdict, const Probe& probe);

// Whether partition_space's instances have tool device ids apart from the default instance's
// and from each other's (CUDA: yes; Serial, OpenMP, Threads: no, Kokkos 5.0.2 numbers them all 1).
template <class Space>
Probe probe(const Space& space) {
  const auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  const auto id = [](const Space& s) { return Kokkos::Tools::Experimental::device_id(s); };
  return {.space = std::string(space_name<Space>()),
          .default_id = id(space),
          .ids_differ = id(parts[0]) != id(space) && id(parts[1]) != id(space) && id(parts[0]) != id(parts[1])};
}

template <class Space>
using OverlapFn = decltype(Kernels<Space>::overlap);

template <class Space>
RunReport run_case(const Space& space, const RunRequest& req, OverlapFn<Space> overlap) {
  if (req.team_size != 0 || req.vector_length != 0)
    throw ShapeError("instances launches flat kernels (RangePolicy): --team-size and --vector-length do not apply");
  const Inputs in = make_inputs(req);
  const auto x = to_device(space, "x", in.x), y = to_device(space, "y", in.y), w = to_device(space, "w", in.w);
  const auto z = poisoned_output<float>(space, "z", in.x.size());
  const Kokkos::View<double, typename Space::memory_space> sum(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "sum"));
  Kokkos::deep_copy(space, sum, poison_value<double>());
  const HostView<float*> z_host(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(kZHostLabel)), in.x.size());
  const HostView<double> sum_host(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(kSumHostLabel)));
  Kokkos::deep_copy(z_host, poison_value<float>());
  Kokkos::deep_copy(sum_host, poison_value<double>());
  const Probe probed = probe(space);
  Kokkos::fence();  // the setup is over before the log starts

  std::vector<ToolEvent> events;
  {
    const ToolLog log;
    overlap(space, in.alpha, x, y, z, w, sum, z_host, sum_host);
    events = log.events();
  }
  // The values are read after a fence of everything, so that they never depend on timing: a
  // missing fence is the rules' finding, on every run alike.
  Kokkos::fence();
  const std::vector<float> got(z_host.data(), z_host.data() + z_host.extent(0));
#if defined(KPZ_TRACE)
  // The trace build runs RangePolicy launches on its own executor, out of Kokkos Tools' sight:
  // the race check judges races and values, the run on the real backend the rules.
  return report_of(req, in, got, sum_host(), nullptr, probed);
#else
  const Verdict verdict = judge(events, probed);
  return report_of(req, in, got, sum_host(), &verdict, probed);
#endif
}

}  // namespace kpz::instances

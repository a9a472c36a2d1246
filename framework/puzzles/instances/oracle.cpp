// instances' oracle: the values a run must give, and the instance rules, each of which reads the
// tool log's events in order (spec.hpp says where each rule holds).
#include "instances/spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>

namespace kpz::instances {
namespace {

using Kind = ToolEvent::Kind;

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A label shortened for one line (a launch without a label is named by its functor's type).
std::string shown(const std::string& name) {
  return "'" + (name.size() > 60 ? name.substr(0, 57) + "..." : name) + "'";
}

bool is_launch(const ToolEvent& e) {
  return e.kind == Kind::parallel_for || e.kind == Kind::parallel_reduce || e.kind == Kind::parallel_scan;
}

// The learner's launches: Kokkos' own (a parallel deep_copy's) are labelled "Kokkos::...".
bool is_learner_launch(const ToolEvent& e) {
  return is_launch(e) && !starts_with(e.name, "Kokkos::");
}

// A global fence (instance id 0) that Kokkos makes by itself: the fences around every tool
// callback, deallocations, CUDA's allocation fences. The list is every such name in Kokkos
// 5.0.2's sources; any other global fence is the learner's (Kokkos::fence, or the fences of a
// deep_copy without an instance, "Kokkos::deep_copy: ...").
bool is_kokkos_global_fence(const std::string& name) {
  for (const char* own : {"Kokkos::Tools::", "Kokkos::Cuda", "Kokkos::Impl::", "Kokkos::Experimental::", "HostSpace::",
                          "MemoryPool::", "HostInaccessibleSharedAllocationRecordCommon"})
    if (starts_with(name, own)) return true;
  return false;
}

// Kokkos' fence of the deep-copy stream has instance bits all ones (DeepCopyResourceSynchronization).
constexpr std::uint32_t kDeepCopyResource = 0x1ffff;

bool is_global_fence(const ToolEvent& e) {
  return e.kind == Kind::fence && instance_bits(e.device_id) == 0;
}

// A fence of one instance that the learner wrote: instance.fence() (named "Kokkos::OpenMP::fence:
// Unnamed Instance Fence" and alike) or instance.fence("a label"). Kokkos' own instance fences are
// named "Kokkos::..." too; the Threads backend ends every launch with one of its internal class
// ("Kokkos::ThreadsInternal::fence: Unnamed Instance Fence"), which is not the learner's.
bool is_learner_instance_fence(const ToolEvent& e) {
  const std::uint32_t bits = instance_bits(e.device_id);
  const bool public_default =
      e.name.find("Unnamed Instance Fence") != std::string::npos && e.name.find("Internal") == std::string::npos;
  return e.kind == Kind::fence && bits != 0 && bits != kDeepCopyResource &&
         (!starts_with(e.name, "Kokkos::") || public_default);
}

void no_global_fence(const std::vector<ToolEvent>& events, Verdict& v) {
  v.judged.push_back("no global fence");
  for (const ToolEvent& e : events) {
    if (!is_global_fence(e) || is_kokkos_global_fence(e.name)) continue;
    if (starts_with(e.name, "Kokkos::deep_copy"))
      v.findings.push_back({"no global fence", "a deep_copy without an instance, which fences the whole device",
                            "overlap: deep_copy(instance, dst, src)"});
    else
      v.findings.push_back({"no global fence", "a fence of every instance of the device (" + shown(e.name) + ")",
                            "overlap: fence each of your two instances instead"});
    return;  // one finding: a deep_copy without an instance fences two or four times
  }
}

void own_instances(const std::vector<ToolEvent>& events, const Probe& probe, Verdict& v) {
  v.judged.push_back("each kernel on an instance of its own");
  std::vector<const ToolEvent*> launches;
  for (const ToolEvent& e : events)
    if (is_learner_launch(e)) launches.push_back(&e);
  bool on_default = false;
  for (const ToolEvent* e : launches) {
    if (e->device_id != probe.default_id) continue;
    on_default = true;
    v.findings.push_back({shown(e->name) + " on an instance partition_space made", "the default instance",
                          "its RangePolicy's instance, or the instance overlap hands it"});
  }
  if (on_default || launches.size() < 2) return;
  const bool shared = std::all_of(launches.begin(), launches.end(),
                                  [&](const ToolEvent* e) { return e->device_id == launches.front()->device_id; });
  if (shared)
    v.findings.push_back(
        {shown(launches.front()->name) + " and " + shown(launches.back()->name) + " on two different instances",
         "one instance for both, which runs them one after the other", "overlap: one instance for each job"});
}

// The instance that must be fenced after a copy into `label`: the one that ran the last launch
// of the kernel kind whose result it is (z: the parallel_for; sum: the parallel_reduce).
const ToolEvent* producer(const std::vector<ToolEvent>& events, std::size_t copy, const std::string& label) {
  if (label != kZHostLabel && label != kSumHostLabel) return nullptr;
  const Kind kind = label == kZHostLabel ? Kind::parallel_for : Kind::parallel_reduce;
  for (std::size_t i = copy; i-- > 0;)
    if (is_learner_launch(events[i]) && events[i].kind == kind) return &events[i];
  return nullptr;
}

// Each copy into a host View that overlap fills is followed by a fence that waits for it.
void copies_fenced(const std::vector<ToolEvent>& events, const Probe& probe, Verdict& v) {
  v.judged.push_back("every copy fenced");
  std::vector<std::size_t> copies, fences;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind == Kind::copy && (events[i].name == kZHostLabel || events[i].name == kSumHostLabel))
      copies.push_back(i);  // what the host reads; a copy into device memory is the device's
    if (is_learner_instance_fence(events[i])) fences.push_back(i);
  }
  const auto fences_after = [&](std::size_t at, const ToolEvent* of) {
    return std::count_if(fences.begin(), fences.end(),
                         [&](std::size_t f) { return f > at && (!of || events[f].device_id == of->device_id); });
  };
  for (std::size_t k = 0; k < copies.size(); ++k) {
    const std::string& label = events[copies[k]].name;
    const ToolEvent* of = probe.ids_differ ? producer(events, copies[k], label) : nullptr;
    if (of) {  // instances have ids: this copy's own instance must be fenced after it
      if (fences_after(copies[k], of) > 0) continue;
      v.findings.push_back({"a fence of the instance that ran " + shown(of->name) + " after copying into " + label,
                            "no fence of that instance after the copy: the host may read " + label + " too early",
                            "overlap: fence each instance after its copy"});
      return;
    }
    // Ids alike: the copies from this one on need as many instance fences after this one.
    const auto needed = static_cast<long>(copies.size() - k),
               have = static_cast<long>(fences_after(copies[k], nullptr));
    if (have >= needed) continue;
    std::string which = shown(label);
    for (std::size_t j = k + 1; j < copies.size(); ++j) which += " and " + shown(events[copies[j]].name);
    v.findings.push_back({"a fence of each instance after its copy",
                          std::to_string(have) + " instance fence" + (have == 1 ? "" : "s") + " after copying into " +
                              which + ": the host may read a result too early",
                          "overlap: fence each instance after its copy"});
    return;
  }
}

void no_reduction_wait(const std::vector<ToolEvent>& events, Verdict& v) {
  v.judged.push_back("no reduction waiting on the host");
  std::string last_reduce = "a parallel_reduce";
  for (const ToolEvent& e : events) {
    if (is_learner_launch(e) && e.kind == Kind::parallel_reduce) last_reduce = shown(e.name);
    if (!is_reduction_wait(e)) continue;
    v.findings.push_back({last_reduce + " returning at once, its result in a View",
                          "a wait on the host for its result (a reduction into a host value fences its instance)",
                          "sum_of_squares: reduce into the View sum"});
    return;
  }
}

}  // namespace

Expected expected_of(const Inputs& in) {
  const double eps_f = std::numeric_limits<float>::epsilon(), eps_d = std::numeric_limits<double>::epsilon();
  Expected e;
  for (std::size_t i = 0; i < in.x.size(); ++i) {
    const double ax = static_cast<double>(in.alpha) * in.x[i];
    e.z.push_back(ax + in.y[i]);
    e.z_bound.push_back(2.0 * eps_f * (std::fabs(ax) + std::fabs(in.y[i])) + 1e-30);
  }
  for (const float v : in.w) e.sum += static_cast<double>(v) * v;
  e.sum_bound = (eps_f + 2.0 * static_cast<double>(in.w.size() + 1) * eps_d) * e.sum + 1e-300;
  return e;
}

Verdict judge(const std::vector<ToolEvent>& events, const Probe& probe) {
  Verdict v;
  no_global_fence(events, v);
  if (probe.ids_differ) own_instances(events, probe, v);
  copies_fenced(events, probe, v);
  no_reduction_wait(events, v);
  return v;
}

std::vector<std::string> rules_note(const Verdict& verdict, const Probe& probe) {
  std::string line = "rules:";
  for (std::size_t i = 0; i < verdict.judged.size(); ++i) line += (i ? ", " : " ") + verdict.judged[i];
  if (probe.ids_differ) return {line};
  return {line, "not judged on " + probe.space + ": which instance ran each kernel (Kokkos gives every " + probe.space +
                    " instance the same tool device id; a GPU run judges it)"};
}

}  // namespace kpz::instances

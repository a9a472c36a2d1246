// kpz::ToolLog: Kokkos Tools callbacks recorded in-process (kpz/tool_log.hpp).
#include "kpz/tool_log.hpp"

#include <Kokkos_Core.hpp>

#include <mutex>
#include <stdexcept>

namespace kpz {
namespace {

namespace KT = Kokkos::Tools::Experimental;

// Kokkos takes plain function pointers, so the active log's state is global.
std::mutex guard;
bool active = false;
KT::EventSet replaced;  // the callbacks in place before the log, called in turn
std::vector<ToolEvent> recorded;

void record(ToolEvent::Kind kind, const char* name, std::uint32_t device_id) {
  std::lock_guard<std::mutex> lock(guard);
  recorded.push_back({kind, name ? name : "", device_id});
}

void begin_for(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  record(ToolEvent::Kind::parallel_for, name, device_id);
  if (replaced.begin_parallel_for) replaced.begin_parallel_for(name, device_id, kernel_id);
}
void begin_reduce(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  record(ToolEvent::Kind::parallel_reduce, name, device_id);
  if (replaced.begin_parallel_reduce) replaced.begin_parallel_reduce(name, device_id, kernel_id);
}
void begin_scan(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  record(ToolEvent::Kind::parallel_scan, name, device_id);
  if (replaced.begin_parallel_scan) replaced.begin_parallel_scan(name, device_id, kernel_id);
}
void begin_fence(const char* name, std::uint32_t device_id, std::uint64_t* handle) {
  record(ToolEvent::Kind::fence, name, device_id);
  if (replaced.begin_fence) replaced.begin_fence(name, device_id, handle);
}
void begin_copy(Kokkos::Tools::SpaceHandle dst_space, const char* dst_name, const void* dst,
                Kokkos::Tools::SpaceHandle src_space, const char* src_name, const void* src, std::uint64_t bytes) {
  record(ToolEvent::Kind::copy, dst_name, 0);
  if (replaced.begin_deep_copy) replaced.begin_deep_copy(dst_space, dst_name, dst, src_space, src_name, src, bytes);
}

}  // namespace

ToolLog::ToolLog() {
  std::lock_guard<std::mutex> lock(guard);
  if (active) throw std::logic_error("kpz::ToolLog: one log at a time");
  active = true;
  recorded.clear();
  replaced = KT::get_callbacks();
  KT::EventSet mine = replaced;
  mine.begin_parallel_for = begin_for;
  mine.begin_parallel_reduce = begin_reduce;
  mine.begin_parallel_scan = begin_scan;
  mine.begin_fence = begin_fence;
  mine.begin_deep_copy = begin_copy;
  KT::set_callbacks(mine);
}

ToolLog::~ToolLog() {
  std::lock_guard<std::mutex> lock(guard);
  KT::set_callbacks(replaced);
  active = false;
}

std::vector<ToolEvent> ToolLog::events() const {
  std::lock_guard<std::mutex> lock(guard);
  return recorded;
}

std::uint32_t instance_bits(std::uint32_t device_id) {
  return device_id & ((std::uint32_t{1} << KT::num_instance_bits) - 1);
}

namespace {
// Kokkos' own fences: freeing a View fences ("HostSpace::impl_deallocate before free",
// "Kokkos::Cuda: backend fence before async free") when its last copy goes out of scope, after
// the function has used what it computed; the tool layer fences around callbacks
// ("Kokkos::Tools::invoke_kokkosp_callback: Kokkos Profile Tool Fence").
bool waits(const ToolEvent& e) {
  return e.kind == ToolEvent::Kind::fence && e.name.find("free") == std::string::npos &&
         e.name.find("Kokkos Profile Tool Fence") == std::string::npos;
}
}  // namespace

bool last_copy_is_fenced(const std::vector<ToolEvent>& events) {
  bool fenced = true;
  for (const ToolEvent& e : events) {
    if (e.kind == ToolEvent::Kind::copy) fenced = false;
    if (waits(e)) fenced = true;
  }
  return fenced;
}

bool is_reduction_wait(const ToolEvent& e) {
  return e.kind == ToolEvent::Kind::fence &&
         e.name.rfind("Kokkos::parallel_reduce: fence due to result being value", 0) == 0;
}

}  // namespace kpz

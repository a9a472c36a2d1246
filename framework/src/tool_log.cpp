// kpz::ToolLog: Kokkos Tools callbacks recorded in-process (kpz/tool_log.hpp).
#include "kpz/tool_log.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace kpz {
namespace {

namespace KT = Kokkos::Tools::Experimental;

// Kokkos takes plain function pointers, so the active log's state is global.
std::mutex guard;
bool active = false;
KT::EventSet replaced;  // the callbacks in place before the log, called in turn
std::vector<ToolEvent> recorded;

// LateCopies::emulated: the copy running now (between its begin and end callbacks), and the
// copies whose bytes have not landed yet.
struct Copying {
  void* dst;
  std::uint64_t bytes;
  bool waited;  // a fence inside the copy: it waited itself (deep_copy without an instance)
};
struct LateCopy {
  void* dst;
  std::vector<std::byte> bytes;
};
bool emulate_late = false;
std::optional<Copying> copying;
std::vector<LateCopy> late;
// Set while the log fences for itself (end_copy): that fence is no wait of the program's.
thread_local bool own_fence = false;

// The copies land: before a launch (stream order on a GPU) and at a fence. Every one still
// points at live memory: a View's memory is freed after a fence ("HostSpace::impl_deallocate
// before free"), which lands them first.
void land_late_copies() {
  std::lock_guard<std::mutex> lock(guard);
  for (const LateCopy& c : late) std::memcpy(c.dst, c.bytes.data(), c.bytes.size());
  late.clear();
}

// Kokkos' fence around a tool's callbacks, issued for the tool itself: not the program waiting.
bool is_tool_fence(const char* name) {
  return name && std::strstr(name, "Kokkos Profile Tool Fence") != nullptr;
}

void record(ToolEvent::Kind kind, const char* name, std::uint32_t device_id) {
  std::lock_guard<std::mutex> lock(guard);
  recorded.push_back({kind, name ? name : "", device_id});
}

void begin_for(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  land_late_copies();
  record(ToolEvent::Kind::parallel_for, name, device_id);
  if (replaced.begin_parallel_for) replaced.begin_parallel_for(name, device_id, kernel_id);
}
void begin_reduce(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  land_late_copies();
  record(ToolEvent::Kind::parallel_reduce, name, device_id);
  if (replaced.begin_parallel_reduce) replaced.begin_parallel_reduce(name, device_id, kernel_id);
}
void begin_scan(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  land_late_copies();
  record(ToolEvent::Kind::parallel_scan, name, device_id);
  if (replaced.begin_parallel_scan) replaced.begin_parallel_scan(name, device_id, kernel_id);
}
void begin_fence(const char* name, std::uint32_t device_id, std::uint64_t* handle) {
  if (own_fence) {
    if (replaced.begin_fence) replaced.begin_fence(name, device_id, handle);
    return;
  }
  if (!is_tool_fence(name)) {
    {
      std::lock_guard<std::mutex> lock(guard);
      if (copying) copying->waited = true;
    }
    land_late_copies();
  }
  record(ToolEvent::Kind::fence, name, device_id);
  if (replaced.begin_fence) replaced.begin_fence(name, device_id, handle);
}
void begin_copy(Kokkos::Tools::SpaceHandle dst_space, const char* dst_name, const void* dst,
                Kokkos::Tools::SpaceHandle src_space, const char* src_name, const void* src, std::uint64_t bytes) {
  record(ToolEvent::Kind::copy, dst_name, 0);
  // Into a View in host memory ("(none)": a scalar on the caller's stack, which may be gone by
  // the time the copy would land). Also when source and destination are one allocation (a host
  // backend's create_mirror_view): on a GPU the mirror is host memory of its own, stale until
  // the copy lands.
  const bool into_host_view =
      std::strcmp(dst_space.name, "Host") == 0 && dst_name && std::strcmp(dst_name, "(none)") != 0 && bytes > 0;
  std::unique_lock<std::mutex> lock(guard);
  if (emulate_late && into_host_view) copying = Copying{.dst = const_cast<void*>(dst), .bytes = bytes, .waited = false};
  lock.unlock();
  if (replaced.begin_deep_copy) replaced.begin_deep_copy(dst_space, dst_name, dst, src_space, src_name, src, bytes);
}
void end_copy() {
  std::unique_lock<std::mutex> lock(guard);
  const std::optional<Copying> c = copying;
  copying.reset();
  lock.unlock();
  if (c && !c->waited) {
    // On a GPU the copy may still be running, or may have finished already: which one depends on
    // timing. Waiting for it here (a wait the program did not make, so not recorded) and then
    // holding its bytes back makes "read before it landed" fail on every run, as on a host.
    own_fence = true;
    Kokkos::fence("kpz::ToolLog: hold back a copy the program did not wait for");
    own_fence = false;
    const auto* at = static_cast<const std::byte*>(c->dst);
    lock.lock();
    late.push_back({.dst = c->dst, .bytes = std::vector<std::byte>(at, at + c->bytes)});
    std::memset(c->dst, kLateCopyByte, c->bytes);
    lock.unlock();
  }
  if (replaced.end_deep_copy) replaced.end_deep_copy();
}

}  // namespace

ToolLog::ToolLog(LateCopies late_copies) {
  std::lock_guard<std::mutex> lock(guard);
  if (active) throw std::logic_error("kpz::ToolLog: one log at a time");
  active = true;
  recorded.clear();
  emulate_late = late_copies == LateCopies::emulated;
  copying.reset();
  late.clear();
  replaced = KT::get_callbacks();
  KT::EventSet mine = replaced;
  mine.begin_parallel_for = begin_for;
  mine.begin_parallel_reduce = begin_reduce;
  mine.begin_parallel_scan = begin_scan;
  mine.begin_fence = begin_fence;
  mine.begin_deep_copy = begin_copy;
  mine.end_deep_copy = end_copy;
  KT::set_callbacks(mine);
}

ToolLog::~ToolLog() {
  std::lock_guard<std::mutex> lock(guard);
  KT::set_callbacks(replaced);
  // A copy nobody waited for stays unlanded: its destination keeps the poison the check reads.
  late.clear();
  emulate_late = false;
  active = false;
}

std::vector<ToolEvent> ToolLog::events() const {
  std::lock_guard<std::mutex> lock(guard);
  return recorded;
}

bool is_late_copy_poison(float v) {
  unsigned char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  for (const unsigned char b : bytes)
    if (b != kLateCopyByte) return false;
  return true;
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
  return e.kind == ToolEvent::Kind::fence && e.name.find("free") == std::string::npos && !is_tool_fence(e.name.c_str());
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

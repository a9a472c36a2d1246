// A Kokkos Tools library that times every kernel by its label: which launch of a multi-launch
// variant costs what. Load it into any run of kpuzzles (or kpuzzles-bench):
//
//   KOKKOS_TOOLS_LIBS=build/openmp/libkpz_kernel_times.so kpuzzles bench bin-extract --team-scan
//
// At exit it prints, per label: calls, median and total milliseconds (stderr, or the file named by
// KPZ_KERNEL_TIMES_OUT). Kokkos fences before every begin and end callback while a tool is loaded
// (its "global fencing", on by default), so a kernel's time is its own, not the queue's; launch
// latency (a few microseconds on CUDA) is included, so trust it only for kernels of 100 us or more.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  std::string label;
  Clock::time_point start;
};

std::mutex guard;  // Kokkos may call from several host threads
std::map<std::uint64_t, Running> running;
std::map<std::string, std::vector<double>> times_ms;
std::uint64_t next_id = 1;

void begin(const char* label, std::uint64_t* id) {
  const auto now = Clock::now();
  std::lock_guard<std::mutex> lock(guard);
  *id = next_id++;
  running[*id] = Running{label, now};
}

void end(std::uint64_t id) {
  const auto now = Clock::now();
  std::lock_guard<std::mutex> lock(guard);
  const auto it = running.find(id);
  if (it == running.end()) return;
  times_ms[it->second.label].push_back(std::chrono::duration<double, std::milli>(now - it->second.start).count());
  running.erase(it);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {}

void kokkosp_begin_parallel_for(const char* label, std::uint32_t, std::uint64_t* id) {
  begin(label, id);
}
void kokkosp_end_parallel_for(std::uint64_t id) {
  end(id);
}
void kokkosp_begin_parallel_reduce(const char* label, std::uint32_t, std::uint64_t* id) {
  begin(label, id);
}
void kokkosp_end_parallel_reduce(std::uint64_t id) {
  end(id);
}
void kokkosp_begin_parallel_scan(const char* label, std::uint32_t, std::uint64_t* id) {
  begin(label, id);
}
void kokkosp_end_parallel_scan(std::uint64_t id) {
  end(id);
}

void kokkosp_finalize_library() {
  const char* path = std::getenv("KPZ_KERNEL_TIMES_OUT");
  FILE* out = path ? std::fopen(path, "w") : stderr;
  if (!out) out = stderr;
  std::fprintf(out, "%-64s %8s %12s %12s\n", "kernel (label)", "calls", "median ms", "total ms");
  for (const auto& [label, v] : times_ms) {
    double total = 0;
    for (double t : v) total += t;
    std::fprintf(out, "%-64s %8zu %12.4f %12.3f\n", label.c_str(), v.size(), median(v), total);
  }
  if (out != stderr) std::fclose(out);
}

}  // extern "C"

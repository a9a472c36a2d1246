// instances' run: the tool log it records (Kokkos Tools callbacks, in-process) and its report;
// the run itself, run_case, is a template in spec.hpp.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "instances/spec.hpp"

namespace kpz::instances {
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

void record(RunReport& r, std::size_t index, std::string expected, std::string actual, std::string owner) {
  if (r.mismatches.size() < kMaxReportedMismatches)
    r.mismatches.push_back({index, std::move(expected), std::move(actual), std::move(owner)});
  ++r.mismatch_count;
}

}  // namespace

ToolLog::ToolLog() {
  std::lock_guard<std::mutex> lock(guard);
  if (active) throw std::logic_error("instances: one ToolLog at a time");
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

RunReport report_of(const RunRequest& req, const Inputs& in, const std::vector<float>& z, double sum,
                    const Verdict* verdict, const Probe& probe) {
  const std::size_t n = in.x.size(), m = in.w.size();
  const Expected want = expected_of(in);

  RunReport report;
  report.config.set("size", n).set("sum_size", m).set("alpha", in.alpha).set("worked_example", in.worked);
  report.notes.push_back("values: z(0) .. z(N-1), then sum; after them, one check per rule");
  if (verdict)
    for (std::string& line : rules_note(*verdict, probe)) report.notes.push_back(std::move(line));
  compare_within(report, z, want.z, want.z_bound,
                 [](std::size_t i) { return "z(" + std::to_string(i) + "): axpy, copied into z_host by overlap"; });
  report.checked += 1;
  if (!(std::fabs(sum - want.sum) <= want.sum_bound))  // NaN (never written) fails too
    record(report, n, format_number(want.sum), std::isnan(sum) ? "never written (nan)" : format_number(sum),
           "sum: sum_of_squares, copied into sum_host by overlap");
  if (verdict) {
    report.checked += verdict->judged.size();
    for (std::size_t k = 0; k < verdict->findings.size(); ++k) {
      const Finding& f = verdict->findings[k];
      record(report, n + 1 + k, f.expected, f.got, f.where);
    }
  }
  report.pass = report.mismatch_count == 0 && z.size() == n;

  std::vector<double> got(z.begin(), z.end()), expected(want.z);
  got.push_back(sum);
  expected.push_back(want.sum);
  keep_arrays(report, req, got, expected, [&](Json& inputs) {
    inputs.set("alpha", in.alpha).set("x", Json::array_of(in.x)).set("y", Json::array_of(in.y));
    inputs.set("w", Json::array_of(in.w));
  });
  return report;
}

}  // namespace kpz::instances

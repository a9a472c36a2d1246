// basics step 2 (--dualview): the four steps called in order, and after each the DualView judged,
// its flags and its values. The flags are the ones basics' DualView keeps on every backend (as
// Kokkos::DualView keeps them on a GPU), so a missing modify or sync fails on a host backend too,
// where the two sides are one array and the values alone would come out right.
#include <string>
#include <utility>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"

namespace kpz::basics {
namespace {

// One step: the function, its TODO on the page, the call it owes, what dv must say after it.
struct Step {
  const char* function;
  int todo;
  const char* call;
  const char* state;
};

constexpr Step kSteps[4] = {
    {"dualview_fill", 3, "modify_host", "the host side newer (need_sync_device() true)"},
    {"dualview_to_device", 4, "sync_device", "the sides in sync, the device side holding the host's data"},
    {"dualview_compute", 5, "modify_device", "the device side newer (need_sync_host() true)"},
    {"dualview_to_host", 6, "sync_host", "the sides in sync, the host side holding the device's data"},
};

// Elements after dv's end in the Views under it, and their value.
constexpr std::size_t kGuard = 8;
constexpr float kGuardValue = 1234.5f;

// Whether dv says what step s must leave it saying.
bool state_holds(int s, const DualRecord& r) {
  const bool in_sync = r.modified[0] == r.modified[1] && r.version[0] == r.version[1];
  switch (s) {
    case 0:
      return r.modified[0] > r.modified[1];
    case 2:
      return r.modified[1] > r.modified[0];
    default:
      return in_sync && r.writes > 0;
  }
}

std::string state_of(const DualRecord& r) {
  std::string s = r.modified[1] < r.modified[0]   ? "the host side newer"
                  : r.modified[0] < r.modified[1] ? "the device side newer"
                                                  : "no side marked newer";
  if (r.modified[0] == r.modified[1] && r.version[0] != r.version[1])
    s += std::string(", the ") + (r.version[0] < r.version[1] ? "host" : "device") + " side stale";
  return s;
}

// "modify_host, sync_device" for the calls from `first` on, or "no modify or sync call".
std::string calls_from(const DualRecord& r, std::size_t first) {
  std::string s;
  for (std::size_t k = first; k < r.calls.size(); ++k) s += (s.empty() ? "" : ", ") + r.calls[k];
  return s.empty() ? "no modify or sync call" : s;
}

// What failed in step s, in the words of the call it owes.
std::string owner_of(int s, const DualRecord& r, std::size_t first) {
  const Step& step = kSteps[s];
  const std::string where = std::string(step.function) + " (TODO " + std::to_string(step.todo) + ")";
  if (!r.conflict.empty()) return where + ": " + r.conflict;
  bool called = false;
  for (std::size_t k = first; k < r.calls.size(); ++k) called |= r.calls[k] == step.call;
  if (!called) return where + ": missing " + step.call + " (its calls: " + calls_from(r, first) + ")";
  return where + ": its calls, " + calls_from(r, first) + ", leave dv so";
}

// One side's values, read without asking dv (on a host backend both sides are one array).
template <class ViewType>
std::vector<float> values_of(const ViewType& side) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), side);
  return std::vector<float>(host.data(), host.data() + host.extent(0));
}

// The guard after dv's end, in both Views: untouched, or an index past the end was written.
void check_guard(RunReport& report, const std::vector<float>& whole, std::size_t n, const std::string& side,
                 const std::string& after) {
  for (std::size_t g = n; g < whole.size(); ++g) {
    ++report.checked;
    if (whole[g] != kGuardValue)
      add_finding(report, g, "untouched (past N = " + std::to_string(n) + ")", format_number(whole[g]),
                  side + "(" + std::to_string(g) + ") after " + after + ": an index past dv's end");
  }
}

}  // namespace

template <class Space>
RunReport dualview_with(const Space& space, const RunRequest& req, const Kernels<Space>& k) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  Rng rng(req.seed);
  std::vector<float> in = random_floats(rng, n, -2.0, 3.0);
  if (worked_example(req, {"size"}))
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  std::vector<float> result(n);
  for (std::size_t i = 0; i < n; ++i) result[i] = 2.0f * in[i] + 1.0f;

  // dv's two sides are the first n elements of longer Views: the guard after them must keep its
  // value (not NaN, which 2 x + 1 keeps too), or something wrote past dv's end. Filled past dv's
  // record: no flag moves.
  using Sides = DualView<float*, Space>;
  const typename Sides::t_dev device(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dv"), n + kGuard);
  const typename Sides::t_host host = Kokkos::create_mirror_view(device);
  const auto first_n = std::make_pair(std::size_t{0}, n);
  Kokkos::deep_copy(device, kGuardValue);
  Kokkos::deep_copy(host, kGuardValue);
  Kokkos::deep_copy(Kokkos::subview(device, first_n), poison_value<float>());
  Kokkos::deep_copy(Kokkos::subview(host, first_n), poison_value<float>());
  Kokkos::fence();
  Sides dv(Kokkos::subview(device, first_n), Kokkos::subview(host, first_n));

  RunReport report;
  report.config.set("size", n);
  report.notes.push_back("values: dv's host side after the four steps; after each step, its values, the " +
                         std::to_string(kGuard) + " past its end, its flags");
  const DualRecord& record = dv.record();
  int done = 0;
  for (int s = 0; s < 4; ++s) {
    const std::size_t first = record.calls.size();
    if (s == 0) k.dualview_fill(HostView<const float*>(in.data(), n), dv);
    if (s == 1) k.dualview_to_device(space, dv);
    if (s == 2) k.dualview_compute(space, dv);
    if (s == 3) k.dualview_to_host(space, dv);
    space.fence();
    ++report.checked;
    if (!state_holds(s, record) || !record.conflict.empty())
      add_finding(report, n + kGuard + static_cast<std::size_t>(s), kSteps[s].state, state_of(record),
                  owner_of(s, record, first));
    // Exact: the steps only copy, and 2 x + 1 is one rounding in floats, fused or not (2 x is exact).
    const bool host_side = s == 0 || s == 3;
    const std::string side = host_side ? "view_host()" : "view_device()";
    compare_exact(report, host_side ? values_of(dv.view_host()) : values_of(dv.view_device()), s < 2 ? in : result,
                  [&](std::size_t i) { return side + "(" + std::to_string(i) + ") after " + kSteps[s].function; });
    check_guard(report, values_of(host), n, "view_host()", kSteps[s].function);
    check_guard(report, values_of(device), n, "view_device()", kSteps[s].function);
    if (report.mismatch_count) break;
    ++done;
  }
  if (done < 4)
    report.notes.push_back(std::string("stopped after ") + kSteps[done].function +
                           ": the steps after it would start from a DualView in the wrong state");
  report.pass = report.mismatch_count == 0 && done == 4;
  keep_arrays(report, req, values_of(dv.view_host()), result, "in", in);
  return report;
}

#define KPZ_BASICS_DUALVIEW_WITH(S) template RunReport dualview_with<S>(const S&, const RunRequest&, const Kernels<S>&);
KPZ_FOR_EACH_SPACE(KPZ_BASICS_DUALVIEW_WITH)

namespace {
template <class Space>
RunReport dualview_on(const Space& space, const RunRequest& req) {
  return dualview_with(space, req, kernels<Space>(req.impl));
}
}  // namespace

const Runner run_dualview = KPZ_ON_REQUEST_SPACE(dualview_on);

}  // namespace kpz::basics

#pragma once
// Checking a kernel's output against the host oracle. Outputs are poisoned before the launch
// (NaN for floats, a sentinel for integers) so that an element nobody wrote fails.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"

namespace kpz {

inline constexpr std::size_t kMaxReportedMismatches = 8;
inline constexpr std::int32_t kIntPoison = -0x2152411;  // 0xDEADBEEF's low bits, negated

template <class T>
constexpr T poison_value() {
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return static_cast<T>(kIntPoison);
}

// Fills a device View with the poison value.
template <class ViewType>
void poison(const ViewType& v) {
  Kokkos::deep_copy(v, poison_value<typename ViewType::non_const_value_type>());
}

// A new output View of n elements in Space's memory, every element poisoned, so that an element
// the kernel never writes fails the check.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> poisoned_output(const Space& space, const std::string& label,
                                                               std::size_t n) {
  Kokkos::View<T*, typename Space::memory_space> v(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, label), n);
  poison(v);
  return v;
}

// Who was meant to write element `index`: returns e.g. "team 2, member 5".
using OwnerFn = std::function<std::string(std::size_t index)>;

// Owner under the common layout "team t handles [t*tile, (t+1)*tile), its members split the
// tile with TeamThreadRange". TeamThreadRange is cyclic on GPUs and blockwise on hosts.
OwnerFn tile_owner(std::string_view space, std::size_t tile, int team_size);
template <class Space>
OwnerFn tile_owner(std::size_t tile, int team_size) {
  return tile_owner(space_name<Space>(), tile, team_size);
}

std::string format_number(double v);

// Exact comparison (integers, and floats a kernel only moves). Records mismatches and the pass flag in `report`.
template <class T>
void compare_exact(RunReport& report, const std::vector<T>& actual, const std::vector<T>& expected,
                   const OwnerFn& owner) {
  report.checked += expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const bool ok = i < actual.size() && actual[i] == expected[i];
    if (ok) continue;
    if (report.mismatches.size() < kMaxReportedMismatches) {
      // NaN, the floats' poison, equals nothing: test it by kind.
      const bool poisoned =
          i < actual.size() &&
          (std::is_floating_point_v<T> ? std::isnan(static_cast<double>(actual[i])) : actual[i] == poison_value<T>());
      report.mismatches.push_back(
          {i, format_number(static_cast<double>(expected[i])),
           i < actual.size()
               ? (poisoned ? std::string(std::is_floating_point_v<T> ? "never written (nan)" : "never written")
                           : format_number(static_cast<double>(actual[i])))
               : "missing",
           owner ? owner(i) : ""});
    }
    ++report.mismatch_count;
  }
  report.pass = report.mismatch_count == 0 && actual.size() == expected.size();
}

namespace detail {
inline void set_inputs(Json&) {}
template <class Value, class... Rest>
void set_inputs(Json& inputs, const char* name, const Value& value, const Rest&... rest) {
  if constexpr (std::ranges::range<Value>)
    inputs.set(name, Json::array_of(value));
  else
    inputs.set(name, value);
  set_inputs(inputs, rest...);
}
}  // namespace detail

// What a report shows when its request keeps the arrays (RunRequest::keep_arrays: small runs):
// the output, the oracle's, and the inputs given as name, value pairs (a vector or a number):
// keep_arrays(report, req, got, expected, "x", x, "alpha", alpha).
template <class Got, class Want, class... Inputs>
void keep_arrays(RunReport& report, const RunRequest& req, const std::vector<Got>& got,
                 const std::vector<Want>& expected, const Inputs&... inputs) {
  static_assert(sizeof...(Inputs) % 2 == 0, "keep_arrays: inputs come as name, value pairs");
  if (!req.keep_arrays) return;
  detail::set_inputs(report.inputs, inputs...);
  report.output = Json::array_of(got);
  report.expected = Json::array_of(expected);
}

// A run's whole verdict on an output a kernel only moves: compare_exact above, each mismatch
// naming the member meant to write the element (`owner`: an OwnerFn, or the LaunchShape of a
// tile_launch, whose team t owns tile t), then keep_arrays with the inputs as name, value pairs:
// compare_exact(report, req, got, expected, launch, "in", in).
template <class T, class Owner, class... Inputs>
void compare_exact(RunReport& report, const RunRequest& req, const std::vector<T>& got, const std::vector<T>& expected,
                   const Owner& owner, const Inputs&... inputs) {
  if constexpr (std::is_same_v<Owner, LaunchShape>)
    compare_exact(report, got, expected, tile_owner(req.space, static_cast<std::size_t>(owner.tile), owner.team_size));
  else
    compare_exact(report, got, expected, OwnerFn(owner));
  keep_arrays(report, req, got, expected, inputs...);
}

// A finding that is not an element's value (a rule a tool log judged, a missing wait), reported
// at `index` (after the values), and the pass flag cleared. The caller counts its checks.
void add_finding(RunReport& report, std::size_t index, std::string expected, std::string actual, std::string owner);

// Float comparison: |actual - expected| <= bound[i], where the puzzle's oracle derives bound
// from the magnitudes that entered element i (so cancellation cannot hide or fake an error).
// NaN never passes.
void compare_within(RunReport& report, const std::vector<float>& actual, const std::vector<double>& expected,
                    const std::vector<double>& bound, const OwnerFn& owner);

// Host-boundary check: data with NaN or infinities has no defined answer in any puzzle.
// Throws UsageError naming the first bad index.
void require_finite(const std::vector<float>& values, const std::string& what);

// Relative float tolerance a sum of `terms` float products should meet.
inline double sum_error_bound(double abs_sum, std::size_t terms) {
  const double eps = std::numeric_limits<float>::epsilon();
  return 2.0 * eps * static_cast<double>(terms + 1) * abs_sum + 1e-30;
}

}  // namespace kpz

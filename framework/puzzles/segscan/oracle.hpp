#pragma once
// segscan's oracle (oracle.cpp): the expected sums in double, the rounding a float kernel may
// show, and who owns each output in the report.
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/registry.hpp"
#include "segscan/segments.hpp"

namespace kpz::segscan {

template <class T>
std::vector<double> as_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// The oracle's answer: exact for integers; for floats a double result and the rounding a float
// kernel may show (from the magnitudes that entered each sum, whatever the summation order).
struct Expected {
  std::vector<double> value, bound;
  void add(double sum, double abs_sum, std::size_t terms) {
    value.push_back(sum);
    bound.push_back(sum_error_bound(abs_sum, terms));
  }
};

// UsageError when integer sums of `where` could overflow int.
void require_int_range(double abs_sum, const std::string& where);

template <class T>
void check_output(RunReport& report, const std::vector<T>& got, const Expected& e, const OwnerFn& owner) {
  if constexpr (std::is_floating_point_v<T>) {
    compare_within(report, got, e.value, e.bound, owner);
  } else {
    std::vector<T> exact(e.value.size());
    for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = static_cast<T>(e.value[i]);
    compare_exact(report, got, exact, owner);
  }
}

// Scans: inclusive (or exclusive) sums inside each segment.
Expected scan_oracle(const std::vector<double>& values, const segments::Offsets& offsets, bool exclusive, bool ints);
// Segment totals of the values (or SpMV's products).
Expected reduce_oracle(const std::vector<double>& products, const segments::Offsets& offsets, bool ints);

// "segment 3 = [9, 12)" (what: "segment" or "row").
std::string segment_owner(const segments::Offsets& offsets, std::size_t s, const char* what);

// Totals of each segment read off an inclusive scan (0 for empty segments).
template <class T>
std::vector<T> totals_from_scan(const std::vector<T>& scan, const segments::Offsets& offsets) {
  std::vector<T> totals;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    totals.push_back(offsets[s] < offsets[s + 1] ? scan[static_cast<std::size_t>(offsets[s + 1] - 1)] : T(0));
  return totals;
}

// Who writes sums[s] in the merge-path kernel: the team whose items hold segment s's end.
OwnerFn merge_path_owner(const segments::Offsets& offsets, int tile_items, const char* what);

}  // namespace kpz::segscan

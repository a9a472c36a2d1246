#pragma once
// What the extract tests (team_scan_test.cpp, one_read_test.cpp) compare a run's count with: the
// count the run reports, and the host oracle's count for the same seeded input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bin-extract/spec.hpp"
#include "kpz/registry.hpp"

namespace kpz::test {

inline long long count_of(const RunReport& r) {
  return std::stoll(r.extra.find("count")->dump());
}

inline std::size_t oracle_count(std::size_t n, int bins, int target, int pattern, std::uint64_t seed) {
  namespace be = kpz::bin_extract;
  const auto o = be::host_counting_sort(be::make_input(n, bins, target, pattern, seed), bins);
  return o.offsets[target + 1] - o.offsets[target];
}

}  // namespace kpz::test

#pragma once
// What the extract tests (team_scan_test.cpp, one_read_test.cpp) compare: a run's count with the
// host oracle's for the same seeded input, and a kernel's offsets and packed output with the
// expected ones (bit for bit; nothing written past the selection).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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

// The offsets a kernel left (per team or chunk, then the total) and its packed output `got`
// against the expected ones; past the selection `got` must still hold the poison (NaN: the
// inputs hold none).
inline void expect_packed_selection(const std::vector<int>& got_offsets, const std::vector<int>& want_offsets,
                                    const std::vector<float>& got, const std::vector<float>& want,
                                    const std::string& what) {
  ASSERT_EQ(got_offsets, want_offsets) << what;
  for (std::size_t j = 0; j < want.size(); ++j)
    ASSERT_EQ(std::memcmp(&got[j], &want[j], sizeof(float)), 0) << what << " element " << j;
  for (std::size_t j = want.size(); j < got.size(); ++j) ASSERT_TRUE(std::isnan(got[j])) << what << " out(" << j << ")";
}

}  // namespace kpz::test

// The Kokkos Kernels rows of the benches compute what the puzzles' oracles say, on every space of
// the build (CTest runs this with 1, 2 and 8 OpenMP threads; Serial runs in each): reduce's
// KokkosBlas::sum and team-level dot per tile (benchmarks/reduce/kokkos_kernels_baselines.hpp),
// segscan's team-level dot per segment and spmv with x = [1] (benchmarks/segscan/...). Seeded
// random, asymmetric values; sizes of 1, below and above a tile and not a multiple of it, three
// and more teams, empty segments; outputs poisoned first, so an unwritten one fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/backend_traits.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/space_names.hpp"
#include "kpz/spaces.hpp"
#include "kpz/transfer.hpp"
#include "reduce/kokkos_kernels_baselines.hpp"
#include "reduce/reduce.hpp"
#include "segscan/kokkos_kernels_baselines.hpp"
#include "segscan/spec.hpp"

namespace {

namespace rk = kpz::reduce::kokkos_kernels;
namespace sk = kpz::segscan::kokkos_kernels;
namespace seg = kpz::segscan::segments;

// reduce's oracle: the sum in double and the rounding a float sum may show in any order.
template <class T>
void expect_sum(double got, const std::vector<T>& values, const std::string& what) {
  double exact = 0, abs_sum = 0;
  for (const T x : values) {
    exact += static_cast<double>(x);
    abs_sum += std::fabs(static_cast<double>(x));
  }
  const double bound = std::is_integral_v<T> ? 0.0 : kpz::sum_error_bound(abs_sum, values.size());
  EXPECT_LE(std::fabs(got - exact), bound) << what << ": " << got << " instead of " << exact;
}

template <class Space>
std::vector<int> team_sizes(const Space& space) {
  const int most = kpz::team_size_max(space);
  std::vector<int> sizes{1};
  for (const int t : {3, 32, 128})
    if (t <= most) sizes.push_back(t);
  return sizes;
}

template <class Space, class T>
void check_reduce(const Space& space, const std::string& name) {
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{4097}, std::size_t{100003}}) {
    const std::vector<T> host = kpz::reduce::random_values<T>(n, 2026 + n);
    auto dev = kpz::to_device(space, "in", host);
    const kpz::View<const T*, Space> in = dev;
    kpz::View<T*, Space> result("result", 1);
    const std::string what = name + ", N=" + std::to_string(n) + (std::is_integral_v<T> ? " ints" : " floats");
    kpz::poison(result);
    rk::device_sum<Space, T>(space, in, result);
    space.fence();
    expect_sum(static_cast<double>(kpz::to_host(result)[0]), host, "KokkosBlas::sum, " + what);
    for (const int tile : {1, 3, 64, 1000})
      for (const int team_size : team_sizes(space)) {
        // At most about 4,000 teams: 8 OpenMP threads on 2 cores pay a barrier per team.
        if ((n + tile - 1) / static_cast<std::size_t>(tile) > 4097) continue;
        const rk::TeamDotSum<Space, T> team_dot(space, n, tile, team_size);
        kpz::poison(result);
        team_dot(in, result);
        space.fence();
        expect_sum(static_cast<double>(kpz::to_host(result)[0]), host,
                   "team dot, " + what + ", tile " + std::to_string(tile) + ", team size " + std::to_string(team_size) +
                       " (" + std::to_string(team_dot.teams()) + " teams)");
      }
  }
}

TEST(KokkosKernelsBaselines, ReduceAgreesWithTheOracle) {
  for (const auto& name : kpz::enabled_space_names())
    kpz::with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      check_reduce<Space, int>(space, name);
      check_reduce<Space, float>(space, name);
    });
}

// Segment totals of both library rows against segscan's reduce oracle.
template <class Space>
void check_segments(const Space& space, const std::string& name, const seg::Offsets& offsets,
                    const std::vector<float>& host, const std::string& shape) {
  const std::vector<int> off32(offsets.begin(), offsets.end());
  auto d_offsets = kpz::to_device(space, "offsets", off32);
  auto d_values = kpz::to_device(space, "values", host);
  const std::size_t segs = offsets.size() - 1;
  kpz::View<float*, Space> sums("sums", segs);
  const auto expected =
      kpz::segscan::reduce_oracle(std::vector<double>(host.begin(), host.end()), offsets, /*ints=*/false);
  const auto expect_sums = [&](const std::string& what) {
    const std::vector<float> got = kpz::to_host(sums);
    ASSERT_EQ(got.size(), expected.value.size());
    for (std::size_t s = 0; s < segs; ++s)
      ASSERT_LE(std::fabs(got[s] - expected.value[s]), expected.bound[s])
          << what << ", " << name << ", " << shape << ": segment " << s << " = [" << offsets[s] << ", "
          << offsets[s + 1] << ") gives " << got[s] << " instead of " << expected.value[s];
  };
  for (const int team_size : team_sizes(space)) {
    const sk::TeamDotSegmentSums<Space> team_dot(space, seg::longest(offsets), team_size);
    kpz::poison(sums);
    team_dot(d_values, d_offsets, sums);
    space.fence();
    expect_sums("team dot per segment, team size " + std::to_string(team_size));
  }
  const sk::SpmvSegmentSums<Space> spmv(space, d_values, d_offsets, sums);
  kpz::poison(sums);
  spmv();
  space.fence();
  expect_sums("KokkosSparse::spmv with x = [1]");
}

TEST(KokkosKernelsBaselines, SegmentSumsAgreeWithTheOracle) {
  for (const auto& name : kpz::enabled_space_names())
    kpz::with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      kpz::Rng rng(7);
      for (const std::int64_t n : {std::int64_t{1}, std::int64_t{33}, std::int64_t{5000}}) {
        std::vector<float> host(static_cast<std::size_t>(n));
        for (auto& v : host) v = static_cast<float>(rng.uniform(-2.0, 3.0));
        check_segments(space, name, seg::single_offsets(n), host, "one segment of " + std::to_string(n));
        check_segments(space, name, seg::unit_offsets(n), host, "segments of 1, N=" + std::to_string(n));
        for (const std::int64_t mean : {std::int64_t{4}, std::int64_t{40}}) {
          check_segments(space, name, seg::gappy_offsets(rng, n, mean), host,
                         "random segments with empty ones, mean " + std::to_string(mean) + ", N=" + std::to_string(n));
          check_segments(space, name, seg::heavy_tail_offsets(rng, n, mean), host,
                         "heavy-tailed segments, mean " + std::to_string(mean) + ", N=" + std::to_string(n));
        }
      }
    });
}

}  // namespace

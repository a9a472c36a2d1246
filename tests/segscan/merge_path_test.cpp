// segscan's framework kernels, called directly with hand-made inputs: the merge-path segmented
// reduction (hand-made segments, determinism, no segments, the fast path's 16-byte loads on
// misaligned Views, segments over many teams) and the team collective kpz::team::OrderedScan.
// They are the framework's, the same in both executables: only the reference one runs them.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"
#include "segscan/spec.hpp"

namespace {

namespace ss = kpz::segscan;

class SegscanFramework : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework kernel, not an exercise";
  }
};

// ---- the merge-path kernel ----

template <class Space>
std::vector<float> merge_path_sums(const Space& space, const std::vector<float>& values,
                                   const std::vector<std::int64_t>& offsets, const ss::MergePathPlan& plan) {
  const std::vector<int> off32(offsets.begin(), offsets.end());
  auto v = kpz::to_device(space, "values", values);
  auto o = kpz::to_device(space, "offsets", off32);
  kpz::View<float*, Space> sums("sums", offsets.size() - 1);
  kpz::poison(sums);
  ss::MergePathWorkspace<Space, float> ws(space, plan, static_cast<std::int64_t>(offsets.size()) - 1,
                                          static_cast<std::int64_t>(values.size()));
  ss::merge_path_reduce(space, plan, ws, kpz::View<const float*, Space>(v), kpz::View<const int*, Space>(o), sums);
  space.fence();
  return kpz::to_host(sums);
}

// The framework's team collective kpz::team::OrderedScan: the (value, flag) operator is not
// commutative, so any swapped operand shows. Both paths (shuffle on CUDA, scratch everywhere)
// against the host oracle, per team, for every team size the backend runs.
template <class Space>
std::vector<ss::SegPair<int>> ordered_scan_once(const Space& space, const std::vector<ss::SegPair<int>>& host,
                                                int team_size, kpz::team::ScanPath path, bool exclusive) {
  using Scan = kpz::team::OrderedScan<Space, ss::SegPair<int>>;
  const int n = static_cast<int>(host.size());
  const int teams = n / team_size;
  kpz::View<ss::SegPair<int>*, Space> in("in", n), out("out", n);
  auto h_in = Kokkos::create_mirror_view(in);
  for (int i = 0; i < n; ++i) h_in(i) = host[static_cast<std::size_t>(i)];
  Kokkos::deep_copy(in, h_in);
  Kokkos::deep_copy(out, ss::SegPair<int>{-7777, 9});
  const auto policy = kpz::TeamPolicy<Space>(space, teams, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Scan::scratch_bytes(team_size)));
  Kokkos::parallel_for(
      policy, KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
        const Scan scan(team, path);
        const int i = team.league_rank() * team.team_size() + team.team_rank();
        const auto r =
            scan.scan(team, in(i), ss::SegPair<int>{0, 0}, [](const ss::SegPair<int>& a, const ss::SegPair<int>& b) {
              return ss::SegPair<int>{b.flag ? b.value : a.value + b.value, a.flag | b.flag};
            });
        out(i) = exclusive ? r.exclusive : r.inclusive;
      });
  space.fence();
  auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<ss::SegPair<int>> got(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) got[static_cast<std::size_t>(i)] = h_out(i);
  return got;
}

TEST_P(SegscanFramework, OrderedScanPathsAgreeWithOracle) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    using Scan = kpz::team::OrderedScan<Space, ss::SegPair<int>>;
    kpz::Rng rng(4242);
    auto teams = kpz::test::team_sizes(GetParam());
    if (GetParam() == "cuda") teams.insert(teams.end(), {32, 64, 96, 128, 256, 512});
    int shuffle_runs = 0;
    for (const int team : teams) {
      // Three teams; flags rare, frequent, and none at all in the first team.
      std::vector<ss::SegPair<int>> host(static_cast<std::size_t>(3 * team));
      for (std::size_t i = 0; i < host.size(); ++i) {
        const auto t_size = static_cast<std::size_t>(team);
        const int density = i < t_size ? 0 : i < 2 * t_size ? 5 : 50;
        host[i] = ss::SegPair<int>{static_cast<int>(rng.integer(-1000, 1000)), rng.integer(0, 99) < density ? 1 : 0};
      }
      shuffle_runs += Scan::uses_shuffle(team);
      for (const bool exclusive : {false, true})
        for (const auto path : {kpz::team::ScanPath::best, kpz::team::ScanPath::scratch}) {
          const auto got = ordered_scan_once<Space>(space, host, team, path, exclusive);
          for (int t = 0; t < 3; ++t) {
            ss::SegPair<int> acc{0, 0};
            for (int r = 0; r < team; ++r) {
              const auto& x = host[static_cast<std::size_t>(t * team + r)];
              const ss::SegPair<int> incl{x.flag ? x.value : acc.value + x.value, acc.flag | x.flag};
              const auto want = exclusive ? acc : incl;
              const auto& g = got[static_cast<std::size_t>(t * team + r)];
              ASSERT_TRUE(g.value == want.value && g.flag == want.flag)
                  << "team size " << team << ", team " << t << ", rank " << r
                  << (exclusive ? " exclusive" : " inclusive")
                  << (path == kpz::team::ScanPath::best ? " best path" : " scratch path") << ": got (" << g.value
                  << ", " << g.flag << "), want (" << want.value << ", " << want.flag << ")";
              acc = incl;
            }
          }
        }
    }
    if (GetParam() == "cuda") EXPECT_GT(shuffle_runs, 0) << "the shuffle path never ran";
  });
}

TEST_P(SegscanFramework, MergePathHandMadeSegments) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    // Values 1, 2, 4, ... (exact in float) so that every sum identifies its elements.
    std::vector<float> values(20);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(1 << i);
    const std::vector<std::vector<std::int64_t>> cases{
        {0, 20},                // one segment
        {0, 0, 0, 20, 20, 20},  // empty segments around it
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
        {0, 0, 3, 3, 3, 11, 12, 12, 19, 20, 20},
        {0, 17, 17, 18, 20}};
    for (const int team : kpz::test::team_sizes(GetParam()))
      for (int tile : {1, 2, 3, 7, 2048})
        for (const bool staged : {true, false})
          for (const auto& offsets : cases) {
            const ss::MergePathPlan plan{team, tile, 2, staged};
            const auto got = merge_path_sums(space, values, offsets, plan);
            for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
              float want = 0;
              for (auto i = offsets[s]; i < offsets[s + 1]; ++i) want += values[static_cast<std::size_t>(i)];
              ASSERT_EQ(got[s], want) << "segment " << s << ", team " << team << ", tile " << tile
                                      << (staged ? ", staged" : ", in place");
            }
          }
  });
}

TEST_P(SegscanFramework, MergePathIsDeterministic) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    kpz::Rng rng(77);
    const auto offsets = kpz::segscan::segments::heavy_tail_offsets(rng, 200000, 32);
    std::vector<float> values(200000);
    for (auto& x : values) x = static_cast<float>(rng.uniform(-1.0, 1.0));
    const auto plan = ss::default_merge_path_plan<Space>(std::min(64, kpz::team_size_max(space)));
    const auto a = merge_path_sums(space, values, offsets, plan);
    const auto b = merge_path_sums(space, values, offsets, plan);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t s = 0; s < a.size(); ++s) ASSERT_EQ(a[s], b[s]) << "segment " << s;
  });
}

TEST_P(SegscanFramework, MergePathWithoutSegments) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    const ss::MergePathPlan plan{1, 16, 2};
    EXPECT_TRUE(merge_path_sums(space, {}, {0}, plan).empty());                          // S = 0, N = 0
    EXPECT_EQ(merge_path_sums(space, {}, {0, 0, 0}, plan), (std::vector<float>{0, 0}));  // N = 0
  });
}

// The fast path against a host oracle, for floats (tolerance from the magnitudes that entered
// each sum) and ints (exact), with misaligned Views (the kernel's 16-byte loads fall back to
// single loads), several team sizes and tiles. `misalign` 1 shifts values and offsets by one
// element inside larger allocations, so their data() is 4 bytes past a 16-byte boundary.
template <class T, class Space>
std::vector<T> fast_sums(const Space& space, const std::vector<T>& values, const std::vector<std::int64_t>& offsets,
                         const ss::MergePathPlan& plan, bool misalign) {
  const std::size_t shift = misalign ? 1 : 0;
  std::vector<T> v(values.size() + shift, T(99));
  std::copy(values.begin(), values.end(), v.begin() + static_cast<std::ptrdiff_t>(shift));
  std::vector<int> o(offsets.size() + shift, 12345);
  std::copy(offsets.begin(), offsets.end(), o.begin() + static_cast<std::ptrdiff_t>(shift));
  auto dv = kpz::to_device(space, "values", v);
  auto dofs = kpz::to_device(space, "offsets", o);
  const kpz::View<const T*, Space> cv = Kokkos::subview(dv, std::make_pair(shift, v.size()));
  const kpz::View<const int*, Space> co = Kokkos::subview(dofs, std::make_pair(shift, o.size()));
  kpz::View<T*, Space> sums("sums", offsets.size() - 1);
  kpz::poison(sums);
  ss::MergePathWorkspace<Space, T> ws(space, plan, static_cast<std::int64_t>(offsets.size()) - 1,
                                      static_cast<std::int64_t>(values.size()));
  ss::merge_path_reduce(space, plan, ws, cv, co, sums);
  space.fence();
  return kpz::to_host(sums);
}

template <class T>
std::vector<T> random_values(kpz::Rng& rng, std::size_t n) {
  std::vector<T> v(n);
  for (auto& x : v)
    x = std::is_integral_v<T> ? static_cast<T>(rng.integer(-3, 7)) : static_cast<T>(rng.uniform(-2.0, 3.0));
  return v;
}

// Empty string when every sum matches the oracle, else the first mismatch.
template <class T>
std::string check_fast_sums(const std::vector<T>& values, const std::vector<std::int64_t>& offsets,
                            const std::vector<T>& got) {
  if (got.size() + 1 != offsets.size()) return "wrong number of sums";
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, abs_sum = 0;
    for (auto i = offsets[s]; i < offsets[s + 1]; ++i) {
      sum += static_cast<double>(values[static_cast<std::size_t>(i)]);
      abs_sum += std::abs(static_cast<double>(values[static_cast<std::size_t>(i)]));
    }
    const auto terms = static_cast<std::size_t>(offsets[s + 1] - offsets[s]);
    const bool ok = std::is_integral_v<T>
                        ? static_cast<double>(got[s]) == sum
                        : std::abs(static_cast<double>(got[s]) - sum) <= kpz::sum_error_bound(abs_sum, terms);
    if (!ok)
      return "segment " + std::to_string(s) + " [" + std::to_string(offsets[s]) + ", " +
             std::to_string(offsets[s + 1]) + "): got " + std::to_string(static_cast<double>(got[s])) + ", want " +
             std::to_string(sum);
  }
  return "";
}

// Segment shapes of the fast-path tests over n values.
std::vector<std::pair<std::string, std::vector<std::int64_t>>> fast_shapes(kpz::Rng& rng, std::int64_t n) {
  namespace sg = kpz::segscan::segments;
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes{
      {"random 0..8", sg::random_offsets(rng, n, 4)},
      {"random 0..64", sg::random_offsets(rng, n, 32)},
      {"heavy tail", sg::heavy_tail_offsets(rng, n, 16)},
      {"all length 1", sg::unit_offsets(n)},
      {"one segment", sg::single_offsets(n)},
      {"empty between all", sg::gappy_offsets(rng, n, 5)}};
  // Empty rows in runs: 40 empty segments, then the values in segments of 1000, then 40 more.
  std::vector<std::int64_t> runs(41, 0);
  for (std::int64_t at = 1000; at < n; at += 1000) runs.push_back(at);
  runs.insert(runs.end(), 41, n);
  shapes.emplace_back("empty runs, long segments", runs);
  return shapes;
}

template <class T>
void fast_path_cases(const std::string& space_name) {
  kpz::with_space(space_name, [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    kpz::Rng rng(2718);
    const auto teams = kpz::test::team_sizes(space_name);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{3841}, std::int64_t{20011}}) {
      // Every team size and small tiles (many teams) on the small inputs; the largest team and
      // the default tile (a remainder tile, several quads per member) on the largest.
      const bool large = n > 4000;
      const std::vector<int> team_list = large ? std::vector<int>{teams.back()} : teams;
      const std::vector<int> tiles = large ? std::vector<int>{0, 1000} : std::vector<int>{0, 5, 64};
      const auto values = random_values<T>(rng, static_cast<std::size_t>(n));
      for (const auto& [shape, offsets] : fast_shapes(rng, n))
        for (const int team : team_list)
          for (const int tile : tiles)
            for (const bool misalign : {false, true})
              for (const bool staged : {true, false}) {
                if (misalign && tile == 5) continue;
                if (!staged && team != team_list.front()) continue;  // one thread walks a tile in place
                ss::MergePathPlan plan = ss::default_merge_path_plan<Space>(team);
                if (tile) plan.tile_items = tile;
                plan.staged = staged;
                const auto got = fast_sums<T>(space, values, offsets, plan, misalign);
                const std::string bad = check_fast_sums(values, offsets, got);
                ASSERT_EQ(bad, "") << "N " << n << ", " << shape << ", team " << team << ", tile " << plan.tile_items
                                   << (misalign ? ", misaligned" : "") << (staged ? ", staged" : ", in place");
              }
    }
  });
}

TEST_P(SegscanFramework, MergePathFastPathFloats) {
  fast_path_cases<float>(GetParam());
}

TEST_P(SegscanFramework, MergePathFastPathIntsExact) {
  fast_path_cases<int>(GetParam());
}

TEST_P(SegscanFramework, MergePathSegmentsSpanManyTeams) {
  // One segment of 2^18 values and 64 segments of 4096 over tiles of the default size: each
  // crosses several teams (the benchmark's L = 2^20 in miniature); with 64-item tiles a
  // segment of 4096 covers 64 teams, and the 4096 carries fill more than one chunk.
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    kpz::Rng rng(31415);
    const std::int64_t n = std::int64_t{1} << 18;
    const auto fvalues = random_values<float>(rng, static_cast<std::size_t>(n));
    const auto ivalues = random_values<int>(rng, static_cast<std::size_t>(n));
    std::vector<std::int64_t> even;
    for (std::int64_t at = 0; at <= n; at += 4096) even.push_back(at);
    for (const auto& offsets : {kpz::segscan::segments::single_offsets(n), even})
      for (const int tile : {0, 64}) {
        ss::MergePathPlan plan = ss::default_merge_path_plan<Space>(std::min(256, kpz::team_size_max(space)));
        if (tile) plan.tile_items = tile;
        plan.staged = tile != 0;  // the default tile walked the machine's way, the small one the other
        EXPECT_EQ(check_fast_sums(fvalues, offsets, fast_sums<float>(space, fvalues, offsets, plan, false)), "")
            << "floats, " << offsets.size() - 1 << " segments, tile " << plan.tile_items;
        EXPECT_EQ(check_fast_sums(ivalues, offsets, fast_sums<int>(space, ivalues, offsets, plan, true)), "")
            << "ints, " << offsets.size() - 1 << " segments, tile " << plan.tile_items;
      }
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, SegscanFramework, ::testing::ValuesIn(kpz::enabled_space_names()));

}  // namespace

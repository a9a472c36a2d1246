// segscan: the worked examples, the edge cases (N = 1, empty segments, one segment covering
// everything, all segments of length 1, segments over 3+ teams, N not a multiple of the tile,
// heavy tails), floats and integers, several team sizes, bad input, the framework's merge-path
// kernel (directly, with hand-made segments) and Kokkos Kernels when the build has it.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"
#include "segscan/segments.hpp"
#include "segscan/segscan.hpp"

namespace {

using kpz::test::Case;
using kpz::test::run_case;
namespace ss = kpz::segscan;

const std::vector<std::string> kScans{"simple", "exclusive", "work-efficient", "multi-team"};
const std::vector<std::string> kAll{"simple", "exclusive", "work-efficient", "multi-team", "reduce", "spmv"};

class Segscan : public ::testing::TestWithParam<std::string> {
 protected:
  kpz::RunReport run(const Case& c) { return run_case("segscan", GetParam(), c); }
  bool reference() const { return kpz::test::impl_under_test() == kpz::Impl::reference; }
};

std::int64_t config_int(const kpz::RunReport& r, const std::string& key) {
  const kpz::Json* j = r.config.find(key);
  return j ? std::stoll(j->dump()) : -1;
}

// ---- worked examples (docs/puzzles/segscan.md) ----

TEST_P(Segscan, WorkedExampleInclusive) {
  for (int ints : {0, 1})
    for (const char* variant : {"simple", "work-efficient"}) {
      const auto r = run({variant, {{"int", ints}}});
      KPZ_EXPECT_PASS(r) << variant << " int=" << ints;
      EXPECT_EQ(r.output.dump(), "[0,1,3,3,7,5,11,18,26,9]") << variant;
      EXPECT_EQ(r.expected.dump(), "[0,1,3,3,7,5,11,18,26,9]");
      ASSERT_NE(r.extra.find("segment_totals"), nullptr);
      EXPECT_EQ(r.extra.find("segment_totals")->dump(), "[3,7,26,9]") << variant;
      EXPECT_EQ(r.inputs.find("ids")->dump(), "[0,0,0,1,1,2,2,2,2,3]");
      EXPECT_EQ(r.inputs.find("flags")->dump(), "[1,0,0,1,0,1,0,0,0,1]");
      EXPECT_EQ(r.inputs.find("offsets")->dump(), "[0,3,5,9,10]");
      EXPECT_EQ(r.inputs.find("values")->dump(), "[0,1,2,3,4,5,6,7,8,9]");
    }
}

TEST_P(Segscan, WorkedExampleStepTable) {
  const auto r = run({"simple", {}});
  std::string notes;
  for (const auto& l : r.notes) notes += l + "\n";
  // One row pair per step d = 1, 2, 4, 8, as in the docs.
  EXPECT_NE(notes.find("d = 1    v   0  1  3  3  7  5 11 13 15  9"), std::string::npos) << notes;
  EXPECT_NE(notes.find("d = 2    v   0  1  3  3  7  5 11 18 26  9"), std::string::npos) << notes;
  EXPECT_NE(notes.find("d = 8"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("d = 16"), std::string::npos) << notes;
  EXPECT_NE(notes.find("segment totals: [3,7,26,9]"), std::string::npos) << notes;
}

TEST_P(Segscan, WorkedExampleExclusive) {
  for (int ints : {0, 1}) {
    const auto r = run({"exclusive", {{"int", ints}}});
    KPZ_EXPECT_PASS(r);
    EXPECT_EQ(r.output.dump(), "[0,0,1,0,3,0,5,11,18,0]");
  }
}

// ---- edge cases, every variant, floats and integers ----

TEST_P(Segscan, SizeOne) {
  for (const auto& v : kAll)
    for (int ints : {0, 1})
      for (int shape : {0, 3})
        KPZ_EXPECT_PASS(run({v, {{"size", 1}, {"int", ints}, {"shape", shape}, {"mean-length", 1}}, 0, 3}))
            << v << " int=" << ints << " shape=" << shape;
}

TEST_P(Segscan, EmptySegmentsAnywhere) {
  // Shape 4: the first and the last segment are empty and empty ones follow every other.
  for (const auto& v : kAll)
    for (int ints : {0, 1}) {
      const auto r = run({v, {{"size", v == "spmv" ? 301 : 997}, {"shape", 4}, {"mean-length", 5}, {"int", ints}, {"tile", 16}}, 0, 11});
      KPZ_EXPECT_PASS(r) << v << " int=" << ints;
    }
}

TEST_P(Segscan, EmptySegmentsGiveZero) {
  for (const char* v : {"reduce", "spmv"}) {
    const auto r = run({v, {{"size", 200}, {"shape", 4}, {"mean-length", 3}, {"int", 1}, {"tile", 8}}, 0, 5});
    KPZ_EXPECT_PASS(r) << v;
    const std::string out = r.output.dump();
    EXPECT_EQ(out.substr(0, 3), "[0,") << v << ": the first segment is empty";
    EXPECT_EQ(out.substr(out.size() - 3), ",0]") << v << ": the last segment is empty";
  }
}

TEST_P(Segscan, OneSegmentCoversEverything) {
  for (const auto& v : kAll)
    for (int ints : {0, 1}) {
      const bool one_team = v == "simple" || v == "exclusive" || v == "work-efficient";
      const auto r = run({v, {{"size", one_team ? 1000 : 10007}, {"shape", 3}, {"int", ints}, {"tile", 16}}, 0, 2});
      KPZ_EXPECT_PASS(r) << v << " int=" << ints;
    }
}

TEST_P(Segscan, AllSegmentsOfLengthOne) {
  for (const auto& v : kAll)
    for (int ints : {0, 1})
      KPZ_EXPECT_PASS(run({v, {{"size", v == "spmv" ? 513 : 1025}, {"shape", 2}, {"int", ints}, {"tile", 64}}, 0, 4}))
          << v << " int=" << ints;
}

TEST_P(Segscan, SegmentsSpanThreeOrMoreTeams) {
  for (int ints : {0, 1}) {
    // Tiles of 8 elements and segments of up to 80: most segments cover 3 or more teams.
    const auto r = run({"multi-team", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}}, 0, 7});
    KPZ_EXPECT_PASS(r);
    EXPECT_GE(config_int(r, "longest"), 3 * 8 + 2);
    EXPECT_GE(config_int(r, "teams"), 600);
    KPZ_EXPECT_PASS(run({"reduce", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}}, 0, 7}));
    KPZ_EXPECT_PASS(run({"reduce", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}, {"merge-path", 1}}, 0, 7}));
  }
}

TEST_P(Segscan, SizesNotAMultipleOfTheTile) {
  for (int tile : {2, 7, 64, 1000, 1024})
    for (int n : {tile - 1, tile + 1, 3 * tile + 5}) {
      if (n < 1) continue;
      KPZ_EXPECT_PASS(run({"multi-team", {{"size", n}, {"tile", tile}, {"mean-length", 6}}, 0, 13u + n}))
          << "N=" << n << " tile=" << tile;
    }
}

TEST_P(Segscan, DeepCarryRecursion) {
  // Tiles of 4: the carries are scanned in 6 levels (2000, 500, 125, 32, 8, 2 tiles).
  for (int ints : {0, 1})
    for (int shape : {0, 3})
      KPZ_EXPECT_PASS(run({"multi-team", {{"size", 8000}, {"tile", 4}, {"mean-length", 50}, {"shape", shape}, {"int", ints}}, 0, 21}))
          << "shape " << shape;
}

TEST_P(Segscan, HeavyTail) {
  for (const char* v : {"multi-team", "reduce", "spmv"})
    for (int ints : {0, 1}) {
      const auto r = run({v, {{"size", 20011}, {"shape", 1}, {"mean-length", 16}, {"int", ints}, {"tile", 128}}, 0, 9});
      KPZ_EXPECT_PASS(r) << v;
      EXPECT_GE(config_int(r, "longest"), 20 * 16) << v << ": the tail should reach far";
    }
}

TEST_P(Segscan, OneTeamVariantsRandom) {
  for (const char* v : {"simple", "exclusive", "work-efficient"})
    for (int n : {2, 3, 31, 32, 33, 100, 1000})
      for (int ints : {0, 1})
        KPZ_EXPECT_PASS(run({v, {{"size", n}, {"mean-length", 4}, {"int", ints}}, 0, 40u + n})) << v << " N=" << n;
}

TEST_P(Segscan, TeamSizesDoNotChangeResults) {
  for (const int team : kpz::test::team_sizes(GetParam())) {
    for (const char* v : {"simple", "exclusive", "work-efficient"})
      KPZ_EXPECT_PASS(run({v, {{"size", 300}, {"mean-length", 5}}, team, 31})) << v << " team " << team;
    KPZ_EXPECT_PASS(run({"multi-team", {{"size", 3001}, {"tile", 64}, {"mean-length", 50}}, team, 32})) << team;
    KPZ_EXPECT_PASS(run({"multi-team", {{"size", 3001}, {"tile", 64}, {"int", 1}, {"shape", 1}}, team, 33})) << team;
    KPZ_EXPECT_PASS(run({"reduce", {{"size", 3001}, {"tile", 64}, {"mean-length", 5}}, team, 34})) << team;
    KPZ_EXPECT_PASS(run({"spmv", {{"size", 501}, {"tile", 64}, {"shape", 1}}, team, 35})) << team;
    for (int tile : {37, 0})
      for (const char* v : {"reduce", "spmv"})
        KPZ_EXPECT_PASS(run({v, {{"size", 4001}, {"tile", tile}, {"shape", 1}, {"merge-path", 1}}, team, 36}))
            << v << " merge path, team " << team << " tile " << tile;
  }
}

TEST_P(Segscan, MergePathEveryShape) {
  for (const char* v : {"reduce", "spmv"})
    for (int shape = 0; shape <= 4; ++shape)
      for (int tile : {0, 3, 64})
        for (int ints : {0, tile == 0 ? 1 : 0})
          KPZ_EXPECT_PASS(run({v, {{"size", tile == 3 ? 301 : 1001}, {"shape", shape}, {"mean-length", 6}, {"tile", tile}, {"int", ints}, {"merge-path", 1}}, 0, 50u + shape}))
              << v << " shape " << shape << " tile " << tile << " int " << ints;
}

TEST_P(Segscan, MergePathManyChunksOfCarries) {
  // Two items per team and chunks of two carries: over 256 chunks, so the fix-up reads the
  // recursive scan of the chunk aggregates instead of combining them serially.
  for (int shape : {0, 1, 3})
    KPZ_EXPECT_PASS(run({"reduce", {{"size", 4001}, {"shape", shape}, {"mean-length", 9}, {"tile", 2}, {"merge-path", 1}}, 0, 70u + shape}))
        << "shape " << shape;
}

TEST_P(Segscan, DifferentSeedsGiveDifferentInputs) {
  const auto a = run({"reduce", {{"size", 64}}, 0, 1});
  const auto b = run({"reduce", {{"size", 64}}, 0, 2});
  EXPECT_NE(a.inputs.find("values")->dump(), b.inputs.find("values")->dump());
  EXPECT_NE(a.inputs.find("offsets")->dump(), b.inputs.find("offsets")->dump());
  const auto c = run({"reduce", {{"size", 64}}, 0, 1});
  EXPECT_EQ(a.inputs.find("values")->dump(), c.inputs.find("values")->dump());
}

// ---- bad input: UsageError (exit 2) before any launch ----

void expect_usage(const std::function<void()>& f, const std::string& mentions, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": no UsageError";
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << what << ": " << e.what();
  }
}

TEST_P(Segscan, BadSegmentDescriptionsAreRejected) {
  for (const auto& v : kAll) {
    const std::int64_t n = v == "spmv" ? 50 : 200;
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 1}}}); }, "are not monotone", v + " --bad-input 1");
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 2}}}); }, "is past", v + " --bad-input 2");
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 3}}}); }, "segment ids decrease", v + " --bad-input 3");
  }
  expect_usage([&] { run({"spmv", {{"size", 50}, {"bad-input", 2}}}); }, "CSR row offsets", "spmv names its offsets");
  expect_usage([&] { run({"reduce", {{"size", 1}, {"bad-input", 3}}}); }, "needs at least 2 elements", "N = 1");
}

TEST_P(Segscan, ScratchAndTileLimitsAreRejected) {
  expect_usage([&] { run({"simple", {{"size", 60000}}}); }, "team scratch", "simple, N = 60000");
  expect_usage([&] { run({"work-efficient", {{"size", 60000}}}); }, "team scratch", "work-efficient, N = 60000");
  expect_usage([&] { run({"multi-team", {{"tile", 1}}}); }, "--tile must be at least 2", "tile 1");
  expect_usage([&] { run({"multi-team", {{"tile", 8192}}}); }, "team scratch", "tile 8192");
}

// ---- the framework's merge-path kernel, called directly ----

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
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    const Scan scan(team, path);
    const int i = team.league_rank() * team.team_size() + team.team_rank();
    const auto r = scan.scan(team, in(i), ss::SegPair<int>{0, 0}, [](const ss::SegPair<int>& a, const ss::SegPair<int>& b) {
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

TEST_P(Segscan, OrderedScanPathsAgreeWithOracle) {
  if (!reference()) GTEST_SKIP() << "framework collective, not an exercise";
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
                  << "team size " << team << ", team " << t << ", rank " << r << (exclusive ? " exclusive" : " inclusive")
                  << (path == kpz::team::ScanPath::best ? " best path" : " scratch path") << ": got (" << g.value << ", "
                  << g.flag << "), want (" << want.value << ", " << want.flag << ")";
              acc = incl;
            }
          }
        }
    }
    if (GetParam() == "cuda") EXPECT_GT(shuffle_runs, 0) << "the shuffle path never ran";
  });
}

TEST_P(Segscan, MergePathHandMadeSegments) {
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    // Values 1, 2, 4, ... (exact in float) so that every sum identifies its elements.
    std::vector<float> values(20);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(1 << i);
    const std::vector<std::vector<std::int64_t>> cases{
        {0, 20},                                          // one segment
        {0, 0, 0, 20, 20, 20},                            // empty segments around it
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
        {0, 0, 3, 3, 3, 11, 12, 12, 19, 20, 20},
        {0, 17, 17, 18, 20}};
    for (const int team : kpz::test::team_sizes(GetParam()))
      for (int tile : {1, 2, 3, 7, 2048})
        for (const auto& offsets : cases) {
          const ss::MergePathPlan plan{team, tile, 2};
          const auto got = merge_path_sums(space, values, offsets, plan);
          for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
            float want = 0;
            for (auto i = offsets[s]; i < offsets[s + 1]; ++i) want += values[static_cast<std::size_t>(i)];
            ASSERT_EQ(got[s], want) << "segment " << s << ", team " << team << ", tile " << tile;
          }
        }
  });
}

TEST_P(Segscan, MergePathIsDeterministic) {
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    kpz::Rng rng(77);
    const auto offsets = kpz::segscan::segments::heavy_tail_offsets(rng, 200000, 32);
    std::vector<float> values(200000);
    for (auto& x : values) x = static_cast<float>(rng.uniform(-1.0, 1.0));
    const auto plan = ss::default_merge_path_plan<Space>(kpz::resolve_team_size(space, 0, 64));
    const auto a = merge_path_sums(space, values, offsets, plan);
    const auto b = merge_path_sums(space, values, offsets, plan);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t s = 0; s < a.size(); ++s) ASSERT_EQ(a[s], b[s]) << "segment " << s;
  });
}

TEST_P(Segscan, MergePathWithoutSegments) {
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    const ss::MergePathPlan plan{1, 16, 2};
    EXPECT_TRUE(merge_path_sums(space, {}, {0}, plan).empty());                            // S = 0, N = 0
    EXPECT_EQ(merge_path_sums(space, {}, {0, 0, 0}, plan), (std::vector<float>{0, 0}));    // N = 0
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
    const bool ok = std::is_integral_v<T> ? static_cast<double>(got[s]) == sum
                                          : std::abs(static_cast<double>(got[s]) - sum) <= kpz::sum_error_bound(abs_sum, terms);
    if (!ok)
      return "segment " + std::to_string(s) + " [" + std::to_string(offsets[s]) + ", " + std::to_string(offsets[s + 1]) +
             "): got " + std::to_string(static_cast<double>(got[s])) + ", want " + std::to_string(sum);
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
            for (const bool misalign : {false, true}) {
              if (misalign && tile == 5) continue;
              ss::MergePathPlan plan = ss::default_merge_path_plan<Space>(team);
              if (tile) plan.tile_items = tile;
              const auto got = fast_sums<T>(space, values, offsets, plan, misalign);
              const std::string bad = check_fast_sums(values, offsets, got);
              ASSERT_EQ(bad, "") << "N " << n << ", " << shape << ", team " << team << ", tile " << plan.tile_items
                                 << (misalign ? ", misaligned" : "");
            }
    }
  });
}

TEST_P(Segscan, MergePathFastPathFloats) {
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
  fast_path_cases<float>(GetParam());
}

TEST_P(Segscan, MergePathFastPathIntsExact) {
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
  fast_path_cases<int>(GetParam());
}

TEST_P(Segscan, MergePathSegmentsSpanManyTeams) {
  // One segment of 2^18 values and 64 segments of 4096 over tiles of the default size: each
  // crosses several teams (the benchmark's L = 2^20 in miniature); with 64-item tiles a
  // segment of 4096 covers 64 teams, and the 4096 carries fill more than one chunk.
  if (!reference()) GTEST_SKIP() << "framework kernel, not an exercise";
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
        ss::MergePathPlan plan = ss::default_merge_path_plan<Space>(kpz::resolve_team_size(space, 0, 256));
        if (tile) plan.tile_items = tile;
        EXPECT_EQ(check_fast_sums(fvalues, offsets, fast_sums<float>(space, fvalues, offsets, plan, false)), "")
            << "floats, " << offsets.size() - 1 << " segments, tile " << plan.tile_items;
        EXPECT_EQ(check_fast_sums(ivalues, offsets, fast_sums<int>(space, ivalues, offsets, plan, true)), "")
            << "ints, " << offsets.size() - 1 << " segments, tile " << plan.tile_items;
      }
  });
}

// ---- Kokkos Kernels (optional) ----

TEST_P(Segscan, KokkosKernelsSpmvAgrees) {
  if (!ss::have_kokkos_kernels()) GTEST_SKIP() << "this build has no Kokkos Kernels";
  for (int shape : {0, 1, 2, 4}) {
    const auto r = run({"spmv", {{"size", 2001}, {"shape", shape}}, 0, 61});
    const kpz::Json* kk = r.extra.find("kokkos_kernels");
    ASSERT_NE(kk, nullptr) << "shape " << shape;
    EXPECT_NE(kk->dump().find("\"pass\":true"), std::string::npos) << kk->dump();
    EXPECT_NE(kk->dump().find("SPMV_NATIVE"), std::string::npos);
  }
}

TEST_P(Segscan, WithoutKokkosKernelsSpmvStillRuns) {
  const auto r = run({"spmv", {{"size", 300}}, 0, 62});
  if (reference()) KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.extra.find("kokkos_kernels") != nullptr, ss::have_kokkos_kernels());
}

// ---- large random cases (skipped by the sanitizer runs) ----

TEST_P(Segscan, LargeRandom) {
  KPZ_EXPECT_PASS(run({"multi-team", {{"size", (1 << 21) + 5}, {"mean-length", 100}}, 0, 99}));
  KPZ_EXPECT_PASS(run({"multi-team", {{"size", (1 << 20) + 5}, {"int", 1}, {"shape", 1}}, 0, 98}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 4}}, 0, 97}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 4}, {"merge-path", 1}}, 0, 96}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 1 << 16}, {"merge-path", 1}}, 0, 95}));
  KPZ_EXPECT_PASS(run({"spmv", {{"size", 1 << 17}, {"shape", 1}, {"merge-path", 1}}, 0, 94}));
}

INSTANTIATE_TEST_SUITE_P(Spaces, Segscan, ::testing::ValuesIn(kpz::enabled_space_names()));

}  // namespace

// bin-extract: the worked example, empty and full bins, stability, Kokkos::BinSort and the host
// counting sort, and the framework's fast kernels against the oracle. Bin edges, negatives and
// values >= 1, sizes that are not a multiple of the tile, many teams of every team size: the
// spec's checks and team sweeps (framework/puzzles/bin-extract/checks.cpp, run by
// support/variant_checks_test.cpp).
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/fast/kernels.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/library_baselines.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

namespace be = kpz::bin_extract;

class BinExtract : public kpz::test::PuzzleTest {
 protected:
  BinExtract() : PuzzleTest("bin-extract") {}
  static bool is_reference() { return kpz::test::impl_under_test() == kpz::Impl::reference; }
};

std::string counts_of(const kpz::RunReport& r) {
  return r.extra.find("counts")->dump();
}
long long count_of(const kpz::RunReport& r) {
  return std::stoll(r.extra.find("count")->dump());
}

TEST_P(BinExtract, HistogramWorkedExample) {
  const auto r = run({"histogram", {}});
  KPZ_EXPECT_PASS(r);
  // The values printed in docs/puzzles/bin-extract.md: i mod 80 / 100 for i < 128, 8 bins.
  EXPECT_EQ(counts_of(r), "[26,24,26,22,13,12,5,0]");
  EXPECT_EQ(count_of(r), 128);
  ASSERT_EQ(r.notes.size(), 8u);
  EXPECT_EQ(r.notes[0], "bin 0 [-inf, 0.125): count 26: 0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, ...");
  EXPECT_EQ(r.notes[3], "bin 3 [0.375, 0.5): count 22: 0.38, 0.39, 0.4, 0.41, 0.42, 0.43, 0.44, 0.45, ...");
  EXPECT_EQ(r.notes[6], "bin 6 [0.75, 0.875): count 5: 0.75, 0.76, 0.77, 0.78, 0.79");
  EXPECT_EQ(r.notes[7], "bin 7 [0.875, +inf): count 0");
}

// The edge cases of every variant are the spec's checks (checks.cpp), which
// support/variant_checks_test.cpp runs on every space; these are the counts they imply.
TEST_P(BinExtract, EmptyAndFullBinsCount) {
  EXPECT_EQ(count_of(run({"extract", {{"size", 1000}, {"pattern", be::kOutside}, {"tile", 64}}, 0, 5})), 0);
  EXPECT_EQ(count_of(run({"extract", {{"size", 1000}, {"pattern", be::kOneBin}, {"tile", 64}}, 0, 5})), 1000);
  // All in one bin: the histogram is N in bin B/2 and 0 elsewhere.
  const auto r = run({"partition", {{"size", 1000}, {"pattern", be::kOneBin}, {"tile", 64}}, 0, 3});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(counts_of(r), "[0,0,0,0,1000,0,0,0]");
}

TEST_P(BinExtract, StableOrderIsInputOrderNotValueOrder) {
  // Inside every bin the values decrease along the input: a stable result is decreasing too.
  const auto e = run({"extract", {{"size", 3001}, {"tile", 64}, {"pattern", be::kDescending}}, 0, 12});
  KPZ_EXPECT_PASS(e);
  const auto p = run({"partition", {{"size", 3001}, {"tile", 64}, {"pattern", be::kDescending}}, 0, 12});
  KPZ_EXPECT_PASS(p);
  const auto h = run({"histogram", {{"size", 3001}, {"pattern", be::kDescending}}, 0, 12});
  KPZ_EXPECT_PASS(h);
  // The test input really is decreasing within a bin (so sorting would be caught).
  const auto in = be::make_input(3001, 8, 3, be::kDescending, 12);
  const auto o = be::host_counting_sort(in, 8);
  ASSERT_GT(o.offsets[4] - o.offsets[3], 2u);
  EXPECT_GT(in[o.order[o.offsets[3]]], in[o.order[o.offsets[3] + 1]]);
}

TEST_P(BinExtract, UsageErrors) {
  EXPECT_THROW(run({"extract", {{"num-bins", 4}, {"target-bin", 4}}}), kpz::UsageError);
  EXPECT_THROW(run({"extract", {{"size", 100}, {"pattern", be::kWithNan}}}), kpz::UsageError);  // NaN: exit 2
  EXPECT_THROW(run({"partition", {{"size", 100}, {"pattern", be::kWithNan}}}), kpz::UsageError);
  EXPECT_THROW(run({"histogram", {{"size", 1 << 14}}}), kpz::UsageError);  // one team's scratch
  EXPECT_THROW(run({"partition", {{"size", 100}, {"tile", 1 << 16}}}), kpz::UsageError);
  EXPECT_THROW(be::validate_input({0.5f, std::nanf(""), 0.25f}), kpz::UsageError);
  EXPECT_THROW(be::validate_input({0.5f, INFINITY}), kpz::UsageError);
  EXPECT_NO_THROW(be::validate_input({0.5f, -0.0f, 1.0f, -3.0f}));
}

TEST_P(BinExtract, BinOfFollowsTheDefinition) {
  EXPECT_EQ(be::bin_of(0.25f, 8), 2);
  EXPECT_EQ(be::bin_of(0.5f, 8), 4);
  EXPECT_EQ(be::bin_of(1.0f, 8), 7);
  EXPECT_EQ(be::bin_of(7.5f, 8), 7);
  EXPECT_EQ(be::bin_of(-0.0f, 8), 0);
  EXPECT_EQ(be::bin_of(-1e30f, 8), 0);
  EXPECT_EQ(be::bin_of(0.124999f, 8), 0);
  EXPECT_EQ(be::bin_of(0.125f, 8), 1);
  EXPECT_EQ(be::bin_of(0.999f, 1), 0);
  EXPECT_EQ(be::bin_of(3e38f, 256), 255);
}

// --partition's counts against Kokkos::BinSort (bins over [0, 1]: its extra bin holds 1.0, which
// the puzzle clamps into the last bin) and against the host counting sort.
TEST_P(BinExtract, PartitionCountsMatchBinSortAndHostCountingSort) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const int bins = 8;
    for (int pattern : {be::kUniform, be::kEdges}) {
      std::vector<float> host = be::make_input(20011, bins, 0, pattern, 4);
      for (float& x : host) x = std::fabs(x);  // BinSort needs keys in [min, max]: -0 becomes 0
      const auto oracle = be::host_counting_sort(host, bins);
      auto in = kpz::to_device(space, "in", host);
      kpz::View<const float*, Space> cin = in;
      const be::Launch launch{
          kpz::launch_shape(space, kpz::KernelNeeds{}, kpz::ShapeRequest{}, kpz::Purpose::check).team_size, 512};
      const int teams = be::teams_for(host.size(), launch.tile);
      kpz::View<int*, Space> tile_offsets("tile_offsets", bins * teams + 1), bin_offsets("bin_offsets", bins + 1);
      kpz::View<float*, Space> out("out", host.size());
      (is_reference() ? be::reference::partition<Space>
                      : be::exercise::partition<Space>)(space, launch, bins, cin, tile_offsets, out, bin_offsets);
      space.fence();
      const auto offsets = kpz::to_host(bin_offsets);

      using KeyView = kpz::View<const float*, Space>;
      Kokkos::BinSort<KeyView, Kokkos::BinOp1D<KeyView>> sorter(space, cin, Kokkos::BinOp1D<KeyView>(bins, 0.0f, 1.0f),
                                                                false);
      sorter.create_permute_vector(space);
      space.fence();
      auto binsort_counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, sorter.get_bin_count());
      ASSERT_EQ(binsort_counts.extent(0), static_cast<std::size_t>(bins + 1));  // the extra bin
      for (int b = 0; b < bins; ++b) {
        const long long ours = offsets[b + 1] - offsets[b];
        const long long theirs = binsort_counts(b) + (b == bins - 1 ? binsort_counts(bins) : 0);
        EXPECT_EQ(ours, theirs) << "bin " << b << " pattern " << pattern;
        EXPECT_EQ(ours, static_cast<long long>(oracle.offsets[b + 1] - oracle.offsets[b])) << "bin " << b;
      }
      if (pattern == be::kEdges) EXPECT_GT(binsort_counts(bins), 0) << "1.0 went to BinSort's extra bin";
    }
  });
}

TEST_P(BinExtract, LargeRandom) {
  KPZ_EXPECT_PASS(run({"extract", {{"size", (1 << 22) + 5}}, 0, 4242}));
  KPZ_EXPECT_PASS(run({"partition", {{"size", (1 << 22) + 5}, {"pattern", be::kUniform}}, 0, 4243}));
}

// The framework's fast kernels (what the benchmark measures): against the oracle for every
// pattern, several sizes, bins and team sizes, and a misaligned input (scalar loads).
template <class Space>
// chunks > 0 overrides the number of chunks (teams) of the launch: with a few chunks every team
// walks many tiles, which the default (as many chunks as the device runs at once) only does on
// inputs larger than the tests'.
void check_fast_kernels(const Space& space, const std::vector<float>& host, kpz::View<const float*, Space> in, int bins,
                        int target, int team, const std::string& what, int chunks = 0) {
  const auto o = be::host_counting_sort(host, bins);
  be::FastLaunch fast = be::fast_launch(space, host.size(), team, bins);
  if (chunks > 0) fast.chunks = std::min(chunks, fast.tiles);
  ASSERT_LE(be::fast_scratch_bytes<Space>(fast, bins), kpz::scratch_size_max<Space>(0));
  kpz::View<float*, Space> staging("staging", host.size());
  be::ExtractLayout xlayout = be::extract_layout<Space>(fast, host.size());
  if (chunks > 0) xlayout.chunks = std::min(chunks, xlayout.tiles);
  kpz::View<int*, Space> chunk_counts("chunk_counts", xlayout.chunks);
  kpz::View<int*, Space> count("count", 1);
  kpz::View<float*, Space> out("out", host.size());
  kpz::poison(staging);
  kpz::poison(chunk_counts);
  // Twice, on the staging and counts the first call left behind.
  for (int call = 1; call <= 2; ++call) {
    const std::string call_what = what + " extract call " + std::to_string(call);
    kpz::poison(out);
    kpz::poison(count);
    be::extract_chunked(space, xlayout, bins, target, in, staging, chunk_counts, out, count);
    space.fence();
    const auto got = kpz::to_host(out);
    const int got_count = kpz::to_host(count)[0];
    const std::size_t first = o.offsets[target], want = o.offsets[target + 1] - first;
    ASSERT_EQ(got_count, static_cast<int>(want)) << call_what;
    for (std::size_t j = 0; j < want; ++j)
      ASSERT_EQ(std::memcmp(&got[j], &host[o.order[first + j]], sizeof(float)), 0) << call_what << " element " << j;
  }

  // Both ways the partition ranks a tile: groups (a warp on CUDA, a member elsewhere) ranking with
  // kpz::team::BallotBinRank, tiles streamed through kpz::team::TileRing, up to 8 bins; the
  // scratch table. Both with the chunks given (chunks > 0), so a team walks many tiles.
  for (const auto how : {be::PartitionRank::ballot, be::PartitionRank::table}) {
    be::PartitionLayout layout = be::partition_layout<Space>(fast, host.size(), bins, how);
    if (chunks > 0) layout.chunks = std::min(chunks, layout.tiles);
    const std::string rank_what = what + (how == be::PartitionRank::ballot ? " (ballot rank)" : " (table rank)");
    kpz::View<int*, Space> chunk_offsets("chunk_offsets", be::partition_chunk_entries(layout, bins));
    kpz::View<int*, Space> bin_offsets("bin_offsets", bins + 1);
    kpz::poison(chunk_offsets);
    // Twice on the same chunk_offsets: pass 1's last team is found by an arrival counter in it,
    // which must start from zero again on the second call.
    for (int call = 1; call <= 2; ++call) {
      const std::string call_what = rank_what + " call " + std::to_string(call);
      kpz::poison(out);
      kpz::poison(bin_offsets);
      be::partition_two_pass(space, layout, bins, in, chunk_offsets, out, bin_offsets);
      space.fence();
      const auto part = kpz::to_host(out);
      const auto offsets = kpz::to_host(bin_offsets);
      for (int b = 0; b <= bins; ++b)
        ASSERT_EQ(offsets[b], static_cast<int>(o.offsets[b])) << call_what << " bin offset " << b;
      for (std::size_t j = 0; j < host.size(); ++j)
        ASSERT_EQ(std::memcmp(&part[j], &host[o.order[j]], sizeof(float)), 0)
            << call_what << " partition element " << j;
    }
  }
}

TEST_P(BinExtract, FastKernelsMatchTheOracle) {
  if (!is_reference()) GTEST_SKIP() << "framework kernels, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const auto teams = kpz::test::team_sizes(GetParam());
    for (int team : teams)
      for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{4097}, std::size_t{100003}})
        for (int pattern : {be::kMixed, be::kOneBin, be::kOutside, be::kDescending, be::kEdges})
          for (auto [bins, target] : {std::pair{8, 3}, {1, 0}, {5, 4}, {17, 0}}) {
            // Large inputs: every pattern with the first, an odd and the last team size, the
            // mixed one with all (keeps the suite quick on a GPU's many sizes and a CPU's threads).
            // Under compute-sanitizer (racecheck took over 45 s for three team sizes): the odd
            // and the largest team, and the large size only with the mixed pattern.
            const bool every_pattern = team == teams.front() || team == 7 || team == teams.back();
            if (n > 4097 && pattern != be::kMixed && !every_pattern) continue;
            if (kpz::test::under_sanitizer() &&
                ((team != 7 && team != teams.back()) || (n > 4097 && pattern != be::kMixed)))
              continue;
            const auto host = be::make_input(n, bins, target, pattern, 1000u + n + team);
            auto in = kpz::to_device(space, "in", host);
            check_fast_kernels<Space>(space, host, in, bins, target, team,
                                      "N=" + std::to_string(n) + " team=" + std::to_string(team) +
                                          " pattern=" + std::to_string(pattern) + " bins=" + std::to_string(bins));
          }
    // Misaligned by one float: the kernels fall back to scalar loads.
    const auto host = be::make_input(20001, 8, 3, be::kMixed, 9);
    auto padded = kpz::to_device(space, "padded", std::vector<float>(host.size() + 1, 0.0f));
    auto in = Kokkos::subview(padded, std::make_pair<std::size_t, std::size_t>(1, host.size() + 1));
    Kokkos::deep_copy(in, kpz::View<const float*, Kokkos::HostSpace>(host.data(), host.size()));
    check_fast_kernels<Space>(space, host, kpz::View<const float*, Space>(in), 8, 3, 0, "misaligned input");
  });
}

TEST_P(BinExtract, LargeFastKernels) {
  if (!is_reference()) GTEST_SKIP() << "framework kernels, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const auto host = be::make_input((1 << 22) + 5, 8, 3, be::kUniform, 77);
    auto in = kpz::to_device(space, "in", host);
    check_fast_kernels<Space>(space, host, in, 8, 3, 0, "large uniform");
  });
}

// Three (or seven) chunks of many tiles each: the extract alternates its two staging buffers and
// the partition carries its per-bin places from tile to tile.
TEST_P(BinExtract, FastKernelsWithManyTilesPerChunk) {
  if (!is_reference()) GTEST_SKIP() << "framework kernels, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    for (int chunks : {3, 7})
      for (int pattern : {be::kMixed, be::kOneBin, be::kEdges}) {
        const auto host = be::make_input(300007, 8, 3, pattern, 500u + chunks + pattern);
        auto in = kpz::to_device(space, "in", host);
        check_fast_kernels<Space>(space, host, in, 8, 3, 0,
                                  std::to_string(chunks) + " chunks, pattern " + std::to_string(pattern), chunks);
      }
  });
}

TEST(BinExtractLibraryBaselines, RegistryIsTypedAndOptional) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework, not an exercise";
  using Fn = int(int);
  struct Local {
    static int twice(int x) { return 2 * x; }
  };
  auto& table = kpz::LibraryBaselines::instance();
  EXPECT_EQ(table.find<Fn>("bin-extract test: not registered"), nullptr);
  table.add<Fn>("bin-extract test: twice", &Local::twice);
  ASSERT_NE(table.find<Fn>("bin-extract test: twice"), nullptr);
  EXPECT_EQ(table.find<Fn>("bin-extract test: twice")(21), 42);
  EXPECT_THROW(table.find<double(double)>("bin-extract test: twice"), std::logic_error);
}

INSTANTIATE_TEST_SUITE_P(Spaces, BinExtract, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

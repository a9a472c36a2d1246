// bin-extract --team-scan (team_scan_extract): the selection of --extract written with Kokkos'
// collectives. Seeded asymmetric inputs against the host oracle, edge cases (one element, empty
// and full bins, bin edges, tiles that do not divide N, a tile of one element), several team sizes
// and vector lengths, the team offsets it leaves behind, the benchmark's speed shape, and the
// shape rules (vector lengths on a GPU, variants without lanes).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"
#include "selection_checks.hpp"

namespace {

namespace be = kpz::bin_extract;

struct ScanCase {
  std::map<std::string, std::int64_t> options;
  int team_size = 0;
  int vector_length = 0;
  std::uint64_t seed = 2026;
};

class TeamScan : public ::testing::TestWithParam<std::string> {
 protected:
  kpz::RunReport run(const ScanCase& c, const std::string& variant = "team-scan") {
    return kpz::test::run_case("bin-extract", GetParam(), {variant, c.options, c.team_size, c.seed, c.vector_length});
  }
  static bool on_gpu() { return GetParam() == "cuda"; }
};

using kpz::test::count_of;
using kpz::test::oracle_count;

TEST_P(TeamScan, EdgeCases) {
  struct C {
    int n, bins, target, tile, pattern;
  };
  for (const C c : {C{1, 8, 3, 0, be::kOneBin},          // one element, selected
                    C{1, 8, 3, 0, be::kOutside},         // one element, not selected
                    C{1000, 8, 3, 64, be::kOutside},     // an empty bin
                    C{1000, 8, 0, 64, be::kOutside},     // negatives clamp into bin 0
                    C{1000, 8, 7, 64, be::kOutside},     // 1.0 and larger into the last bin
                    C{1000, 8, 5, 64, be::kOneBin},      // every element selected
                    C{999, 8, 2, 64, be::kEdges},        // 0.25 = 2/8 is in bin 2
                    C{999, 4, 3, 7, be::kEdges},         // 1.0 in the last bin, an odd tile
                    C{5003, 10, 3, 100, be::kMixed},     // NUM_BINS not a power of two, 51 teams
                    C{5003, 1, 0, 100, be::kMixed},      // one bin: everything
                    C{70, 8, 3, 1, be::kMixed},          // a tile of one element: 70 teams
                    C{64, 8, 3, 64, be::kMixed},         // exactly one tile
                    C{4099, 8, 3, 4096, be::kMixed}}) {  // a second tile of 3 elements
    const std::uint64_t seed = 300u + c.n + c.tile;
    const auto r =
        run({{{"size", c.n}, {"num-bins", c.bins}, {"target-bin", c.target}, {"tile", c.tile}, {"pattern", c.pattern}},
             0,
             0,
             seed});
    KPZ_EXPECT_PASS(r) << " N=" << c.n << " bins=" << c.bins << " target=" << c.target << " tile=" << c.tile
                       << " pattern=" << c.pattern;
    EXPECT_EQ(count_of(r), static_cast<long long>(oracle_count(c.n, c.bins, c.target, c.pattern, seed)));
  }
  EXPECT_EQ(count_of(run({{{"size", 1000}, {"pattern", be::kOutside}, {"tile", 64}}, 0, 0, 5})), 0);
  EXPECT_EQ(count_of(run({{{"size", 1000}, {"pattern", be::kOneBin}, {"tile", 64}}, 0, 0, 5})), 1000);
}

// Teams of every size the backend allows, members of 1 to 32 lanes, tiles of one element to
// whole rows: the result must not depend on the shape. On a GPU a vector length above 1 needs
// teams of one member (Kokkos 5.0.2's team_scan), which the shape refuses otherwise.
TEST_P(TeamScan, EveryTeamSizeAndVectorLength) {
  for (const int team : kpz::test::team_sizes(GetParam()))
    for (const int lanes : {1, 2, 4, 8, 32})
      for (const int tile : {1, 7, 64, 1000}) {
        const int size = std::min(5003, 200 * tile + 3);  // at most about 200 tiles
        const ScanCase c{{{"size", size}, {"tile", tile}, {"pattern", be::kMixed}}, team, lanes, 40u + team + lanes};
        if (on_gpu() && team > 1 && lanes > 1) {
          EXPECT_THROW(run(c), kpz::UsageError) << " team " << team << " lanes " << lanes;
          continue;
        }
        const auto r = run(c);
        KPZ_EXPECT_PASS(r) << " team size " << team << ", vector length " << lanes << ", tile " << tile;
        EXPECT_NE(r.config.dump().find("\"vector_length\":" + std::to_string(lanes)), std::string::npos)
            << r.config.dump();
      }
}

TEST_P(TeamScan, StableOrderAndLargeInputs) {
  // Inside every bin the values decrease along the input: a sorted result would be caught.
  KPZ_EXPECT_PASS(run({{{"size", 3001}, {"tile", 64}, {"pattern", be::kDescending}}, 0, 0, 12}));
  KPZ_EXPECT_PASS(run({{{"size", 3001}, {"tile", 250}, {"pattern", be::kDescending}}, 1, 8, 13}));
  KPZ_EXPECT_PASS(run({{{"size", (1 << 20) + 5}, {"pattern", be::kMixed}}, 0, 0, 4242}));
}

// The kernel called directly, as the benchmark does: the offsets it leaves in team_offsets are
// the exclusive scan of the tiles' counts and the last entry is the total, for the check shape,
// the speed shape and a shape given by hand; twice on the same views (poisoned in between).
// Two sizes per shape: a last tile whose length divides by no load count (one element per
// index), and a last tile shorter than the others whose length divides by both (the loads of
// several elements per index, with a stride of its own).
TEST_P(TeamScan, LeavesTheTeamOffsetsAtTheCheckAndSpeedShapes) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const int bins = 8, target = 3;
    std::vector<kpz::LaunchShape> shapes = {be::team_scan_shape(space, {}, kpz::Purpose::check),
                                            be::team_scan_shape(space, {}, kpz::Purpose::speed),
                                            be::team_scan_shape(space, {1, 4}, kpz::Purpose::check)};
    shapes.back().tile = 333;
    static_assert(800 % be::kCountLoads == 0 && 800 % be::kPlaceLoads == 0);
    for (const kpz::LaunchShape& shape : shapes)
      for (const std::size_t n : {std::size_t{100003}, 3 * static_cast<std::size_t>(shape.tile) + 800}) {
        const auto host = be::make_input(n, bins, target, be::kMixed, 99);
        auto in = kpz::to_device(space, "in", host);
        const std::string what = shape.to_json().dump() + " N = " + std::to_string(n);
        ASSERT_LE(be::team_scan_scratch_bytes<Space>(shape), kpz::scratch_size_max<Space>(0)) << what;
        const int teams = be::teams_for(host.size(), shape.tile);
        std::vector<int> want_offsets(teams + 1, 0);
        std::vector<float> want;
        for (std::size_t i = 0; i < host.size(); ++i)
          if (be::bin_of(host[i], bins) == target) {
            want.push_back(host[i]);
            ++want_offsets[i / shape.tile + 1];
          }
        for (int t = 0; t < teams; ++t) want_offsets[t + 1] += want_offsets[t];
        kpz::View<int*, Space> offsets("team_offsets", teams + 1);
        kpz::View<float*, Space> out("out", host.size());
        for (int call = 1; call <= 2; ++call) {
          kpz::poison(out);
          Kokkos::deep_copy(offsets, 0);
          (kpz::test::impl_under_test() == kpz::Impl::reference
               ? be::reference::team_scan_extract<Space>
               : be::exercise::team_scan_extract<Space>)(space, shape, bins, target, kpz::View<const float*, Space>(in),
                                                         offsets, out);
          space.fence();
          kpz::test::expect_packed_selection(kpz::to_host(offsets), want_offsets, kpz::to_host(out), want,
                                             what + " call " + std::to_string(call));
        }
      }
  });
}

TEST_P(TeamScan, ShapesAndUsageErrors) {
  const auto r = run({{{"size", 100}}, 0, 0});
  for (const char* key : {"\"team_size\":", "\"vector_length\":", "\"tile\":", "\"teams\":"})
    EXPECT_NE(r.config.dump().find(key), std::string::npos) << key << " in " << r.config.dump();
  EXPECT_THROW(run({{{"size", 100}}, 0, 3}), kpz::UsageError);  // not a power of two
  // A team of one member keeps a bit per element: the largest --tile fits level-0 scratch on every
  // backend. Teams that stage the flags keep a word per element more: such a tile is refused.
  using Host = Kokkos::DefaultHostExecutionSpace;
  EXPECT_LE(be::team_scan_scratch_bytes<Host>(kpz::LaunchShape{1, 1, 1 << 16}), std::size_t{8192 + 64});
  EXPECT_GE(be::team_scan_scratch_bytes<Host>(kpz::LaunchShape{2, 1, 1 << 16}), std::size_t{(1 << 16) * 4});
  EXPECT_NO_THROW(run({{{"size", 200000}, {"tile", 1 << 16}}, 1, 0}));
  EXPECT_THROW(run({{{"size", 200000}, {"tile", 1 << 16}}, 2, 0}), kpz::UsageError);
  kpz::with_space(GetParam(), [&](const auto& space) {
    if (kpz::team_size_max(space) < 2) return;  // Serial, one thread: refused for the team size
    // The refusal offers the largest --tile that fits, and that tile runs (one more does not).
    std::string message;
    try {
      run({{{"size", 200000}, {"tile", 1 << 16}}, 2, 0});
    } catch (const kpz::UsageError& e) {
      message = e.what();
    }
    const auto at = message.find("--tile up to ");
    ASSERT_NE(at, std::string::npos) << message;
    const int fits = std::stoi(message.substr(at + 13));
    ASSERT_GT(fits, 0) << message;
    EXPECT_NO_THROW(run({{{"size", 3 * fits + 5}, {"tile", fits}}, 2, 0})) << message;
    EXPECT_THROW(run({{{"size", 200000}, {"tile", fits + 1}}, 2, 0}), kpz::UsageError) << message;
  });
  EXPECT_THROW(run({{{"num-bins", 4}, {"target-bin", 4}}, 0, 0}), kpz::UsageError);
  EXPECT_THROW(run({{{"size", 100}, {"pattern", be::kWithNan}}, 0, 0}), kpz::UsageError);
  EXPECT_THROW(run({{{"size", 100}}, 0, 4}, "extract"), kpz::UsageError);  // no lanes there
  EXPECT_NO_THROW(run({{{"size", 100}}, 0, 1}, "extract"));
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const kpz::LaunchShape speed = be::team_scan_shape(space, {}, kpz::Purpose::speed);
    EXPECT_GE(speed.tile, speed.team_size);
    if (kpz::is_gpu_v<Space>) {
      EXPECT_EQ(speed.vector_length, 1);  // team_scan with lanes races in Kokkos 5.0.2
      EXPECT_EQ(be::team_scan_shape(space, {0, 8}, kpz::Purpose::speed).team_size, 1);
    } else {
      EXPECT_EQ(speed.team_size, 1);  // Kokkos' recommendation on a CPU: one thread per team
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, TeamScan, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

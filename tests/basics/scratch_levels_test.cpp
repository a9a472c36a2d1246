// basics --scratch-levels: the table split at every place (all in level 1, both levels, all in
// level 0) with every team size and several lane counts, tables too big for either level refused
// on the host before the launch, the worked example of docs/puzzles/basics.md and a large case.
// The edge cases are the spec's checks.
#include <tuple>

#include "kpz/errors.hpp"
#include "kpz_test.hpp"

namespace {

class ScratchLevels : public kpz::test::PuzzleTest {
 protected:
  ScratchLevels() : PuzzleTest("basics") {}
};

TEST_P(ScratchLevels, WorkedExample) {
  const auto r = run({"scratch-levels", {}});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.output.dump(), "[3,3,1,1,4]");
  EXPECT_EQ(r.config.find("level0_bins")->dump(), "2");
}

TEST_P(ScratchLevels, EverySplitTeamSizeAndLaneCount) {
  for (const int team : kpz::test::team_sizes(GetParam()))
    for (const int lanes : {1, 4}) {
      if (!kpz::test::shape_fits(GetParam(), team, lanes)) continue;  // CUDA: team x lanes <= 1024
      for (auto [n, bins, tile] : {std::tuple{1, 1, 1}, {999, 37, 64}, {100, 300, 7}, {5000, 2000, 1000}})
        for (const int fast : {0, bins / 3, bins}) {
          const auto r = run({"scratch-levels",
                              {{"size", n}, {"bins", bins}, {"tile", tile}, {"level0-bins", fast}},
                              team,
                              13u * n + bins + team,
                              lanes});
          KPZ_EXPECT_PASS(r) << " N=" << n << " bins=" << bins << " tile=" << tile << " level0-bins=" << fast
                             << " team size " << team << " lanes " << lanes;
          EXPECT_EQ(r.config.find("team_size")->dump(), std::to_string(team));
        }
    }
}

TEST_P(ScratchLevels, TablesTooBigForALevelAreUsageErrors) {
  // 2^16 counters are 256 KiB: no backend's level 0 holds them (CUDA 40936 bytes, host 32 KiB).
  EXPECT_THROW(run({"scratch-levels", {{"bins", 1 << 16}, {"level0-bins", 1 << 16}}}), kpz::UsageError);
  // 2^23 counters are 32 MiB: more than level 1 allows (20 MiB on every backend).
  EXPECT_THROW(run({"scratch-levels", {{"bins", 1 << 23}}}), kpz::UsageError);
  EXPECT_THROW(run({"scratch-levels", {{"bins", 10}, {"level0-bins", 11}}}), kpz::UsageError);
}

TEST_P(ScratchLevels, LargeRandomWithTheDefaultSplit) {
  const auto r =
      run({"scratch-levels", {{"size", (1 << 22) + 3}, {"bins", 1 << 16}, {"tile", 1 << 16}}, 0, 4249, 0, false});
  KPZ_EXPECT_PASS(r);
  EXPECT_NE(r.config.find("level0_bins")->dump(), "0");
  EXPECT_NE(r.config.find("level1_bins")->dump(), "0");
}

INSTANTIATE_TEST_SUITE_P(Spaces, ScratchLevels, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

// basics: the worked examples of docs/puzzles/basics.md, team sizes, usage errors and large cases
// of every step, on every enabled space. The edge cases and random sizes of each step are the
// spec's checks (support/variant_checks_test.cpp runs them with three seeds, and checks that
// seeds change the inputs).
#include "kpz/errors.hpp"
#include "kpz_test.hpp"

namespace {

class Basics : public kpz::test::PuzzleTest {
 protected:
  Basics() : PuzzleTest("basics") {}
};

// The values printed on the page, one per step (out, or the step's values as its notes say).
TEST_P(Basics, WorkedExamples) {
  const std::pair<const char*, const char*> examples[] = {
      {"views", "[1,3,5,7,9,11,13,15]"},
      {"axpy", "[1,3,5,7,9]"},
      {"mdrange", "[0,2,4,6,10,13,16,19,20,24,28,32]"},
      {"reduce", "[6,-9,5]"},
      {"scan", "[0,3,3,5,10,10,10,11,15]"},
      {"histogram", "[2,3,0,7,0,2,3,0,7,0]"},
      {"team", "[3,2,1,0,7,6,5,4,9,8]"},
      {"scratch", "[3,2,1,0,7,6,5,4,9,8]"},
  };
  for (const auto& [variant, out] : examples) {
    const auto r = run({variant, {}});
    KPZ_EXPECT_PASS(r) << " --" << variant;
    EXPECT_EQ(r.output.dump(), out) << " --" << variant;
  }
}

TEST_P(Basics, AxpyLaunchIsPaddedToWholeBlocks) {
  const auto r = run({"axpy", {{"size", 129}}, 0, 5});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.config.find("launched")->dump(), "256");
}

TEST_P(Basics, TeamStepsEveryTeamSize) {
  // At least three teams, tiles that do not divide N, N smaller than a team, one-element tiles.
  for (const char* variant : {"team", "scratch"}) {
    for (const int team : kpz::test::team_sizes(GetParam())) {
      for (auto [n, tile] : {std::pair{1, 4}, {3, 64}, {1000, 64}, {999, 7}, {10, 4}, {50, 1}, {300, 300}}) {
        const auto r = run({variant, {{"size", n}, {"tile", tile}}, team, 17u * n + tile + team});
        KPZ_EXPECT_PASS(r) << " --" << variant << " N=" << n << " tile=" << tile << " team size " << team;
        EXPECT_EQ(r.config.find("team_size")->dump(), std::to_string(team));
      }
    }
  }
}

TEST_P(Basics, BadRequestsAreUsageErrors) {
  // No backend holds 2^16 floats in one team's level-0 scratch.
  EXPECT_THROW(run({"scratch", {{"size", 1 << 16}, {"tile", 1 << 16}}}), kpz::UsageError);
  EXPECT_THROW(run({"mdrange", {{"rows", 1 << 16}, {"cols", 1 << 16}}}), kpz::UsageError);
  // A flat kernel has no team to size; the team steps use one lane per member.
  EXPECT_THROW(run({"axpy", {{"size", 10}}, 2}), kpz::UsageError);
  EXPECT_THROW(run({"team", {{"size", 10}}, 1, 2026, 2}), kpz::UsageError);
}

TEST_P(Basics, LargeRandom) {
  for (const char* variant : {"axpy", "reduce", "scan"}) {
    const auto r = run({variant, {{"size", (1 << 22) + 3}}, 0, 4242, 0, false});
    KPZ_EXPECT_PASS(r) << " --" << variant;
  }
  const auto s = run({"scratch", {{"size", (1 << 22) + 3}, {"tile", 256}}, 0, 4245, 0, false});
  KPZ_EXPECT_PASS(s);
  const auto h = run({"histogram", {{"size", 1 << 22}, {"bins", 1000}}, 0, 4243, 0, false});
  KPZ_EXPECT_PASS(h);
  const auto m = run({"mdrange", {{"rows", 1500}, {"cols", 1501}}, 0, 4244, 0, false});
  KPZ_EXPECT_PASS(m);
}

INSTANTIATE_TEST_SUITE_P(Spaces, Basics, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

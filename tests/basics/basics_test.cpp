// basics: the worked examples of docs/puzzles/basics.md, team sizes, usage errors and large cases
// of every step, on every enabled space. The edge cases and random sizes of each step are the
// spec's checks (support/variant_checks_test.cpp runs them with three seeds, and checks that
// seeds change the inputs).
#include <tuple>

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
      {"dualview", "[1,3,5,7,9,11,13,15]"},
      {"axpy", "[1,3,5,7,9]"},
      {"mdrange", "[0,2,4,6,10,13,16,19,20,24,28,32]"},
      {"subviews", "[6,46,86,30,33,36,39,11,12,13,21,22,23]"},
      {"reduce", "[6,-9,5]"},
      {"custom-reducer", "[8,8,168]"},
      {"scan", "[0,3,3,5,10,10,10,11,15]"},
      {"histogram", "[2,3,0,7,0,2,3,0,7,0]"},
      {"team", "[3,2,1,0,7,6,5,4,9,8]"},
      {"scratch", "[3,2,1,0,7,6,5,4,9,8]"},
      {"vector", "[8,26,44,62,80,0,8,16,78,104,130,264,308,352,558,620,682,960,1040,1120]"},
      {"collectives", "[3,0,18,7,-1,0,1,-1.5,-0.5,0.5,1.5,0]"},
  };
  for (const auto& [variant, out] : examples) {
    const auto r = run({variant, {}});
    KPZ_EXPECT_PASS(r) << " --" << variant;
    EXPECT_EQ(r.output.dump(), out) << " --" << variant;
  }
  // --tools' launch counts are the seed's: the values are the counts the workload made.
  const auto tools = run({"tools", {}});
  KPZ_EXPECT_PASS(tools);
  EXPECT_EQ(tools.output.dump(), tools.expected.dump());
  EXPECT_NE(run({"tools", {}, 0, 2027}).inputs.dump(), tools.inputs.dump());
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

TEST_P(Basics, VectorStepEveryLaneCount) {
  // Every vector length up to a warp (CUDA's limit) with teams of one, three and four members:
  // columns fewer than, not a multiple of and many times the lanes; rows per team fewer than the
  // members; the shape the run reports is the one asked for.
  for (const int lanes : {1, 2, 4, 8, 16, 32}) {
    for (const int team : {1, 3, 4}) {
      if (team > kpz::test::team_sizes(GetParam()).back()) continue;
      for (auto [rows, cols, tile] : {std::tuple{7, 3, 2}, {50, 37, 7}, {20, 300, 3}, {9, 1, 9}}) {
        const auto r =
            run({"vector", {{"rows", rows}, {"cols", cols}, {"tile", tile}}, team, 31u * cols + lanes, lanes});
        KPZ_EXPECT_PASS(r) << " rows=" << rows << " cols=" << cols << " tile=" << tile << " team size " << team
                           << " lanes " << lanes;
        EXPECT_EQ(r.config.find("vector_length")->dump(), std::to_string(lanes));
        EXPECT_EQ(r.config.find("team_size")->dump(), std::to_string(team));
      }
    }
  }
}

TEST_P(Basics, BadRequestsAreUsageErrors) {
  // No backend holds 2^16 floats in one team's level-0 scratch.
  EXPECT_THROW(run({"scratch", {{"size", 1 << 16}, {"tile", 1 << 16}}}), kpz::UsageError);
  EXPECT_THROW(run({"mdrange", {{"rows", 1 << 16}, {"cols", 1 << 16}}}), kpz::UsageError);
  EXPECT_THROW(run({"vector", {{"rows", 1 << 16}, {"cols", 1 << 11}}}), kpz::UsageError);
  EXPECT_THROW(run({"vector", {{"rows", 10}, {"cols", 10}}, 0, 2026, 3}), kpz::UsageError);  // not a power of 2
  // A flat kernel has no team to size; the team steps but --vector use one lane per member.
  EXPECT_THROW(run({"axpy", {{"size", 10}}, 2}), kpz::UsageError);
  EXPECT_THROW(run({"subviews", {{"rows", 10}}, 2}), kpz::UsageError);
  EXPECT_THROW(run({"tools", {{"elements", 10}}, 2}), kpz::UsageError);
  EXPECT_THROW(run({"team", {{"size", 10}}, 1, 2026, 2}), kpz::UsageError);
  EXPECT_THROW(run({"collectives", {{"segments", 4}}, 1, 2026, 2}), kpz::UsageError);
  EXPECT_THROW(run({"collectives", {{"segments", 1 << 20}, {"length", 1 << 16}}}), kpz::UsageError);
}

TEST_P(Basics, LargeRandom) {
  for (const char* variant : {"dualview", "axpy", "reduce", "custom-reducer", "scan"}) {
    const auto r = run({variant, {{"size", (1 << 22) + 3}}, 0, 4242, 0, false});
    KPZ_EXPECT_PASS(r) << " --" << variant;
  }
  const auto s = run({"scratch", {{"size", (1 << 22) + 3}, {"tile", 256}}, 0, 4245, 0, false});
  KPZ_EXPECT_PASS(s);
  const auto h = run({"histogram", {{"size", 1 << 22}, {"bins", 1000}}, 0, 4243, 0, false});
  KPZ_EXPECT_PASS(h);
  const auto m = run({"mdrange", {{"rows", 1500}, {"cols", 1501}}, 0, 4244, 0, false});
  KPZ_EXPECT_PASS(m);
  const auto sub = run({"subviews", {{"rows", 1500}, {"cols", 1501}}, 0, 4248, 0, false});
  KPZ_EXPECT_PASS(sub);
  const auto c = run({"collectives", {{"segments", 3000}, {"length", 700}}, 0, 4247, 0, false});
  KPZ_EXPECT_PASS(c);
  const auto v = run({"vector", {{"rows", 3001}, {"cols", 1499}, {"tile", 13}}, 0, 4246, 0, false});
  KPZ_EXPECT_PASS(v);
}

INSTANTIATE_TEST_SUITE_P(Spaces, Basics, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

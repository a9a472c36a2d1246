// conv1d: the bug hunt's and the vector kernel's team-size and vector-length sweeps, usage errors
// and large cases on every enabled space. The edge cases and the team sweeps are the spec's
// (support/variant_checks_test.cpp), the worked examples' values the page's (cli_docs_examples_test).
#include "kpz/launch_shape.hpp"
#include "kpz_test.hpp"

namespace {

// `--vector` with an explicit shape: the request `kpuzzles run conv1d --vector --team-size T
// --vector-length V` builds.
kpz::RunReport run_vector(const std::string& space, std::map<std::string, std::int64_t> options, int team_size,
                          int vector_length, std::uint64_t seed = 2026) {
  return kpz::test::run_case("conv1d", space, {"vector", std::move(options), team_size, seed, vector_length});
}

class Conv1d : public kpz::test::PuzzleTest {
 protected:
  Conv1d() : PuzzleTest("conv1d") {}
};

TEST_P(Conv1d, ScratchLimitIsAUsageError) {
  // One team cannot hold 2^16 floats in level-0 scratch on any backend.
  EXPECT_THROW(run({"simple", {{"size", 1 << 16}, {"kernel-size", 3}}}), kpz::UsageError);
  EXPECT_THROW(run({"general", {{"size", 1 << 20}, {"kernel-size", 1 << 20}}}), kpz::UsageError);
}

// The bug hunt's reference (the exercise passes here too, by luck: only `kpuzzles trace` tells).
TEST_P(Conv1d, BugHuntWorkedExampleAndTeamSizes) {
  const auto r = run({"bug-missing-barrier", {}});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.output.dump(), "[14,20,26,32,38,44,50,56,62,68,74,80,41,14,0]");
  for (const int team : kpz::test::team_sizes(GetParam())) {
    const auto g = run({"bug-missing-barrier", {{"size", 301}, {"kernel-size", 6}, {"tile", 32}}, team, 3});
    KPZ_EXPECT_PASS(g) << " team size " << team;
  }
}

TEST_P(Conv1d, LargeRandom) {
  const auto r = run({"general", {{"size", (1 << 22) + 1}, {"kernel-size", 16}}, 0, 4242});
  KPZ_EXPECT_PASS(r);
}

TEST_P(Conv1d, VectorEveryTeamSizeAndVectorLength) {
  // At least three teams (tile 256), tiles that are not a multiple of the lanes (100), halos
  // longer than a tile (tile 3, K 13).
  for (const int team : kpz::test::team_sizes(GetParam())) {
    for (const int lanes : kpz::test::vector_lengths(GetParam(), {1, 2, 4, 32}, true)) {
      if (!kpz::test::shape_fits(GetParam(), team, lanes)) continue;
      for (auto [n, k, tile] : {std::tuple{10007, 13, 256}, {3001, 3, 100}, {301, 16, 3}}) {
        const auto r = run_vector(GetParam(), {{"size", n}, {"kernel-size", k}, {"tile", tile}}, team, lanes,
                                  31u * team + lanes + k);
        KPZ_EXPECT_PASS(r) << " team " << team << ", lanes " << lanes << ", N=" << n << " K=" << k << " tile=" << tile;
        EXPECT_EQ(r.config.find("vector_length")->dump(), std::to_string(lanes));
        EXPECT_EQ(r.config.find("team_size")->dump(), std::to_string(team));
      }
    }
  }
}

TEST_P(Conv1d, VectorLargeRandomWithTheFrameworksShape) {
  const auto r = run({"vector", {{"size", (1 << 20) + 3}, {"kernel-size", 16}}, 0, 4243});
  KPZ_EXPECT_PASS(r);
  const auto k3 = run({"vector", {{"size", 50001}, {"kernel-size", 3}}, 0, 4244});
  KPZ_EXPECT_PASS(k3);
}

TEST_P(Conv1d, VectorLengthIsCheckedOnTheHost) {
  EXPECT_THROW(run_vector(GetParam(), {{"size", 100}, {"kernel-size", 3}}, 0, 3), kpz::UsageError);
  // The scalar kernels have one lane per member: a vector length for them is a usage error.
  kpz::RunRequest req;
  EXPECT_THROW(
      {
        const kpz::PuzzleSpec* spec = kpz::Registry::instance().find("conv1d");
        req.variant = kpz::find_variant(*spec, "general");
        req.impl = kpz::test::impl_under_test();
        req.space = GetParam();
        req.vector_length = 2;
        for (const auto& o : kpz::find_variant(*spec, "general")->options) req.params.set(o.name, o.fallback, false);
        spec->run(req);
      },
      kpz::UsageError);
}

INSTANTIATE_TEST_SUITE_P(Spaces, Conv1d, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

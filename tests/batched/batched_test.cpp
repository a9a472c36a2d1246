// batched: the worked example, team-size and vector-length sweeps, usage errors and a large case
// on every enabled space, for the hand-written team kernel and the one composed from Kokkos
// Kernels' team routines. The edge cases are the spec's checks (support/variant_checks_test.cpp).
#include "kpz/launch_shape.hpp"
#include "kpz_test.hpp"

namespace {

using Sizes = std::map<std::string, std::int64_t>;

const char* const kVariants[] = {"hand-written", "library"};

Sizes sizes(std::int64_t batch, std::int64_t rows, std::int64_t cols) {
  return {{"batch", batch}, {"rows", rows}, {"cols", cols}};
}

class Batched : public kpz::test::PuzzleTest {
 protected:
  Batched() : PuzzleTest("batched") {}
};

TEST_P(Batched, WorkedExample) {
  for (const char* variant : kVariants) {
    const auto r = run({variant, {}});
    KPZ_EXPECT_PASS(r) << variant;
    // r of both systems, then rr: the values printed in docs/puzzles/batched.md.
    EXPECT_EQ(r.output.dump(), "[2,-6,-3,-11,40,130]") << variant;
  }
}

TEST_P(Batched, AtLeastThreeTeamsEveryTeamSizeAndVectorLength) {
  for (const char* variant : kVariants) {
    for (const int team : kpz::test::team_sizes(GetParam())) {
      for (const int lanes : kpz::test::vector_lengths(GetParam(), {1, 2, 4, 32}, true)) {
        if (!kpz::test::shape_fits(GetParam(), team, lanes)) continue;
        for (auto [b, m, n] : {std::tuple{5, 13, 29}, {3, 33, 7}, {17, 9, 70}}) {
          const auto r = run({variant, sizes(b, m, n), team, 31u * team + lanes + m, lanes});
          KPZ_EXPECT_PASS(r) << variant << " team " << team << ", lanes " << lanes << ", B=" << b << " M=" << m
                             << " N=" << n;
          EXPECT_EQ(r.config.find("team_size")->dump(), std::to_string(team));
          EXPECT_EQ(r.config.find("vector_length")->dump(), std::to_string(lanes));
        }
      }
    }
  }
}

TEST_P(Batched, TooManyEntriesIsAUsageError) {
  EXPECT_THROW(run({"library", sizes(1 << 20, 4096, 4096)}), kpz::UsageError);
  EXPECT_THROW(run({"hand-written", sizes(1 << 17, 64, 64)}), kpz::UsageError);
}

TEST_P(Batched, LargeRandom) {
  for (const char* variant : kVariants) {
    const auto r = run({variant, sizes(503, 97, 67), 0, 4242, 0, false});
    KPZ_EXPECT_PASS(r) << variant;
  }
}

INSTANTIATE_TEST_SUITE_P(Spaces, Batched, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

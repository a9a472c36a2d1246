// reduce: the worked example, every lane count each variant allows, persistent shares (more
// teams than data), deep recursion, large random inputs, unchanged inputs and the usage errors;
// --team-reduce with several team sizes, vector lengths and tiles (rows of vector length x 16
// values). Every variant's edge sizes, int and float, are the spec's checks, every team size its
// team sweeps (support/variant_checks_test.cpp).
#include <map>
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"
#include "reduce/reduce.hpp"

namespace {

namespace rd = kpz::reduce;

const std::vector<std::string> kVariants = {
    "persistent",    "neighbored",      "neighbored-less", "interleaved", "unroll2", "unroll4",  "unroll8",
    "unroll-warps8", "complete-unroll", "template",        "team-reduce", "builtin", "recursive"};

bool has_lanes(const std::string& v) {
  return v != "persistent" && v != "builtin" && v != "team-reduce";
}
bool warp_variant(const std::string& v) {
  return v == "unroll-warps8" || v == "complete-unroll" || v == "template";
}

class Reduce : public kpz::test::PuzzleTest {
 protected:
  Reduce() : PuzzleTest("reduce") {}
};

// The last value of the output (the total), as printed.
std::string last_value(const kpz::RunReport& r) {
  const std::string all = r.output.dump();  // "[p0,p1,...,total]"
  const std::size_t from = all.find_last_of("[,") + 1;
  return all.substr(from, all.size() - 1 - from);
}

TEST_P(Reduce, WorkedExampleEveryVariant) {
  // docs/puzzles/reduce.md: 1, 2, ..., 1000 with 512 lanes; the one-element tiles give Gauss' 500500.
  for (const auto& v : kVariants) {
    const auto r = run({v, {}});
    KPZ_EXPECT_PASS(r) << v;
    EXPECT_EQ(last_value(r), "500500") << v << ": " << r.output.dump();
  }
  for (const char* v : {"neighbored", "neighbored-less", "interleaved"})
    EXPECT_EQ(run({v, {}}).output.dump(), "[131328,369172,500500]") << v;
  EXPECT_EQ(run({"unroll8", {}}).output.dump(), "[500500,500500]");
  EXPECT_EQ(run({"builtin", {}}).output.dump(), "[500500]");
  EXPECT_EQ(run({"recursive", {}}).notes.back(), "levels (values per launch): 1000 -> 2 -> 1");
}

TEST_P(Reduce, WorkedExampleFloat) {
  for (const auto& v : kVariants) {
    const auto r = run({v, {{"float", 1}}});
    KPZ_EXPECT_PASS(r) << v;
    EXPECT_EQ(last_value(r), "500500") << v;
  }
}

TEST_P(Reduce, EveryLaneCountWithAtLeastThreeTeams) {
  for (const auto& v : kVariants) {
    if (!has_lanes(v)) continue;
    for (int lanes : {1, 2, 4, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
      if (warp_variant(v) && lanes < 64) continue;
      if ((v == "complete-unroll" || v == "template") && lanes > 1024) continue;
      if (v == "recursive" && lanes < 2) continue;
      const int unroll = rd::info(v).unroll;
      const int n = 3 * unroll * lanes + 1;  // one element into a fourth tile
      const auto r = run({v, {{"size", n}, {"lanes", lanes}}, 0, static_cast<std::uint64_t>(lanes)});
      KPZ_EXPECT_PASS(r) << v << " lanes=" << lanes;
      EXPECT_EQ(r.config.find("teams")->dump(), "4") << v << " lanes=" << lanes;
    }
  }
}

TEST_P(Reduce, PersistentSharesIncludingEmptyOnes) {
  for (int teams : {1, 2, 3, 7, 64, 1000})
    for (int n : {1, 2, 3, 4, 5, 17, 64, 1000, 100003}) {
      const auto r = run({"persistent", {{"size", n}, {"teams", teams}}, 0, 11u + n});
      KPZ_EXPECT_PASS(r) << "teams=" << teams << " N=" << n;
      EXPECT_EQ(r.config.find("teams")->dump(), std::to_string(teams));
    }
}

TEST_P(Reduce, PersistentDefaultLeagueFillsTheDevice) {
  const auto r = run({"persistent", {{"size", 1 << 20}}});
  KPZ_EXPECT_PASS(r);
  const int teams = std::stoi(r.config.find("teams")->dump());
  const int team_size = std::stoi(r.config.find("team_size")->dump());
  const int concurrency = kpz::with_space(GetParam(), [](const auto& s) { return s.concurrency(); });
  EXPECT_GE(teams, 1);
  EXPECT_LE(teams * team_size, concurrency);
}

TEST_P(Reduce, RecursiveManyLevels) {
  for (int n : {1, 2, 3, 1000, 4097}) {
    const auto r = run({"recursive", {{"size", n}, {"lanes", 2}}, 0, 3});
    KPZ_EXPECT_PASS(r) << "N=" << n;
  }
  EXPECT_EQ(run({"recursive", {{"size", 9}, {"lanes", 2}}}).notes.back(),
            "levels (values per launch): 9 -> 5 -> 3 -> 2 -> 1");
}

TEST_P(Reduce, SeedsChangeTheInputs) {
  const auto a = run({"builtin", {{"size", 64}}, 0, 1});
  const auto b = run({"builtin", {{"size", 64}}, 0, 2});
  const auto c = run({"builtin", {{"size", 64}}, 0, 1});
  EXPECT_NE(a.inputs.dump(), b.inputs.dump());
  EXPECT_EQ(a.inputs.dump(), c.inputs.dump());
  EXPECT_EQ(a.inputs.dump().find(",0,"), std::string::npos) << "inputs are never 0";
}

TEST_P(Reduce, LargeRandom) {
  for (const char* v :
       {"persistent", "interleaved", "unroll8", "unroll-warps8", "template", "team-reduce", "builtin", "recursive"})
    for (int type : {0, 1}) {
      // 2^20 + 3: many tiles and levels of partial sums, a float sum that rounds (the edge sizes
      // have their own test).
      const auto r = run({v, {{"size", (1 << 20) + 3}, {"float", type}}, 0, 99});
      KPZ_EXPECT_PASS(r) << v << (type ? " float" : " int");
    }
}

// The kernels read the input through View<const T*>; this checks it end to end, for every variant.
TEST_P(Reduce, InputIsNotModified) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    kpz::Rng rng(4);
    std::vector<int> host(3 * 4096 + 9);
    for (auto& x : host) x = static_cast<int>(rng.integer(1, 7));
    const auto in = kpz::to_device(space, "in", host);
    for (const auto& name : kVariants) {
      const auto& v = rd::info(name);
      const rd::Launch launch =
          rd::plan_launch(space, v, host.size(), 512, 1000, 3, kpz::ShapeRequest{}, kpz::Purpose::check);
      const int league = launch.league;
      kpz::View<int*, Space> partial("partial", league), work("work", rd::recursive_work_size(host.size(), 512)),
          result("result", 1);
      kpz::View<unsigned*, Space> done("done", 1);
      rd::run_variant<Space, int>(kpz::test::impl_under_test(), v.variant, space, launch, in, partial, work, result,
                                  done);
      space.fence();
      EXPECT_EQ(kpz::to_host(in), host) << name << " changed its input";
    }
  });
}

TEST_P(Reduce, BadConfigurationsAreUsageErrors) {
  EXPECT_THROW(run({"interleaved", {{"size", 64}, {"lanes", 3}}}), kpz::UsageError);
  EXPECT_THROW(run({"neighbored", {{"size", 64}, {"lanes", 384}}}), kpz::UsageError);
  EXPECT_THROW(run({"unroll-warps8", {{"size", 64}, {"lanes", 32}}}), kpz::UsageError);
  EXPECT_THROW(run({"complete-unroll", {{"size", 64}, {"lanes", 2048}}}), kpz::UsageError);
  EXPECT_THROW(run({"complete-unroll", {{"size", 64}, {"lanes", 32}}}), kpz::UsageError);
  EXPECT_THROW(run({"template", {{"size", 64}, {"lanes", 2048}}}), kpz::UsageError);
  EXPECT_THROW(run({"template", {{"size", 64}, {"lanes", 96}}}), kpz::UsageError);
  EXPECT_THROW(run({"recursive", {{"size", 64}, {"lanes", 1}}}), kpz::UsageError);
  EXPECT_THROW(run({"interleaved", {{"size", 64}}, 4096}), kpz::UsageError);
  try {
    run({"template", {{"size", 64}, {"lanes", 2048}}});
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("64, 128, 256, 512 and 1024"), std::string::npos) << e.what();
  }
}

// ---- --team-reduce: the launch shape, team sizes and vector lengths ------------------------------

kpz::RunReport run_shaped(const std::string& space, std::map<std::string, std::int64_t> options, int team, int vector,
                          std::uint64_t seed) {
  return kpz::test::run_case("reduce", space, {"team-reduce", std::move(options), team, seed, vector});
}

TEST_P(Reduce, TeamReduceTeamSizesAndVectorLengths) {
  // Tiles that are not multiples of the row (vector length x 16), rows cut short by the tile and
  // by N, and at least three teams, for every team size and vector length; every team's partial
  // sum is checked, so a row or a tile read twice or not at all fails.
  for (const int team : kpz::test::team_sizes(GetParam()))
    for (const int vector : kpz::test::vector_lengths(GetParam(), {1, 2, 4, 8, 32, 64}))
      for (const int tile : {1, 48, 300, 1024}) {
        if (!kpz::test::shape_fits(GetParam(), team, vector)) continue;
        for (const int type : {0, 1}) {
          const int n = 3 * tile + 17 + type;
          const auto r = run_shaped(GetParam(), {{"size", n}, {"tile", tile}, {"float", type}}, team, vector, 5u + n);
          KPZ_EXPECT_PASS(r) << "team " << team << " vector " << vector << " tile " << tile
                             << (type ? " float" : " int");
          EXPECT_EQ(kpz::test::config_int(r, "teams"), (n + tile - 1) / tile);
          EXPECT_EQ(kpz::test::config_int(r, "vector_length"), vector);
          EXPECT_EQ(kpz::test::config_int(r, "team_size"), team);
          EXPECT_EQ(kpz::test::config_int(r, "row"), 16 * vector);
        }
      }
}

TEST_P(Reduce, TeamReduceEdgeSizesWithTheFrameworkShape) {
  // The framework's check shape (tile and vector length from launch_shape), N from 1 to several tiles.
  const auto first = run_shaped(GetParam(), {{"size", 1}}, 0, 0, 1);
  KPZ_EXPECT_PASS(first);
  const std::int64_t tile = kpz::test::config_int(first, "tile");
  ASSERT_GT(tile, 0) << first.config.dump();
  EXPECT_GE(kpz::test::config_int(first, "vector_length"), 1);
  for (const std::int64_t n :
       {std::int64_t{2}, std::int64_t{31}, std::int64_t{1000}, tile - 1, tile, tile + 1, 3 * tile + 1})
    for (const int type : {0, 1}) {
      const auto r = run_shaped(GetParam(), {{"size", n}, {"float", type}}, 0, 0, 40u + n);
      KPZ_EXPECT_PASS(r) << "N=" << n << (type ? " float" : " int");
      EXPECT_EQ(kpz::test::config_int(r, "tile"), tile);
      EXPECT_EQ(kpz::test::config_int(r, "teams"), (n + tile - 1) / tile) << "N=" << n;
    }
}

TEST_P(Reduce, TeamReduceLargeRandomSmallTiles) {
  // Many teams of many rows: 2^20 + 3 values in tiles of 4096 (rows of 16 x the vector length).
  for (const int vector : kpz::test::vector_lengths(GetParam(), {1, 2, 4, 8, 32, 64}))
    for (const int type : {0, 1}) {
      const auto r = run_shaped(GetParam(), {{"size", (1 << 20) + 3}, {"tile", 4096}, {"float", type}}, 0, vector, 77);
      KPZ_EXPECT_PASS(r) << "vector " << vector << (type ? " float" : " int");
    }
}

TEST_P(Reduce, ShapeOverridesAreUsageErrors) {
  EXPECT_THROW(run_shaped(GetParam(), {{"size", 64}}, 0, 3, 1), kpz::UsageError);     // not a power of two
  EXPECT_THROW(run_shaped(GetParam(), {{"size", 64}}, 0, 2048, 1), kpz::UsageError);  // above every backend's max
  EXPECT_THROW(run_shaped(GetParam(), {{"size", 64}}, 4096, 1, 1), kpz::UsageError);
  kpz::RunRequest req;  // --vector-length on a ladder rung, which has no vector lanes
  req.variant = kpz::find_variant(*kpz::Registry::instance().find("reduce"), "interleaved");
  req.impl = kpz::test::impl_under_test();
  req.space = GetParam();
  req.vector_length = 2;
  for (const auto& o : kpz::find_variant(*kpz::Registry::instance().find("reduce"), "interleaved")->options)
    req.params.set(o.name, o.fallback, false);
  try {
    kpz::Registry::instance().find("reduce")->run(req);
    ADD_FAILURE() << "--vector-length 2 --interleaved was accepted";
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--vector-length 2 is not allowed for this kernel"), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Spaces, Reduce, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

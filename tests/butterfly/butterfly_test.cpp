// butterfly: the two-team worked example, ties and negatives, vector lanes, and the two
// XorExchange paths against each other for every mask. Every W of every variant is in the spec's
// checks, the team-size sweeps in its team sweeps (support/variant_checks_test.cpp), the worked
// examples' values on the page (cli_docs_examples_test).
#include <algorithm>
#include <functional>

#include "butterfly/butterfly.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

namespace bf = kpz::butterfly;

class Butterfly : public kpz::test::PuzzleTest {
 protected:
  Butterfly() : PuzzleTest("butterfly") {}
};

TEST_P(Butterfly, ConditionalMaxWorkedExampleUsesTwoTeams) {
  const auto r = run({"conditional-max", {}});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.config.find("teams")->dump(), "2");
  std::string want = "[";
  for (int i = 0; i < 64; ++i)
    want += std::string(i ? "," : "") + (i < 32 ? (i % 2 ? "0" : "9") : (i % 2 ? "32" : "63"));
  EXPECT_EQ(r.output.dump(), want + "]");
}

TEST_P(Butterfly, LargeRandom) {
  KPZ_EXPECT_PASS(run({"general", {{"size", (1 << 22) + 32 * 3}, {"group-size", 32}}, 0, 99}));
}

// Runs an exercise/reference kernel on a hand-made input and checks it against a host oracle.
template <class Space>
std::vector<float> run_kernel(
    const Space& space, const std::vector<float>& host, const bf::Launch& launch,
    const std::function<void(const bf::Launch&, kpz::View<const float*, Space>, kpz::View<float*, Space>)>& kernel) {
  auto in = kpz::to_device(space, "in", host);
  kpz::View<float*, Space> out("out", host.size());
  kpz::poison(out);
  kernel(launch, in, out);
  space.fence();
  return kpz::to_host(out);
}

TEST_P(Butterfly, MaxAtFirstAndLastLane) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    for (int w : {2, 8, 32}) {
      std::vector<float> in(static_cast<std::size_t>(3 * w));
      for (int i = 0; i < 3 * w; ++i) in[i] = -static_cast<float>(i % w) - 1.0f;  // max at lane 0
      for (int i = 2 * w; i < 3 * w; ++i) in[i] = static_cast<float>(i % w);      // max at lane W-1
      const bf::Launch launch{std::min(64, kpz::team_size_max(space)), w, w};
      const bool ref = kpz::test::impl_under_test() == kpz::Impl::reference;
      const auto got = run_kernel<Space>(space, in, launch, [&](const auto& l, auto i, auto o) {
        (ref ? bf::reference::all_reduce<Space> : bf::exercise::all_reduce<Space>)(space, l, bf::Op::max, i, o);
      });
      for (int g = 0; g < 3; ++g) {
        const float want = *std::max_element(in.begin() + g * w, in.begin() + (g + 1) * w);
        for (int l = 0; l < w; ++l) EXPECT_EQ(got[g * w + l], want) << "W=" << w << " group " << g << " lane " << l;
      }
    }
  });
}

// The framework primitive: scratch and shuffle paths give in[i ^ mask] for every mask.
template <class Space>
std::vector<float> exchange_once(const Space& space, kpz::View<const float*, Space> in, int tile, int group,
                                 int team_size, int mask, kpz::team::XorPath path) {
  using Exchange = kpz::team::XorExchange<Space, float>;
  const int n = static_cast<int>(in.extent(0));
  kpz::View<float*, Space> out("out", n);
  kpz::poison(out);
  const auto policy = kpz::TeamPolicy<Space>(space, (n + tile - 1) / tile, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Exchange::scratch_bytes(tile)));
  Kokkos::parallel_for(
      policy, KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
        Exchange x(team, tile, group, path);
        const auto v = x.values();
        const int first = team.league_rank() * tile;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile),
                             [&](int i) { v(i) = first + i < n ? in(first + i) : 0.f; });
        x.exchange(team, mask, [](int, float, float partner) { return partner; });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile), [&](int i) {
          if (first + i < n) out(first + i) = v(i);
        });
      });
  space.fence();
  return kpz::to_host(out);
}

// `count` whole numbers from -bound to bound from `seed`, as floats: the exchanges and their
// oracles compare them exactly.
std::vector<float> whole_numbers(std::uint64_t seed, std::size_t count, int bound) {
  kpz::Rng rng(seed);
  std::vector<float> v(count);
  for (auto& x : v) x = static_cast<float>(rng.integer(-bound, bound));
  return v;
}

TEST_P(Butterfly, XorExchangePathsAgreeForEveryMask) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const std::vector<float> host = whole_numbers(8, 32 * 96, 1000);
    auto in = kpz::to_device(space, "in", host);
    int shuffle_runs = 0;
    for (int team : kpz::test::team_sizes(GetParam()))
      for (int w : {2, 4, 8, 16, 32}) {
        const int tile = bf::default_tile<Space>(team, w);
        shuffle_runs += kpz::team::XorExchange<Space, float>::uses_shuffle(team, tile, w);
        for (int mask = 1; mask < w; ++mask) {
          const auto best = exchange_once<Space>(space, in, tile, w, team, mask, kpz::team::XorPath::best);
          const auto scratch = exchange_once<Space>(space, in, tile, w, team, mask, kpz::team::XorPath::scratch);
          for (std::size_t i = 0; i < host.size(); ++i) {
            ASSERT_EQ(scratch[i], host[i ^ mask]) << "scratch path, team " << team << " W " << w << " mask " << mask;
            ASSERT_EQ(best[i], scratch[i]) << "paths differ, team " << team << " W " << w << " mask " << mask;
          }
        }
      }
    if (GetParam() == "cuda") EXPECT_GT(shuffle_runs, 0) << "the shuffle path never ran";
  });
}

TEST_P(Butterfly, ExchangeKernelMatchesOracleOnBothPaths) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const std::vector<float> host = whole_numbers(12, 32 * 700, 50);
    const int team = std::min(256, kpz::team_size_max(space));
    const bf::Launch launch{team, bf::default_tile<Space>(team, 32), 32};
    for (auto path : {kpz::team::XorPath::best, kpz::team::XorPath::scratch}) {
      const auto got = run_kernel<Space>(
          space, host, launch, [&](const auto& l, auto i, auto o) { bf::conditional_exchange(space, l, i, o, path); });
      for (std::size_t g = 0; g < host.size(); g += 32) {
        const float mx = *std::max_element(host.begin() + g, host.begin() + g + 32);
        const float mn = *std::min_element(host.begin() + g, host.begin() + g + 32);
        for (int l = 0; l < 32; ++l) ASSERT_EQ(got[g + l], l % 2 ? mn : mx) << "index " << g + l;
      }
    }
  });
}

// --vector with an explicit shape (no arrays kept: some cases are large).
kpz::RunReport run_vector(const std::string& space, std::map<std::string, std::int64_t> options, int team_size,
                          int vector_length, std::uint64_t seed) {
  return kpz::test::run_case("butterfly", space, {"vector", std::move(options), team_size, seed, vector_length, false});
}

TEST_P(Butterfly, VectorEveryGroupSizeTeamSizeAndVectorLength) {
  const int vmax =
      kpz::with_space(GetParam(), [](const auto& s) { return kpz::vector_length_max<std::decay_t<decltype(s)>>(); });
  for (int w : {2, 4, 8, 16, 32})
    for (int vl : {0, 1, 2, w, 32}) {
      if (vl > vmax) continue;
      const int most = kpz::with_space(GetParam(), [&](const auto& s) { return kpz::team_size_max(s, vl ? vl : w); });
      for (int team : kpz::test::team_sizes(GetParam())) {
        if (team > most) break;
        // 7 groups in tiles of 2 groups: 4 teams, the last one half empty; then the default tile.
        for (int tile : {2 * w, 0}) {
          const auto r = run_vector(GetParam(), {{"size", 7 * w}, {"group-size", w}, {"tile", tile}}, team, vl,
                                    31u * w + vl + team);
          KPZ_EXPECT_PASS(r) << "W=" << w << " vector length " << vl << " team " << team << " tile " << tile;
          if (tile) EXPECT_EQ(kpz::test::config_int(r, "teams"), 4);
          EXPECT_EQ(kpz::test::config_int(r, "team_size"), team);
          EXPECT_EQ(kpz::test::config_int(r, "vector_length"), vl ? vl : w) << "the default vector length is W";
        }
      }
    }
}

TEST_P(Butterfly, VectorEdgeSizesAndDefaults) {
  for (int w : {2, 32}) {
    KPZ_EXPECT_PASS(run_vector(GetParam(), {{"size", w}, {"group-size", w}}, 0, 0, 3)) << "one group, W=" << w;
    KPZ_EXPECT_PASS(run_vector(GetParam(), {{"size", w}, {"group-size", w}}, 1, 1, 4)) << "one group, one lane";
  }
  const auto big = run_vector(GetParam(), {{"size", (1 << 20) + 32 * 3}}, 0, 0, 77);
  KPZ_EXPECT_PASS(big);
  EXPECT_GE(kpz::test::config_int(big, "teams"), 3);
  EXPECT_GT(kpz::test::config_int(big, "tile"), 0) << "the config shows the launch shape";
  EXPECT_THROW(run_vector(GetParam(), {{"size", 64}}, 0, 3, 1), kpz::UsageError);  // not a power of two
  EXPECT_THROW(run_vector(GetParam(), {{"size", 64}, {"group-size", 8}, {"tile", 12}}, 0, 0, 1), kpz::UsageError);
}

// Hand-made groups the random inputs rarely give: all negative, all positive, all equal, the
// extremes on the first and last lanes; a reduction that starts from 0 instead of the reducer's
// identity, or that reads a neighbour group, fails here.
TEST_P(Butterfly, VectorExtremesOnEdgeLanesAndSignedGroups) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const bool ref = kpz::test::impl_under_test() == kpz::Impl::reference;
    for (int w : {2, 8, 32}) {
      std::vector<float> in;
      for (int i = 0; i < w; ++i) in.push_back(-1.0f - static_cast<float>(i));  // all < 0, max at 0
      for (int i = 0; i < w; ++i) in.push_back(1.0f + static_cast<float>(i));   // all > 0, max at W-1
      for (int i = 0; i < w; ++i) in.push_back(-7.5f);                          // all equal
      for (int i = 0; i < w; ++i) in.push_back(i == w - 1 ? -300.0f : (i == 0 ? 300.f : 0.5f));
      // Two groups a team: rows of 4 or 8 groups are cut short at the team's end.
      for (int team : {1, kpz::team_size_max(space, w) < 4 ? 1 : 4})
        for (int vl : {1, w})
          for (int in_flight : {1, 4, 8}) {
            const bf::Launch launch{
                .team_size = team, .tile = 2 * w, .group = w, .vector_length = vl, .in_flight = in_flight};
            const auto got = run_kernel<Space>(space, in, launch, [&](const auto& l, auto i, auto o) {
              (ref ? bf::reference::vector_minmax<Space> : bf::exercise::vector_minmax<Space>)(space, l, i, o);
            });
            for (std::size_t g = 0; g < in.size(); g += w) {
              const float mx = *std::max_element(in.begin() + g, in.begin() + g + w);
              const float mn = *std::min_element(in.begin() + g, in.begin() + g + w);
              for (int l = 0; l < w; ++l)
                ASSERT_EQ(got[g + l], l % 2 ? mn : mx) << "W=" << w << " team " << team << " vl " << vl << " in flight "
                                                       << in_flight << " index " << g + l;
            }
          }
    }
  });
}

// A scratch kernel's lane is a team member: more vector lanes would run each member's body on
// every lane, and the in-place kernels would race between the lanes of one member (same values,
// still a race: compute-sanitizer's racecheck reports it). The run refuses them, one lane passes.
TEST_P(Butterfly, ScratchVariantsRefuseVectorLanes) {
  for (const char* variant : {"general", "parallel-sum", "pair-swap", "bug-in-place"}) {
    const kpz::PuzzleSpec* spec = kpz::Registry::instance().find("butterfly");
    for (int vl : {1, 2, 4}) {
      kpz::RunRequest req;
      req.variant = kpz::find_variant(*spec, variant);
      req.impl = kpz::test::impl_under_test();
      req.space = GetParam();
      req.vector_length = vl;
      req.seed = 9u + vl;
      for (const auto& o : kpz::find_variant(*spec, variant)->options) {
        const bool given = o.name == "size" || o.name == "group-size" || o.name == "tile";
        const std::int64_t v = o.name == "size"         ? 8 * 40
                               : o.name == "group-size" ? 8
                               : o.name == "tile"       ? 32
                                                        : o.fallback;
        req.params.set(o.name, given ? v : o.fallback, given);
      }
      if (vl > 1) {
        EXPECT_THROW(spec->run(req), kpz::UsageError) << variant << " vector length " << vl;
        continue;
      }
      const auto r = spec->run(req);
      KPZ_EXPECT_PASS(r) << variant << " vector length " << vl;
      EXPECT_EQ(kpz::test::config_int(r, "vector_length"), vl);
    }
  }
}

TEST_P(Butterfly, BadConfigurationsAreUsageErrors) {
  EXPECT_THROW(run({"general", {{"size", 64}, {"group-size", 3}}}), kpz::UsageError);
  EXPECT_THROW(run({"general", {{"size", 33}, {"group-size", 32}}}), kpz::UsageError);
  EXPECT_THROW(run({"general", {{"size", 64}, {"group-size", 8}, {"tile", 12}}}), kpz::UsageError);
  EXPECT_THROW(run({"general", {{"size", 64}, {"group-size", 8}, {"tile", 8192}}}), kpz::UsageError);
}

INSTANTIATE_TEST_SUITE_P(Spaces, Butterfly, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

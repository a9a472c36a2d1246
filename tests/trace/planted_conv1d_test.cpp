// The planted bug: `tiled`'s staging and compute without the barrier between them, kept here (the
// answer to two of tiled's TODOs: never in a file an exercise includes). The trace must catch it,
// deterministically, with the view, the elements, both members and the epoch; the same kernel with
// the barrier is clean.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "conv1d/launch.hpp"
#include "kpz/trace/analysis.hpp"
#include "kpz/transfer.hpp"
#include "source_line.hpp"

namespace kpz::conv1d::planted {

// s_a(i) = a(first + i) for every i of s_a (0 from a's end on), s_b(j) = b(j) for every j of s_b.
template <class Space>
KOKKOS_INLINE_FUNCTION void stage_tile(const TeamMember<Space>& team, const View<const float*, Space>& a,
                                       const View<const float*, Space>& b, const TileScratch<Space>& s_a,
                                       const TileScratch<Space>& s_b, int first) {
  const int n = static_cast<int>(a.extent(0));
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(s_a.extent(0))), [&](int i) {
    const int g = first + i;
    s_a(i) = g < n ? a(g) : 0.0f;
  });
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(s_b.extent(0))), [&](int j) { s_b(j) = b(j); });
}

// out(first + i) = sum over the taps j of s_a(i + j) * s_b(j), for this team's outputs.
template <class Space>
KOKKOS_INLINE_FUNCTION void convolve_tile(const TeamMember<Space>& team, const TileScratch<Space>& s_a,
                                          const TileScratch<Space>& s_b, const View<float*, Space>& out, int first) {
  const int taps = static_cast<int>(s_b.extent(0));
  const int tile = static_cast<int>(s_a.extent(0)) - taps + 1;
  const int count = Kokkos::min(tile, static_cast<int>(out.extent(0)) - first);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
    float sum = 0.0f;
    for (int j = 0; j < taps; ++j) sum += s_a(i + j) * s_b(j);
    out(first + i) = sum;
  });
}

template <class Space>
void tiled(const Space& space, const Launch& launch, View<const float*, Space> a, View<const float*, Space> b,
           View<float*, Space> out, bool with_barrier) {
  tiled_launch(
      space, launch, "conv1d::planted", static_cast<int>(a.extent(0)), effective_taps(a.extent(0), b.extent(0)),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const TileScratch<Space>& s_a, const TileScratch<Space>& s_b,
                    int first) {
        stage_tile<Space>(team, a, b, s_a, s_b, first);
        if (with_barrier) team.team_barrier();  // the planted bug: the bug hunt's reference always waits here
        convolve_tile<Space>(team, s_a, s_b, out, first);
      });
}

}  // namespace kpz::conv1d::planted

namespace {

using S = Kokkos::Serial;
using kpz::trace::Distribution;

// The race report names the staging's write and the compute's read in this file.
const std::string kLaunchFile = "planted_conv1d_test.cpp";

int line_of(const char* statement) {
  return kpz::test::line_of(__FILE__, statement);
}

const char* const kWrite = "s_a(i) = g < n ? a(g) : 0.0f;";
const char* const kRead = "sum += s_a(i + j) * s_b(j);";

struct Traced {
  kpz::trace::Recording rec;
  kpz::trace::Analysis analysis;
  std::vector<float> out;
};

Traced run(Distribution d, bool with_barrier, int team_size) {
  std::vector<float> a(15), b(4);
  for (int i = 0; i < 15; ++i) a[i] = static_cast<float>(i);
  for (int j = 0; j < 4; ++j) b[j] = static_cast<float>(j);
  kpz::View<const float*, S> da = kpz::to_device(S{}, "a", a), db = kpz::to_device(S{}, "b", b);
  kpz::View<float*, S> out("out", 15);
  kpz::trace::Session s(d);
  kpz::conv1d::planted::tiled(S{}, kpz::conv1d::Launch{team_size, 8}, da, db, out, with_barrier);
  Traced r{s.take(), {}, kpz::to_host(out)};
  r.analysis = kpz::trace::analyze(r.rec);
  return r;
}

// Prints what `kpuzzles trace` would show for the planted bug (N = 15, K = 4, tiles of 8, four
// members, cyclic), for the record: `kpz_test_trace --gtest_filter=PlantedBug.Show`.
TEST(PlantedBug, Show) {
  const Traced r = run(Distribution::cyclic, false, 4);
  std::cout << kpz::trace::text_diagram(r.rec, r.analysis, {}) << kpz::trace::problems_text(r.rec, r.analysis);
  EXPECT_FALSE(r.analysis.races.empty());
}

TEST(PlantedBug, MissingBarrierInConv1dIsCaught) {
  for (Distribution d : {Distribution::cyclic, Distribution::blockwise}) {
    for (int team : {2, 3, 4, 8}) {
      const Traced r = run(d, false, team);
      ASSERT_FALSE(r.analysis.races.empty()) << "team size " << team;
      const std::string text = kpz::trace::problems_text(r.rec, r.analysis);
      EXPECT_NE(text.find("RACE on scratch s_a["), std::string::npos) << text;
      EXPECT_NE(text.find("in epoch 0"), std::string::npos) << text;
      ASSERT_GT(line_of(kWrite), 0);
      ASSERT_GT(line_of(kRead), 0);
      EXPECT_NE(text.find(kLaunchFile + ":" + std::to_string(line_of(kWrite))), std::string::npos) << text;
      EXPECT_NE(text.find(kLaunchFile + ":" + std::to_string(line_of(kRead))), std::string::npos) << text;
      for (const auto& race : r.analysis.races) {
        EXPECT_EQ(race.first.epoch, 0);
        EXPECT_EQ(race.first.league, race.second.league);
        EXPECT_NE(race.first.rank, race.second.rank);
        EXPECT_TRUE(r.rec.views[race.view].name == "s_a" || r.rec.views[race.view].name == "s_b");
      }
    }
  }
}

TEST(PlantedBug, TheSameKernelWithTheBarrierIsClean) {
  for (Distribution d : {Distribution::cyclic, Distribution::blockwise}) {
    for (int team : {1, 2, 3, 4, 8}) {
      const Traced r = run(d, true, team);
      EXPECT_TRUE(r.analysis.races.empty()) << kpz::trace::problems_text(r.rec, r.analysis);
      EXPECT_TRUE(r.analysis.uninitialized.empty());
      EXPECT_EQ(r.out, (std::vector<float>{14, 20, 26, 32, 38, 44, 50, 56, 62, 68, 74, 80, 41, 14, 0}));
    }
  }
}

// With one member nothing races, whatever the barriers: the bug only shows with a team.
TEST(PlantedBug, OneMemberHidesTheBug) {
  const Traced r = run(Distribution::cyclic, false, 1);
  EXPECT_TRUE(r.analysis.races.empty());
  EXPECT_EQ(r.out[0], 14);
}

}  // namespace

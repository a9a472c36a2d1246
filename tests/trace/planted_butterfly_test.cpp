// The planted bug of butterfly's bug hunt, kept here: the exchange through scratch as CUDA code
// writes it (each lane's running value in `val`, posted in `slot` for its partner) without the
// barrier after the combine, so that the next step's post overwrites a slot that a partner has
// not read yet. The race spans two loops of consecutive steps in one epoch; the trace must catch
// it, with the view, both members, the epoch and both lines. The same kernel with the barrier is
// clean, one member hides the bug, and max hides it from the values where a sum does not.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "kpz/trace/analysis.hpp"
#include "kpz/transfer.hpp"
#include "source_line.hpp"

namespace kpz::butterfly::planted {

template <class Space>
void exchange(const Space& space, const Launch& launch, Op op, View<const float*, Space> in, View<float*, Space> out,
              bool with_barrier) {
  tile_launch(
      space, launch, "butterfly::planted", in.extent(0), scratch_bytes<Space>(launch.tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const int group = launch.group;
        Lanes<Space> val(team.team_scratch(0), tile.size), slot(team.team_scratch(0), tile.size);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                             [&](int i) { val(i) = i < tile.count ? in(tile.first + i) : 0.0f; });
        team.team_barrier();
        for (int mask = group / 2; mask >= 1; mask /= 2) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size), [&](int i) { slot(i) = val(i); });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                               [&](int i) { val(i) = apply(op, val(i), slot(i ^ mask)); });
          if (with_barrier) team.team_barrier();  // the planted bug: the bug hunt's reference always waits here
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) { out(tile.first + i) = val(i); });
      });
}

}  // namespace kpz::butterfly::planted

namespace {

using S = Kokkos::Serial;
using kpz::butterfly::Op;
using kpz::trace::Distribution;

const std::string kFile = "planted_butterfly_test.cpp";

int line_of(const char* statement) {
  return kpz::test::line_of(__FILE__, statement);
}

const char* const kPost = "[&](int i) { slot(i) = val(i); }";
const char* const kCombine = "val(i) = apply(op, val(i), slot(i ^ mask));";

// Three groups of 16 lanes, one team each; lane l of group g holds 100 g + l, so a lane's group
// max is 100 g + 15 and its sum 1600 g + 120.
constexpr int kGroup = 16;
constexpr int kN = 3 * kGroup;

struct Traced {
  kpz::trace::Recording rec;
  kpz::trace::Analysis analysis;
  std::vector<float> out;
};

Traced run(Distribution d, bool with_barrier, int team_size, Op op = Op::max) {
  std::vector<float> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = static_cast<float>(100 * (i / kGroup) + i % kGroup);
  kpz::View<const float*, S> din = kpz::to_device(S{}, "in", in);
  kpz::View<float*, S> out("out", kN);
  kpz::trace::Session s(d);
  kpz::butterfly::planted::exchange(S{}, kpz::butterfly::Launch{team_size, kGroup, kGroup}, op, din, out, with_barrier);
  Traced r{s.take(), {}, kpz::to_host(out)};
  r.analysis = kpz::trace::analyze(r.rec);
  return r;
}

std::vector<float> expected(Op op) {
  std::vector<float> e(kN);
  for (int i = 0; i < kN; ++i)
    e[i] = static_cast<float>(op == Op::max ? 100 * (i / kGroup) + 15 : 1600 * (i / kGroup) + 120);
  return e;
}

TEST(PlantedButterflyBug, MissingBarrierAfterTheCombineIsCaught) {
  for (Distribution d : {Distribution::cyclic, Distribution::blockwise}) {
    for (int team : {2, 3, 4, 8}) {
      const Traced r = run(d, false, team);
      // Cyclic with two members keeps the partners of every step but the last (masks 8, 4, 2) on
      // one member: nothing races there, which is why the race check traces teams of four.
      if (d == Distribution::cyclic && team == 2) {
        EXPECT_TRUE(r.analysis.races.empty()) << kpz::trace::problems_text(r.rec, r.analysis);
        continue;
      }
      ASSERT_FALSE(r.analysis.races.empty()) << "team size " << team;
      const std::string text = kpz::trace::problems_text(r.rec, r.analysis);
      EXPECT_NE(text.find("RACE on scratch slot["), std::string::npos) << text;
      ASSERT_GT(line_of(kPost), 0);
      ASSERT_GT(line_of(kCombine), 0);
      EXPECT_NE(text.find(kFile + ":" + std::to_string(line_of(kPost))), std::string::npos) << text;
      EXPECT_NE(text.find(kFile + ":" + std::to_string(line_of(kCombine))), std::string::npos) << text;
      for (const auto& race : r.analysis.races) {
        EXPECT_EQ(race.first.epoch, race.second.epoch);
        EXPECT_GE(race.first.epoch, 2);  // a combine and the next step's post: never the first step's epoch
        EXPECT_EQ(race.first.league, race.second.league);
        EXPECT_NE(race.first.rank, race.second.rank);
        EXPECT_EQ(r.rec.views[race.view].name, "slot");
      }
      EXPECT_EQ(r.out, expected(Op::max)) << "max forgives the race: the value read is this step's post or the next";
    }
  }
}

TEST(PlantedButterflyBug, TheSameKernelWithTheBarrierIsClean) {
  for (Distribution d : {Distribution::cyclic, Distribution::blockwise}) {
    for (int team : {1, 2, 3, 4, 8}) {
      for (Op op : {Op::max, Op::sum}) {
        const Traced r = run(d, true, team, op);
        EXPECT_TRUE(r.analysis.races.empty()) << kpz::trace::problems_text(r.rec, r.analysis);
        EXPECT_TRUE(r.analysis.uninitialized.empty());
        EXPECT_EQ(r.out, expected(op)) << "team size " << team;
      }
    }
  }
}

// The trace runs members in rank order up to each barrier: a member that posts the next step's
// value before its partner's member has combined this step's makes the partner count its own
// value twice. A sum shows it in the values; a max cannot.
TEST(PlantedButterflyBug, ASumShowsWhatAMaxHides) {
  const Traced r = run(Distribution::cyclic, false, 4, Op::sum);
  EXPECT_FALSE(r.analysis.races.empty());
  EXPECT_NE(r.out, expected(Op::sum));
}

// With one member nothing races, whatever the barriers: the bug only shows with a team.
TEST(PlantedButterflyBug, OneMemberHidesTheBug) {
  for (Op op : {Op::max, Op::sum}) {
    const Traced r = run(Distribution::cyclic, false, 1, op);
    EXPECT_TRUE(r.analysis.races.empty());
    EXPECT_EQ(r.out, expected(op));
  }
}

}  // namespace

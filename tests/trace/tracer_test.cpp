// The tracer's own tests: tiny kernels with a known race and without one, the executor's
// determinism and distributions, and misuse of the team API. The team API subset and the element
// types the trace build models: tracer_model_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tracer_support.hpp"

namespace {

using namespace kpz::test::tracer;

// Reversal through scratch, with or without the barrier between staging and reading.
kpz::trace::Recording reverse(Distribution d, bool barrier, kpz::View<float*, S> out) {
  return record(d, [&] {
    team_kernel(
        1, 4, Scratch::shmem_size(8), KOKKOS_LAMBDA(const Member& team) {
          Scratch s(team.team_scratch(0), 8);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { s(i) = static_cast<float>(i); });
          if (barrier) team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = s(7 - i); });
        });
  });
}

TEST(Tracer, MissingBarrierIsARace) {
  for (Distribution d : kBoth) {
    kpz::View<float*, S> out("out", 8);
    const auto rec = reverse(d, false, out);
    const auto a = kpz::trace::analyze(rec);
    EXPECT_EQ(a.races.size(), 8u) << kpz::trace::problems_text(rec, a);
    ASSERT_FALSE(a.races.empty());
    const auto& r = a.races.front();
    EXPECT_EQ(rec.views[r.view].name, "s");  // named after the variable
    EXPECT_TRUE(rec.views[r.view].scratch);
    EXPECT_EQ(r.first.epoch, 0);
    EXPECT_EQ(r.second.epoch, 0);
    EXPECT_NE(r.first.rank, r.second.rank);
    const std::string text = kpz::trace::problems_text(rec, a);
    EXPECT_NE(text.find("RACE on scratch s["), std::string::npos) << text;
    EXPECT_NE(text.find("tests/trace/tracer_test.cpp:"), std::string::npos) << text;
  }
}

TEST(Tracer, WithTheBarrierItIsRaceFreeAndCorrect) {
  for (Distribution d : kBoth) {
    kpz::View<float*, S> out("out", 8);
    const auto rec = reverse(d, true, out);
    const auto a = kpz::trace::analyze(rec);
    EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
    EXPECT_TRUE(a.uninitialized.empty()) << kpz::trace::problems_text(rec, a);
    EXPECT_EQ(host(out), (std::vector<float>{7, 6, 5, 4, 3, 2, 1, 0}));
    ASSERT_EQ(rec.teams.size(), 1u);
    EXPECT_EQ(rec.teams[0].barriers, 1);
    EXPECT_EQ(rec.teams[0].epochs, 2);
    EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::scratch_writes_per_team)], 8);
    EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::scratch_reads_per_team)], 8);
    EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::global_writes_per_cell)], 1);
  }
}

TEST(Tracer, TheRaceShowsInTheDiagram) {
  kpz::View<float*, S> out("out", 8);
  const auto rec = reverse(Distribution::cyclic, false, out);
  const auto a = kpz::trace::analyze(rec);
  const std::string text = kpz::trace::text_diagram(rec, a, {});
  EXPECT_NE(text.find("scratch s   write  01230123"), std::string::npos) << text;
  EXPECT_NE(text.find("^^^^^^^^  race"), std::string::npos) << text;
  const std::string svg = kpz::trace::svg_diagram(rec, a, "t", {});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("stroke=\"#d62728\""), std::string::npos);
}

// The executor runs members one at a time in a fixed order: nothing depends on the OS.
TEST(Tracer, RunsAreDeterministic) {
  auto events = [] {
    kpz::View<float*, S> out("out", 8);
    const auto rec = reverse(Distribution::cyclic, false, out);
    std::string s;
    for (const auto& e : rec.events)
      s += std::to_string(e.view) + ":" + std::to_string(e.offset) + ":" + std::to_string(e.rank) + ":" +
           std::to_string(e.epoch) + ":" + std::to_string(static_cast<int>(e.kind)) + ";";
    return s + std::to_string(host(out)[0]);
  };
  const std::string first = events();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(events(), first);
}

TEST(Tracer, TeamThreadRangeDistributions) {
  for (Distribution d : kBoth) {
    kpz::View<int*, S> owner("owner", 10);
    record(d, [&] {
      team_kernel(
          1, 4, 0, KOKKOS_LAMBDA(const Member& team) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 10), [&](int i) { owner(i) = team.team_rank(); });
          });
    });
    const Kokkos::View<int*, Kokkos::HostSpace>& o = owner;
    for (int i = 0; i < 10; ++i) EXPECT_EQ(o(i), d == Distribution::cyclic ? i % 4 : i / 3) << i;
  }
}

TEST(Tracer, TwoTeamsWritingOneGlobalElementRace) {
  kpz::View<float*, S> out("out", 1);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        2, 1, 0, KOKKOS_LAMBDA(const Member& team) { out(0) = static_cast<float>(team.league_rank()); });
  });
  const auto a = kpz::trace::analyze(rec);
  ASSERT_EQ(a.races.size(), 1u);
  EXPECT_NE(a.races[0].first.league, a.races[0].second.league);
  EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::global_writes_per_cell)], 2);
}

TEST(Tracer, AtomicsDoNotRaceWithEachOtherButWithPlainAccesses) {
  for (bool plain_read : {false, true}) {
    kpz::View<int*, S> out("out", 1);
    const auto rec = record_scratch_team<int>(
        Distribution::cyclic, 4, 1, KOKKOS_LAMBDA(const Member& team, const kpz::ScratchView<int*, S>& count) {
          Kokkos::single(Kokkos::PerTeam(team), [&] { count(0) = 0; });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int) { Kokkos::atomic_add(&count(0), 1); });
          if (!plain_read) team.team_barrier();
          if (team.team_rank() == 3) out(0) = count(0);
        });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_EQ(a.races.size(), plain_read ? 1u : 0u) << kpz::trace::problems_text(rec, a);
    const Kokkos::View<int*, Kokkos::HostSpace>& o = out;
    if (!plain_read) EXPECT_EQ(o(0), 8);
  }
}

TEST(Tracer, ReadingScratchNobodyWroteIsReported) {
  kpz::View<float*, S> out("out", 4);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        1, 2, Scratch::shmem_size(8), KOKKOS_LAMBDA(const Member& team) {
          Scratch s(team.team_scratch(0), 8);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 4), [&](int i) { s(i) = 1.0f; });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 4), [&](int i) { out(i) = s(i + 4); });  // never written
        });
  });
  const auto a = kpz::trace::analyze(rec);
  EXPECT_TRUE(a.races.empty());
  EXPECT_EQ(a.uninitialized.size(), 4u);
  EXPECT_NE(kpz::trace::problems_text(rec, a).find("UNINITIALIZED scratch read of s[4..7]"), std::string::npos)
      << kpz::trace::problems_text(rec, a);
}

TEST(Tracer, ABarrierNotEveryMemberReachesIsAnError) {
  try {
    record(Distribution::cyclic, [&] {
      team_kernel(
          1, 4, 0, KOKKOS_LAMBDA(const Member& team) {
            if (team.team_rank() < 2) team.team_barrier();
          });
    });
    FAIL() << "no error";
  } catch (const kpz::trace::KernelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("members 0, 1 wait at team_barrier"), std::string::npos) << what;
    EXPECT_NE(what.find("members 2, 3 returned"), std::string::npos) << what;
  }
}

TEST(Tracer, ABarrierInsideTeamThreadRangeIsAnError) {
  EXPECT_THROW(record(Distribution::cyclic,
                      [&] {
                        team_kernel(
                            1, 2, 0, KOKKOS_LAMBDA(const Member& team) {
                              Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 4), [&](int) { team.team_barrier(); });
                            });
                      }),
               kpz::trace::KernelError);
}

TEST(Tracer, ScratchOverflowAndOutOfBoundsAreErrors) {
  EXPECT_THROW(record(Distribution::cyclic,
                      [&] {
                        team_kernel(
                            1, 2, Scratch::shmem_size(4), KOKKOS_LAMBDA(const Member& team) {
                              Scratch s(team.team_scratch(0), 64);
                              s(0) = 1;
                            });
                      }),
               kpz::trace::KernelError);
  kpz::View<float*, S> out("out", 4);
  try {
    record(Distribution::cyclic, [&] {
      team_kernel(
          1, 1, 0, KOKKOS_LAMBDA(const Member&) { out(4) = 1; });
    });
    FAIL() << "no error";
  } catch (const kpz::trace::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("out of bounds: index 4 of dimension 0 of out (extent 4)"), std::string::npos)
        << e.what();
  }
}

TEST(Tracer, RawPointersAreNotTraceable) {
  kpz::View<float*, S> out("out", 4);
  EXPECT_NO_THROW((void)out.data());  // fine on the host
  EXPECT_THROW(record(Distribution::cyclic,
                      [&] {
                        team_kernel(
                            1, 1, 0, KOKKOS_LAMBDA(const Member&) { out.data()[0] = 1; });
                      }),
               kpz::trace::NotTraceable);
}

TEST(Tracer, VectorLanesOfOneMemberRace) {
  kpz::View<float*, S> out("out", 1);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        1, 1, Scratch::shmem_size(1),
        KOKKOS_LAMBDA(const Member& team) {
          Scratch s(team.team_scratch(0), 1);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 4), [&](int i) { s(0) = static_cast<float>(i); });
          Kokkos::single(Kokkos::PerThread(team), [&]() { out(0) = s(0); });
        },
        /*vector=*/4);
  });
  const auto a = kpz::trace::analyze(rec);
  ASSERT_EQ(a.races.size(), 1u) << kpz::trace::problems_text(rec, a);
  EXPECT_EQ(a.races[0].first.rank, a.races[0].second.rank);
  EXPECT_NE(a.races[0].first.lane, a.races[0].second.lane);
  EXPECT_NE(kpz::trace::problems_text(rec, a).find("Two lanes of one member touch the element in the same vector loop"),
            std::string::npos)
      << kpz::trace::problems_text(rec, a);
}

// A member's code outside its vector loops runs on every one of its lanes (on a GPU, every thread
// of the member): with more than one lane a plain write there races between them, even when every
// lane writes the same value, unless Kokkos::single(PerThread) or single(PerTeam) gives it to one
// lane. Reads, and any write with one lane, are not races.
TEST(Tracer, MemberCodeWritesOnEveryVectorLane) {
  enum class Guard { none, per_thread, per_team };
  for (Distribution d : kBoth) {
    for (const Guard guard : {Guard::none, Guard::per_thread, Guard::per_team}) {
      for (const int vector : {1, 4}) {
        kpz::View<float*, S> in("in", 2);
        kpz::View<float*, S> out("out", 2);
        const auto rec = record(d, [&] {
          team_kernel(
              1, 2, 0,
              KOKKOS_LAMBDA(const Member& team) {
                const int r = team.team_rank();
                const float x = in(r) + 1.0f;  // every lane reads: fine
                if (guard == Guard::none) out(r) = x;
                if (guard == Guard::per_thread) Kokkos::single(Kokkos::PerThread(team), [&]() { out(r) = x; });
                if (guard == Guard::per_team) Kokkos::single(Kokkos::PerTeam(team), [&]() { out(0) = out(1) = 2.0f; });
              },
              vector);
        });
        const auto a = kpz::trace::analyze(rec);
        const bool race = guard == Guard::none && vector > 1;
        ASSERT_EQ(a.races.size(), race ? 2u : 0u) << kpz::trace::problems_text(rec, a);
        for (const auto& r : a.races) {
          EXPECT_EQ(r.first.rank, r.second.rank);
          EXPECT_NE(r.first.lane, r.second.lane);
          EXPECT_TRUE(r.first.every_lane && r.second.every_lane);
        }
        if (race)
          EXPECT_NE(kpz::trace::problems_text(rec, a).find("Every vector lane of this member makes the write"),
                    std::string::npos)
              << kpz::trace::problems_text(rec, a);
      }
    }
  }
}

// A ThreadVectorRange scan runs as Kokkos' CUDA backend runs it: the lane of index i + 1 first
// makes index i's non-final call. A scan that writes in every call races between those lanes
// under the cyclic distribution (writing only when `final` does not); reading, in the scan, what
// a lane wrote in an earlier vector loop does not race (a vector loop's end syncs the lanes).
TEST(Tracer, VectorScanNonFinalCallsRunOnTheNextLane) {
  for (Distribution d : kBoth) {
    for (const bool only_final : {false, true}) {
      kpz::View<int*, S> out("out", 8);
      kpz::View<int*, S> scratch_like("flags", 8);
      const auto rec = record(d, [&] {
        team_kernel(
            1, 1, 0,
            KOKKOS_LAMBDA(const Member& team) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 8), [&](int j) { scratch_like(j) = j % 3; });
              Kokkos::parallel_scan(Kokkos::ThreadVectorRange(team, 8), [&](int j, int& before, const bool final) {
                if (final || !only_final) out(j) = before;
                before += scratch_like(j);
              });
            },
            4);
      });
      const auto a = kpz::trace::analyze(rec);
      const bool race = d == Distribution::cyclic && !only_final;
      EXPECT_EQ(!a.races.empty(), race) << (only_final ? "final only, " : "every call, ")
                                        << kpz::trace::problems_text(rec, a);
      for (const auto& r : a.races) EXPECT_NE(r.first.lane, r.second.lane);
    }
  }
}

}  // namespace

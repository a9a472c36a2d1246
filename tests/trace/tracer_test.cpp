// The tracer's own tests: tiny kernels with a known race and without one, the executor's
// determinism, misuse of the team API, and the Kokkos team API subset the trace build models.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kpz/trace/analysis.hpp"
#include "kpz/types.hpp"

namespace {

using S = Kokkos::Serial;
using kpz::trace::Distribution;
using Scratch = kpz::ScratchView<float*, S>;
using Member = kpz::TeamMember<S>;

constexpr Distribution kBoth[] = {Distribution::cyclic, Distribution::blockwise};

template <class F>
kpz::trace::Recording record(Distribution d, const F& f) {
  kpz::trace::Session s(d);
  f();
  return s.take();
}

template <class F>
void team_kernel(int league, int team_size, std::size_t scratch_bytes, const F& f, int vector = 1) {
  Kokkos::parallel_for(
      "test", kpz::TeamPolicy<S>(S{}, league, team_size, vector).set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
      f);
}

std::vector<float> host(const kpz::View<float*, S>& v) {
  std::vector<float> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<const Kokkos::View<float*, Kokkos::HostSpace>&>(v)(i);
  return out;
}

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
    const auto rec = record(Distribution::cyclic, [&] {
      team_kernel(
          1, 4, kpz::ScratchView<int*, S>::shmem_size(1), KOKKOS_LAMBDA(const Member& team) {
            kpz::ScratchView<int*, S> count(team.team_scratch(0), 1);
            Kokkos::single(Kokkos::PerTeam(team), [&] { count(0) = 0; });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int) { Kokkos::atomic_add(&count(0), 1); });
            if (!plain_read) team.team_barrier();
            if (team.team_rank() == 3) out(0) = count(0);
          });
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

// The collectives give the values Kokkos gives, under both distributions, and end an epoch.
TEST(Tracer, CollectivesComputeWhatKokkosComputes) {
  for (Distribution d : kBoth) {
    kpz::View<int*, S> out("out", 16);
    kpz::View<int*, S> scan("scan", 10);
    const auto rec = record(d, [&] {
      team_kernel(
          1, 4, 0, KOKKOS_LAMBDA(const Member& team) {
            int sum = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, 10), [&](int i, int& acc) { acc += i; }, sum);
            int mx = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, 10), [&](int i, int& m) { m = i > m ? i : m; }, Kokkos::Max<int>(mx));
            int total = 0;
            Kokkos::parallel_scan(
                Kokkos::TeamThreadRange(team, 10),
                [&](int i, int& partial, bool final) {
                  if (final) scan(i) = partial;  // exclusive
                  partial += i;
                },
                total);
            const int prefix = team.team_scan(team.team_rank() + 1);
            int r = team.team_rank() * 10;
            team.team_reduce(Kokkos::Sum<int>(r));
            int b = team.team_rank() == 2 ? 42 : 0;
            team.team_broadcast(b, 2);
            int single = 0;
            Kokkos::single(
                Kokkos::PerTeam(team), [&](int& v) { v = 7; }, single);
            const int base = team.team_rank() * 4;
            out(base + 0) = sum + mx;
            out(base + 1) = total;
            out(base + 2) = prefix + r;
            out(base + 3) = b + single;
          });
    });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
    const Kokkos::View<int*, Kokkos::HostSpace>& o = out;
    const Kokkos::View<int*, Kokkos::HostSpace>& sc = scan;
    for (int rank = 0; rank < 4; ++rank) {
      EXPECT_EQ(o(rank * 4 + 0), 45 + 9);
      EXPECT_EQ(o(rank * 4 + 1), 45);
      EXPECT_EQ(o(rank * 4 + 2), rank * (rank + 1) / 2 + 60);
      EXPECT_EQ(o(rank * 4 + 3), 42 + 7);
    }
    for (int i = 0; i < 10; ++i) EXPECT_EQ(sc(i), i * (i - 1) / 2) << i;
    EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::barriers_per_team)], 0);
    EXPECT_GE(a.metrics[static_cast<int>(kpz::trace::Metric::collectives_per_team)], 7);
  }
}

// A nested scan's final pass writes after the scan's own synchronisation: reading what another
// member wrote there needs a barrier of its own... except that the scan ends with a broadcast,
// as in Kokkos on every backend, so the read after the scan is ordered.
TEST(Tracer, ReadingAScanResultAfterTheScanIsOrdered) {
  for (Distribution d : kBoth) {
    kpz::View<int*, S> out("out", 8);
    const auto rec = record(d, [&] {
      team_kernel(
          1, 4, kpz::ScratchView<int*, S>::shmem_size(8), KOKKOS_LAMBDA(const Member& team) {
            kpz::ScratchView<int*, S> s(team.team_scratch(0), 8);
            Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, 8), [&](int i, int& partial, bool final) {
              if (final) s(i) = partial;
              partial += 1;
            });
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = s(7 - i); });
          });
    });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
    const Kokkos::View<int*, Kokkos::HostSpace>& o = out;
    for (int i = 0; i < 8; ++i) EXPECT_EQ(o(i), 7 - i);
  }
}

TEST(Tracer, VectorLanesOfOneMemberRace) {
  kpz::View<float*, S> out("out", 1);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        1, 1, Scratch::shmem_size(1),
        KOKKOS_LAMBDA(const Member& team) {
          Scratch s(team.team_scratch(0), 1);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 4), [&](int i) { s(0) = static_cast<float>(i); });
          out(0) = s(0);
        },
        /*vector=*/4);
  });
  const auto a = kpz::trace::analyze(rec);
  ASSERT_EQ(a.races.size(), 1u) << kpz::trace::problems_text(rec, a);
  EXPECT_EQ(a.races[0].first.rank, a.races[0].second.rank);
  EXPECT_NE(a.races[0].first.lane, a.races[0].second.lane);
}

TEST(Tracer, CompoundAssignmentReadsAndWrites) {
  kpz::View<float*, S> out("out", 2);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        1, 1, 0, KOKKOS_LAMBDA(const Member&) {
          out(0) = 1;
          out(0) += 2;
          out(1) = out(0)++;
          const float x = out(1);
          out(1) = x * 2;
        });
  });
  const auto a = kpz::trace::analyze(rec);
  EXPECT_EQ(host(out), (std::vector<float>{4, 6}));
  EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::global_reads)], 3);
  EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::global_writes_per_cell)], 3);
}

template <class T>
struct P {
  T value;
  int flag;
};
using Pair = P<float>;
union EndOrTotal {
  int end;
  float total;
};
template <class T>
P<T> add(const P<T>& a, const P<T>& b) {  // deduces T from a class-type element, as `combine` does
  return P<T>{a.value + b.value, a.flag | b.flag};
}

TEST(Tracer, ElementsOfClassTypeReadWriteAndDeduce) {
  for (Distribution d : kBoth) {
    for (bool barrier : {true, false}) {
      kpz::View<float*, S> out("out", 8);
      const auto rec = record(d, [&] {
        team_kernel(
            1, 4, kpz::ScratchView<Pair*, S>::shmem_size(8), KOKKOS_LAMBDA(const Member& team) {
              kpz::ScratchView<Pair*, S> p(team.team_scratch(0), 8);
              Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) {
                p(i) = Pair{static_cast<float>(i), 0};  // a whole element: a write
                p(i).flag = 1 + i % 2;                  // through a member: a write (the value changes)
              });
              if (barrier) team.team_barrier();
              Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) {
                const Pair q = add(p(i), p(7 - i));  // reads, through a template
                out(i) = q.value + static_cast<float>(p(i).flag);
              });
            });
      });
      const auto a = kpz::trace::analyze(rec);
      if (barrier) {
        EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
        EXPECT_TRUE(a.uninitialized.empty()) << kpz::trace::problems_text(rec, a);
        for (int i = 0; i < 8; ++i) EXPECT_EQ(host(out)[i], 8.0f + static_cast<float>(i % 2)) << i;
        EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::scratch_writes_per_team)], 16);
        EXPECT_EQ(a.metrics[static_cast<int>(kpz::trace::Metric::scratch_reads_per_team)], 24);
      } else {
        EXPECT_FALSE(a.races.empty());
      }
    }
  }
}

TEST(Tracer, UnionElements) {
  for (bool barrier : {true, false}) {
    kpz::View<int*, S> out("out", 8);
    const auto rec = record(Distribution::cyclic, [&] {
      team_kernel(
          1, 4, kpz::ScratchView<EndOrTotal*, S>::shmem_size(8), KOKKOS_LAMBDA(const Member& team) {
            kpz::ScratchView<EndOrTotal*, S> u(team.team_scratch(0), 8);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { u(i).end = 10 * i; });
            if (barrier) team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = u(7 - i).end; });
          });
    });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_EQ(a.races.empty(), barrier) << kpz::trace::problems_text(rec, a);
    if (barrier) {
      const Kokkos::View<int*, Kokkos::HostSpace>& o = out;
      for (int i = 0; i < 8; ++i) EXPECT_EQ(o(i), 10 * (7 - i));
    }
  }
}

TEST(Tracer, ElementsAsCountsIndicesAndMathArguments) {
  kpz::View<float*, S> out("out", 4);
  const auto rec = record(Distribution::cyclic, [&] {
    team_kernel(
        1, 2, kpz::ScratchView<int*, S>::shmem_size(2) + Scratch::shmem_size(4), KOKKOS_LAMBDA(const Member& team) {
          kpz::ScratchView<int*, S> count(team.team_scratch(0), 2);
          Scratch s(team.team_scratch(0), 4);
          Kokkos::single(Kokkos::PerTeam(team), [&] {
            count(0) = 4;
            count(1) = 3;
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 4), [&](int i) { s(i) = static_cast<float>(i) - 1.5f; });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count(0)),
                               [&](int i) { out(i) = Kokkos::max(0.0f, s(i)) + Kokkos::fabs(s(count(1) - i)); });
        });
  });
  const auto a = kpz::trace::analyze(rec);
  EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
  EXPECT_EQ(host(out), (std::vector<float>{1.5f, 0.5f, 1.0f, 3.0f}));
}

}  // namespace

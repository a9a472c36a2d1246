// The tracer's own tests of the Kokkos team API subset the trace build models (collectives,
// nested scans, vector lanes) and of the elements it records (compound assignment, class and union
// elements, elements as counts and indices). Races and misuse: tracer_test.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "tracer_support.hpp"

namespace {

using namespace kpz::test::tracer;

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
    const auto rec = record_scratch_team<int>(
        d, 4, 8, KOKKOS_LAMBDA(const Member& team, const kpz::ScratchView<int*, S>& s) {
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, 8), [&](int i, int& partial, bool final) {
            if (final) s(i) = partial;
            partial += 1;
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = s(7 - i); });
        });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
    const Kokkos::View<int*, Kokkos::HostSpace>& o = out;
    for (int i = 0; i < 8; ++i) EXPECT_EQ(o(i), 7 - i);
  }
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
      const auto rec = record_scratch_team<Pair>(
          d, 4, 8, KOKKOS_LAMBDA(const Member& team, const kpz::ScratchView<Pair*, S>& p) {
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
    const auto rec = record_scratch_team<EndOrTotal>(
        Distribution::cyclic, 4, 8, KOKKOS_LAMBDA(const Member& team, const kpz::ScratchView<EndOrTotal*, S>& u) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { u(i).end = 10 * i; });
          if (barrier) team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = u(7 - i).end; });
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

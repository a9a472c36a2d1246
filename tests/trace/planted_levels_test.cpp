// Planted scratch requests at both levels: the launch learners write for basics --scratch-levels,
// kept here with the two requests as parameters (the answer to their TODO: never in a file an
// exercise includes). Level 1 is checked as level 0 is (planted_scratch_test.cpp): the sum of the
// shmem_size of the views carved from it, in carving order, against the level-1 request. Host
// backends hand out both levels from one buffer of the two requests' sum, so a level-1 view that
// the level-0 request pays for runs there; on a GPU level 1 is another pool, and the view would
// get a null pointer. The trace keeps the levels apart and stops it.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kpz/trace/analysis.hpp"
#include "kpz/transfer.hpp"
#include "kpz/types.hpp"
#include "source_line.hpp"

namespace kpz::planted_levels {

// basics --scratch-levels: each team's table of counters, bins [0, fast_bins) in level 0 and the
// rest in level 1, counted from its tile of values and added to bins.
template <class Space>
void histogram(const Space& space, int team_size, int tile, int fast_bins, View<const int*, Space> values,
               View<int*, Space> bins, std::size_t request0, std::size_t request1) {
  using Table = ScratchView<int*, Space>;
  const int n = static_cast<int>(values.extent(0));
  const int slow_bins = static_cast<int>(bins.extent(0)) - fast_bins;
  const auto policy = TeamPolicy<Space>(space, (n + tile - 1) / tile, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(request0))
                          .set_scratch_size(1, Kokkos::PerTeam(request1));
  Kokkos::parallel_for(
      "basics::planted_levels", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;
        const int count = Kokkos::min(tile, n - first);
        Table fast(team.team_scratch(0), fast_bins);
        Table slow(team.team_scratch(1), slow_bins);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, fast_bins), [&](int b) { fast(b) = 0; });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slow_bins), [&](int b) { slow(b) = 0; });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
          const int b = values(first + i);
          if (b < fast_bins)
            Kokkos::atomic_add(&fast(b), 1);
          else
            Kokkos::atomic_add(&slow(b - fast_bins), 1);
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, fast_bins),
                             [&](int b) { Kokkos::atomic_add(&bins(b), fast(b)); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slow_bins),
                             [&](int b) { Kokkos::atomic_add(&bins(fast_bins + b), slow(b)); });
      });
}

}  // namespace kpz::planted_levels

namespace {

using S = Kokkos::Serial;
using kpz::trace::Distribution;
using Table = kpz::ScratchView<int*, S>;

constexpr Distribution kBoth[] = {Distribution::cyclic, Distribution::blockwise};
constexpr int kTile = 5;
const std::string kFile = "planted_levels_test.cpp";
const char* const kFastView = "Table fast(team.team_scratch(0), fast_bins);";
const char* const kSlowView = "Table slow(team.team_scratch(1), slow_bins);";

int line_of(const char* statement) {
  return kpz::test::line_of(__FILE__, statement);
}

struct Outcome {
  std::optional<std::string> error;
  std::vector<int> bins;
};

std::vector<int> input(int n, int bins) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = (i * 7 + i / 3) % bins;
  return v;
}

Outcome traced(Distribution d, int n, int bins, int fast_bins, int team_size, std::size_t request0,
               std::size_t request1) {
  Outcome o;
  kpz::trace::Session s(d);
  try {
    auto values = kpz::to_device(S{}, "values", input(n, bins));
    kpz::View<int*, S> out("bins", bins);
    kpz::planted_levels::histogram<S>(S{}, team_size, kTile, fast_bins, values, out, request0, request1);
    o.bins = kpz::to_host(out);
  } catch (const kpz::trace::KernelError& e) {
    o.error = e.what();
  }
  return o;
}

std::vector<int> expected(int n, int bins) {
  std::vector<int> counts(static_cast<std::size_t>(bins), 0);
  for (int v : input(n, bins)) ++counts[static_cast<std::size_t>(v)];
  return counts;
}

// "scratch level L: the scratch views need N bytes per team (...), the launch requested M", the
// first view that does not fit named by its line.
void expect_too_small(const Outcome& o, int level, std::size_t need, std::size_t requested, const char* first_short) {
  ASSERT_TRUE(o.error.has_value()) << "the level-" << level << " request of " << requested << " bytes passed";
  const std::string& e = *o.error;
  EXPECT_EQ(e.rfind("scratch level " + std::to_string(level) + ": the scratch views need " + std::to_string(need) +
                        " bytes per team",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("the launch requested " + std::to_string(requested) + ":"), std::string::npos) << e;
  ASSERT_GT(line_of(first_short), 0);
  EXPECT_NE(e.find(kFile + ":" + std::to_string(line_of(first_short))), std::string::npos) << e;
}

TEST(PlantedLevels, ExactRequestsAtBothLevelsAreClean) {
  for (Distribution d : kBoth)
    for (const auto& [n, bins, fast] : {std::tuple{23, 9, 4}, {23, 9, 0}, {23, 9, 9}, {40, 17, 5}})
      for (int team : {1, 3, 4}) {
        const Outcome o = traced(d, n, bins, fast, team, Table::shmem_size(fast), Table::shmem_size(bins - fast));
        ASSERT_FALSE(o.error) << *o.error;
        EXPECT_EQ(o.bins, expected(n, bins));
      }
}

// A level-1 request one byte, one counter, or all of it short, for sizes that keep the view
// aligned and sizes that do not: every one stops the run at level 1, naming the level-1 view.
TEST(PlantedLevels, ShortLevelOneRequestFails) {
  for (Distribution d : kBoth)
    for (int slow : {8, 13}) {
      SCOPED_TRACE("slow bins " + std::to_string(slow));
      const int fast = 4, bins = fast + slow;
      const std::size_t need0 = Table::shmem_size(fast), need1 = Table::shmem_size(slow);
      for (const std::size_t request1 : {need1 - 1, Table::shmem_size(slow - 1), sizeof(int) * slow, std::size_t{0}})
        expect_too_small(traced(d, 23, bins, fast, 4, need0, request1), 1, need1, request1, kSlowView);
    }
}

// The host backends' luck: all the bytes asked at level 0, none at level 1. On OpenMP both levels
// are one buffer of the sum, so the level-1 view fits there; the trace fails it at level 1.
TEST(PlantedLevels, LevelOneBytesAskedAtLevelZeroFail) {
  const int fast = 4, slow = 8;
  const std::size_t need1 = Table::shmem_size(slow);
  for (Distribution d : kBoth)
    expect_too_small(traced(d, 23, fast + slow, fast, 4, Table::shmem_size(fast) + need1, 0), 1, need1, 0, kSlowView);
}

TEST(PlantedLevels, ShortLevelZeroRequestFails) {
  for (Distribution d : kBoth)
    for (int fast : {4, 5}) {
      SCOPED_TRACE("fast bins " + std::to_string(fast));
      const int slow = 6;
      const std::size_t need0 = Table::shmem_size(fast), need1 = Table::shmem_size(slow);
      for (const std::size_t request0 : {need0 - 1, sizeof(int) * fast, std::size_t{0}})
        expect_too_small(traced(d, 23, fast + slow, fast, 4, request0, need1), 0, need0, request0, kFastView);
    }
}

}  // namespace

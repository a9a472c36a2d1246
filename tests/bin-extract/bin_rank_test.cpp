// kpz::team::BinRank (framework/include/kpz/team/bin_rank.hpp): both paths (warp shuffles on
// CUDA, one member per group everywhere) give every element its place in the stably bin-ordered
// tile, and the tile's bin starts and counts, for every team size, 1 to 8 bins, partial tiles
// and two tiles in a row (the two scratch buffers).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/team/bin_rank.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

constexpr int kItems = 16;

// Ranks tiles of kItems x team_size bins (the first n valid): place(i) for element i (-1 past n),
// and per tile and bin its start and count (written by member 0). Each team ranks two tiles, with
// halves 0 and 1, so both buffers are used.
template <class Space>
void rank_on_device(const Space& space, const std::vector<int>& bins, int n, int team_size, kpz::team::BinRankPath path,
                    std::vector<int>& place, std::vector<int>& starts, std::vector<int>& counts) {
  using Rank = kpz::team::BinRank<Space>;
  constexpr int B = Rank::max_bins;
  const int tile = kItems * team_size, tiles = static_cast<int>((bins.size() + tile - 1) / tile);
  const int teams = (tiles + 1) / 2;
  auto d_bins = kpz::to_device(space, "bins", bins);
  kpz::View<int*, Space> d_place("place", bins.size()), d_starts("starts", tiles * B), d_counts("counts", tiles * B);
  kpz::poison(d_place);
  kpz::poison(d_starts);
  kpz::poison(d_counts);
  const long total = static_cast<long>(bins.size());
  const auto policy = kpz::TeamPolicy<Space>(space, teams, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Rank::scratch_bytes(team_size, path)));
  Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    const Rank ranker(team, path);
    for (int h = 0; h < 2; ++h) {
      const long t = 2L * team.league_rank() + h;
      const long first = t * tile + static_cast<long>(team.team_rank()) * kItems;
      int b[kItems];
      for (int k = 0; k < kItems; ++k) b[k] = first + k < total ? d_bins(first + k) : 0;
      const long left = n - first;
      const int valid = left < 0 ? 0 : left < kItems ? static_cast<int>(left) : kItems;
      // Every member calls the collective, also for a tile past the end (with nothing valid).
      auto r = ranker.template rank<kItems>(team, [&](int k) { return b[k]; }, valid, h);
      if (t * tile >= total) continue;
      for (int k = 0; k < kItems; ++k)
        if (first + k < total) d_place(first + k) = k < valid ? r.take(b[k]) : -1;
      if (team.team_rank() == 0)
        for (int j = 0; j < B; ++j) {
          d_starts(t * B + j) = r.bin_start(j);
          d_counts(t * B + j) = r.bin_count(j);
        }
    }
  });
  space.fence();
  place = kpz::to_host(d_place);
  starts = kpz::to_host(d_starts);
  counts = kpz::to_host(d_counts);
}

class BinRankTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BinRankTest, BothPathsGiveTheStableCountingSortOfEachTile) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    constexpr int B = kpz::team::BinRank<Space>::max_bins;
    for (const int team : kpz::test::team_sizes(GetParam()))
      for (const int num_bins : {1, 3, 8})
        for (const int extra : {0, 1, 37}) {
          const int tile = kItems * team;
          const int size = 3 * tile + extra;  // 3 or 4 tiles: the last one partial or absent
          const int n = size - (extra > 0 ? extra / 2 : 0);  // some elements past n are not counted
          kpz::Rng rng(1234u + team * 31u + num_bins * 7u + extra);
          std::vector<int> bins(size);
          for (int& b : bins) b = static_cast<int>(rng.next() % static_cast<std::uint64_t>(num_bins));
          for (const auto path : {kpz::team::BinRankPath::best, kpz::team::BinRankPath::portable}) {
            const std::string what = "team=" + std::to_string(team) + " bins=" + std::to_string(num_bins) +
                                     " size=" + std::to_string(size) + " n=" + std::to_string(n) +
                                     (path == kpz::team::BinRankPath::best ? " best" : " portable") + " path";
            std::vector<int> place, starts, counts;
            rank_on_device(space, bins, n, team, path, place, starts, counts);
            for (int t = 0; t * tile < size; ++t) {
              const int lo = t * tile, hi = std::min(size, lo + tile), valid_end = std::min(hi, std::max(lo, n));
              std::vector<int> count(B, 0), start(B, 0), next(B, 0);
              for (int i = lo; i < valid_end; ++i) ++count[bins[i]];
              for (int j = 1; j < B; ++j) start[j] = start[j - 1] + count[j - 1];
              next = start;
              for (int i = lo; i < hi; ++i)
                ASSERT_EQ(place[i], i < valid_end ? next[bins[i]]++ : -1) << what << " element " << i;
              for (int j = 0; j < B; ++j) {
                ASSERT_EQ(starts[t * B + j], start[j]) << what << " tile " << t << " bin " << j;
                ASSERT_EQ(counts[t * B + j], count[j]) << what << " tile " << t << " bin " << j;
              }
            }
          }
        }
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, BinRankTest, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

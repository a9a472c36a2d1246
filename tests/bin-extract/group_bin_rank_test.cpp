// kpz::team::GroupBinRank (framework/include/kpz/team/group_bin_rank.hpp): every group (a warp on
// CUDA, one member elsewhere) gives each element of its tile its place in the stably bin-ordered
// tile, and the tile's bin starts and counts; count() and sum() give the group's histogram. For
// every team size, 1 to 8 bins, partial tiles and several tiles per group in a row.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/team/group_bin_rank.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

constexpr int kItems = 16;
constexpr int kTilesPerGroup = 3;

struct Ranked {
  std::vector<int> place;   // per element: its place in its tile (-1 past n)
  std::vector<int> starts;  // per tile and bin
  std::vector<int> counts;  // per tile and bin, from rank()
  std::vector<int> sums;    // per tile and bin, from count() and sum()
};

// Group g of the launch ranks tiles g * kTilesPerGroup .. + kTilesPerGroup - 1 of group_size x
// kItems bins each (the first n count), one after the other.
template <class Space>
Ranked rank_on_device(const Space& space, const std::vector<int>& bins, int n, int team_size) {
  using Rank = kpz::team::GroupBinRank<Space>;
  constexpr int B = Rank::max_bins;
  const int group = Rank::group_size(team_size), per_team = team_size / group;
  const int tile = kItems * group, tiles = static_cast<int>((bins.size() + tile - 1) / tile);
  const int groups = (tiles + kTilesPerGroup - 1) / kTilesPerGroup;
  const int teams = (groups + per_team - 1) / per_team;
  auto d_bins = kpz::to_device(space, "bins", bins);
  kpz::View<int*, Space> d_place("place", bins.size()), d_starts("starts", tiles * B), d_counts("counts", tiles * B),
      d_sums("sums", tiles * B);
  kpz::poison(d_place);
  kpz::poison(d_starts);
  kpz::poison(d_counts);
  kpz::poison(d_sums);
  const long total = static_cast<long>(bins.size());
  Kokkos::parallel_for(kpz::TeamPolicy<Space>(space, teams, team_size), KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    const Rank ranker(team);
    const int g = team.league_rank() * per_team + team.team_rank() / group;
    if (g >= groups) return;
    for (int h = 0; h < kTilesPerGroup; ++h) {
      const long t = static_cast<long>(g) * kTilesPerGroup + h;
      const long first = t * tile + static_cast<long>(ranker.lane()) * kItems;
      int b[kItems];
      for (int k = 0; k < kItems; ++k) b[k] = first + k < total ? d_bins(first + k) : 0;
      const long left = n - first;
      const int valid = left < 0 ? 0 : left < kItems ? static_cast<int>(left) : kItems;
      // Every member of the group calls the collectives, also for a tile past the end.
      auto r = ranker.template rank<kItems>([&](int k) { return b[k]; }, valid);
      typename Rank::Word packed[2] = {0, 0};
      Rank::template count<kItems>([&](int k) { return b[k]; }, valid, packed);
      int sums[B];
      for (int j = 0; j < B; ++j) sums[j] = ranker.sum(Rank::field(packed, j));
      if (t * tile >= total) continue;
      for (int k = 0; k < kItems; ++k)
        if (first + k < total) d_place(first + k) = k < valid ? r.take(b[k]) : -1;
      if (ranker.lane() == 0)
        for (int j = 0; j < B; ++j) {
          d_starts(t * B + j) = r.bin_start(j);
          d_counts(t * B + j) = r.bin_count(j);
          d_sums(t * B + j) = sums[j];
        }
    }
  });
  space.fence();
  return {kpz::to_host(d_place), kpz::to_host(d_starts), kpz::to_host(d_counts), kpz::to_host(d_sums)};
}

class GroupBinRankTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GroupBinRankTest, EveryGroupGivesTheStableCountingSortOfItsTiles) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    using Rank = kpz::team::GroupBinRank<Space>;
    constexpr int B = Rank::max_bins;
    for (const int team : kpz::test::team_sizes(GetParam()))
      for (const int num_bins : {1, 3, 8})
        for (const int extra : {0, 1, 37}) {
          const int tile = kItems * Rank::group_size(team);
          // Enough tiles for three groups or more; the last tile partial or absent.
          const int size = (3 * kTilesPerGroup + 1) * tile + extra;
          const int n = size - (extra > 0 ? extra / 2 : 0);  // some elements past n are not counted
          kpz::Rng rng(1234u + team * 31u + num_bins * 7u + extra);
          std::vector<int> bins(size);
          for (int& b : bins) b = static_cast<int>(rng.next() % static_cast<std::uint64_t>(num_bins));
          const std::string what = "team=" + std::to_string(team) + " bins=" + std::to_string(num_bins) +
                                   " size=" + std::to_string(size) + " n=" + std::to_string(n);
          const Ranked got = rank_on_device(space, bins, n, team);
          for (int t = 0; t * tile < size; ++t) {
            const int lo = t * tile, hi = std::min(size, lo + tile), valid_end = std::min(hi, std::max(lo, n));
            std::vector<int> count(B, 0), start(B, 0);
            for (int i = lo; i < valid_end; ++i) ++count[bins[i]];
            for (int j = 1; j < B; ++j) start[j] = start[j - 1] + count[j - 1];
            std::vector<int> next = start;
            for (int i = lo; i < hi; ++i)
              ASSERT_EQ(got.place[i], i < valid_end ? next[bins[i]]++ : -1) << what << " element " << i;
            for (int j = 0; j < B; ++j) {
              ASSERT_EQ(got.starts[t * B + j], start[j]) << what << " tile " << t << " bin " << j;
              ASSERT_EQ(got.counts[t * B + j], count[j]) << what << " tile " << t << " bin " << j;
              ASSERT_EQ(got.sums[t * B + j], count[j]) << what << " tile " << t << " bin " << j << " (count + sum)";
            }
          }
        }
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, GroupBinRankTest, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

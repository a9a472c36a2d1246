// kpz::team::BallotBinRank (framework/include/kpz/team/ballot_bin_rank.hpp): every group (a warp
// on CUDA, one member elsewhere) ranks its elements step after step, stably by bin, and its
// per-bin helpers (counts, exclusive_scan, zip, get) give every element its place in the
// bin-ordered set. For every team size, 1 to 8 bins, invalid elements at the end and several
// sets per group in a row (reset() between them).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ballot_groups.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/team/ballot_bin_rank.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

using kpz::test::GroupSets;
constexpr int kSteps = GroupSets::kSteps;
constexpr int kBins = 8;

struct Ranked {
  std::vector<int> place;   // per element: its place in its bin-ordered set (-1 if not valid)
  std::vector<int> counts;  // per set and bin
};

// Elements at n or beyond are invalid. Nothing when the kernel cannot run teams of team_size.
template <class Space, bool Warps>
std::optional<Ranked> rank_on_device(const Space& space, const std::vector<int>& bins, int n, int team_size) {
  using Rank = kpz::team::BallotBinRank<Space, Warps>;
  constexpr int G = Rank::group_size;
  const GroupSets layout(G, team_size, bins.size());
  auto d_bins = kpz::to_device(space, "bins", bins);
  const auto d_place = kpz::poisoned_output<int>(space, "place", bins.size());
  const auto d_counts = kpz::poisoned_output<int>(space, "counts", layout.sets * kBins);
  const long total = static_cast<long>(bins.size());
  const auto body = KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    Rank rank(team);
    layout.for_each_set(team, [&](long first) {
      rank.reset();
      unsigned packed[kSteps];
      // Every member of the group takes every step, also for a set past the end.
      for (int j = 0; j < kSteps; ++j) {
        const long i = first + j * G + rank.lane();
        packed[j] = rank.template step<true>(i < total ? d_bins(i) : 0, i < n);
      }
      const auto counts = rank.counts();
      const auto start = rank.exclusive_scan(counts);
      const auto key = rank.zip(start, counts, [](int b, int s, int) { return 32 * s - b; });
      for (int j = 0; j < kSteps; ++j) {
        const long i = first + j * G + rank.lane();
        const int place = (rank.get(key, packed[j]) + static_cast<int>(packed[j])) >> 5;
        if (i < total) d_place(i) = i < n ? place : -1;
      }
      if (first < total) rank.for_each(counts, [&](int b, int c) { d_counts(first / layout.set * kBins + b) = c; });
    });
  };
  if (!kpz::test::launch_if_it_fits(space, layout.teams, team_size, body)) return std::nullopt;
  return Ranked{kpz::to_host(d_place), kpz::to_host(d_counts)};
}

template <class Space>
std::optional<Ranked> rank_on_device(const Space& space, const std::vector<int>& bins, int n, int team_size) {
  return kpz::test::with_warp_groups<Space>(
      team_size, [&](auto warps) { return rank_on_device<Space, decltype(warps)::value>(space, bins, n, team_size); });
}

// The stable counting sort of every set of `bins` (the elements from n on do not count).
void expect_stable_counting_sort(const std::vector<int>& bins, int n, int set, const Ranked& got) {
  const int size = static_cast<int>(bins.size());
  for (int s = 0; s * set < size; ++s) {
    const int lo = s * set, hi = std::min(size, lo + set), valid_end = std::min(hi, std::max(lo, n));
    std::vector<int> count(kBins, 0), next(kBins, 0);
    for (int i = lo; i < valid_end; ++i) ++count[bins[i]];
    for (int b = 1; b < kBins; ++b) next[b] = next[b - 1] + count[b - 1];
    for (int i = lo; i < hi; ++i)
      ASSERT_EQ(got.place[i], i < valid_end ? next[bins[i]]++ : -1) << "n=" << n << " element " << i;
    for (int b = 0; b < kBins; ++b)
      ASSERT_EQ(got.counts[s * kBins + b], count[b]) << "n=" << n << " set " << s << " bin " << b;
  }
}

class BallotBinRankTest : public ::testing::TestWithParam<std::string> {};

// The partition runs teams of up to 256 (several warps on CUDA): the sweep checks those ran.
TEST_P(BallotBinRankTest, EveryGroupGivesTheStableCountingSortOfItsSets) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  // One case: its inputs, the kernel, the checks; false when the kernel cannot run teams that large.
  const auto run = [](const auto& space, const kpz::test::BallotCase& c) {
    const int n = c.size - (c.extra > 0 ? c.extra / 2 + 1 : c.set / 3);  // the elements from n on do not count
    kpz::Rng rng(4321u + c.team * 31u + c.param * 7u + c.extra);
    std::vector<int> bins(c.size);
    for (int& b : bins) b = static_cast<int>(rng.next() % static_cast<std::uint64_t>(c.param));
    const auto ran = rank_on_device(space, bins, n, c.team);
    if (ran) expect_stable_counting_sort(bins, n, c.set, *ran);
    return ran.has_value();
  };
  kpz::test::sweep_ballot_cases(GetParam(), "bins", {1, 3, 8}, run);
}

INSTANTIATE_TEST_SUITE_P(Spaces, BallotBinRankTest, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

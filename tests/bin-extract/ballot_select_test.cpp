// kpz::team::BallotSelect (framework/include/kpz/team/ballot_select.hpp): every group (a warp on
// CUDA, one member elsewhere) ranks its selected elements step after step, stably. For every
// team size, selections from none to all, and several sets per group in a row (reset() between
// them).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/team/ballot_bin_rank.hpp"
#include "kpz/team/ballot_select.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

constexpr int kSteps = 16;
constexpr int kSetsPerGroup = 3;

struct Selected {
  std::vector<int> place;   // per element: its place among its set's selected ones (-1 if not selected)
  std::vector<int> counts;  // per set
};

// Group g ranks sets g * kSetsPerGroup .. + kSetsPerGroup - 1 of group x kSteps elements each;
// element j * group + lane of a set is the member's step j. Nothing when the kernel cannot run
// teams of team_size.
template <class Space, bool Warps>
std::optional<Selected> select_on_device(const Space& space, const std::vector<int>& keep, int team_size) {
  using Select = kpz::team::BallotSelect<Space, Warps>;
  constexpr int G = Select::group_size;
  const int per_team = team_size / G, set = kSteps * G, sets = static_cast<int>((keep.size() + set - 1) / set);
  const int groups = (sets + kSetsPerGroup - 1) / kSetsPerGroup, teams = (groups + per_team - 1) / per_team;
  auto d_keep = kpz::to_device(space, "keep", keep);
  kpz::View<int*, Space> d_place("place", keep.size()), d_counts("counts", sets);
  kpz::poison(d_place);
  kpz::poison(d_counts);
  const long total = static_cast<long>(keep.size());
  const auto body = KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    Select select(team);
    const int g = team.league_rank() * per_team + team.team_rank() / G;
    if (g >= groups) return;  // a whole group leaves together
    for (int h = 0; h < kSetsPerGroup; ++h) {
      const long first = (static_cast<long>(g) * kSetsPerGroup + h) * set;
      select.reset();
      // Every member of the group takes every step, also for a set past the end.
      for (int j = 0; j < kSteps; ++j) {
        const long i = first + j * G + select.lane();
        const bool mine = i < total && d_keep(i) != 0;
        const int before = select.step(mine);
        if (i < total) d_place(i) = mine ? before : -1;
      }
      if (first < total && select.lane() == 0) d_counts(first / set) = select.count();
    }
  };
  const kpz::TeamPolicy<Space> policy(space, teams, team_size);
  if (team_size > policy.team_size_max(body, Kokkos::ParallelForTag())) return std::nullopt;
  Kokkos::parallel_for(policy, body);
  space.fence();
  return Selected{kpz::to_host(d_place), kpz::to_host(d_counts)};
}

template <class Space>
std::optional<Selected> select_on_device(const Space& space, const std::vector<int>& keep, int team_size) {
  if (kpz::team::BallotBinRank<Space, false>::warps_possible(team_size)) {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return select_on_device<Space, true>(space, keep, team_size);
#endif
  }
  return select_on_device<Space, false>(space, keep, team_size);
}

class BallotSelectTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BallotSelectTest, EveryGroupRanksItsSelectedElementsInOrder) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    int largest_team = 0;  // the largest team size that ran
    for (const int team : kpz::test::team_sizes(GetParam()))
      for (const int percent : {0, 13, 50, 100})
        for (const int extra : {0, 1, 37}) {
          const int group = kpz::team::BallotBinRank<Space, false>::warps_possible(team) ? 32 : 1;
          const int set = kSteps * group;
          // Enough sets for three groups or more; the last set partial or absent.
          const int size = (3 * kSetsPerGroup + 1) * set + extra;
          kpz::Rng rng(8765u + team * 31u + percent * 7u + extra);
          std::vector<int> keep(size);
          for (int& k : keep) k = static_cast<int>(rng.next() % 100) < percent ? 1 : 0;
          const std::string what =
              "team=" + std::to_string(team) + " percent=" + std::to_string(percent) + " size=" + std::to_string(size);
          const auto ran = select_on_device(space, keep, team);
          if (!ran) continue;
          const Selected& got = *ran;
          largest_team = std::max(largest_team, team);
          for (int s = 0; s * set < size; ++s) {
            const int lo = s * set, hi = std::min(size, lo + set);
            int next = 0;
            for (int i = lo; i < hi; ++i) ASSERT_EQ(got.place[i], keep[i] ? next++ : -1) << what << " element " << i;
            ASSERT_EQ(got.counts[s], next) << what << " set " << s;
          }
        }
    // The extract runs teams of up to 256 (several warps on CUDA): those must have been tested.
    EXPECT_GE(largest_team, std::min(256, kpz::test::team_sizes(GetParam()).back())) << "team sizes skipped";
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, BallotSelectTest, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

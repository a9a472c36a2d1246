// kpz::team::BallotSelect (framework/include/kpz/team/ballot_select.hpp): every group (a warp on
// CUDA, one member elsewhere) ranks its selected elements step after step, stably. For every
// team size, selections from none to all, and several sets per group in a row (reset() between
// them).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ballot_groups.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/team/ballot_select.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

using kpz::test::GroupSets;
constexpr int kSteps = GroupSets::kSteps;

struct Selected {
  std::vector<int> place;   // per element: its place among its set's selected ones (-1 if not selected)
  std::vector<int> counts;  // per set
};

// Nothing when the kernel cannot run teams of team_size.
template <class Space, bool Warps>
std::optional<Selected> select_on_device(const Space& space, const std::vector<int>& keep, int team_size) {
  using Select = kpz::team::BallotSelect<Space, Warps>;
  constexpr int G = Select::group_size;
  const GroupSets layout(G, team_size, keep.size());
  auto d_keep = kpz::to_device(space, "keep", keep);
  const auto d_place = kpz::poisoned_output<int>(space, "place", keep.size());
  const auto d_counts = kpz::poisoned_output<int>(space, "counts", layout.sets);
  const long total = static_cast<long>(keep.size());
  const auto body = KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team) {
    Select select(team);
    layout.for_each_set(team, [&](long first) {
      select.reset();
      // Every member of the group takes every step, also for a set past the end.
      for (int j = 0; j < kSteps; ++j) {
        const long i = first + j * G + select.lane();
        const bool mine = i < total && d_keep(i) != 0;
        const int before = select.step(mine);
        if (i < total) d_place(i) = mine ? before : -1;
      }
      if (first < total && select.lane() == 0) d_counts(first / layout.set) = select.count();
    });
  };
  if (!kpz::test::launch_if_it_fits(space, layout.teams, team_size, body)) return std::nullopt;
  return Selected{kpz::to_host(d_place), kpz::to_host(d_counts)};
}

template <class Space>
std::optional<Selected> select_on_device(const Space& space, const std::vector<int>& keep, int team_size) {
  return kpz::test::with_warp_groups<Space>(
      team_size, [&](auto warps) { return select_on_device<Space, decltype(warps)::value>(space, keep, team_size); });
}

// Every set's selected elements numbered in order, and counted.
void expect_ranked_in_order(const std::vector<int>& keep, int set, const Selected& got) {
  const int size = static_cast<int>(keep.size());
  for (int s = 0; s * set < size; ++s) {
    const int lo = s * set, hi = std::min(size, lo + set);
    int next = 0;
    for (int i = lo; i < hi; ++i) ASSERT_EQ(got.place[i], keep[i] ? next++ : -1) << "element " << i;
    ASSERT_EQ(got.counts[s], next) << "set " << s;
  }
}

class BallotSelectTest : public ::testing::TestWithParam<std::string> {};

// The extract runs teams of up to 256 (several warps on CUDA): the sweep checks those ran.
TEST_P(BallotSelectTest, EveryGroupRanksItsSelectedElementsInOrder) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework primitive, not an exercise";
  // One case: its inputs, the kernel, the checks; false when the kernel cannot run teams that large.
  const auto run = [](const auto& space, const kpz::test::BallotCase& c) {
    kpz::Rng rng(8765u + c.team * 31u + c.param * 7u + c.extra);
    std::vector<int> keep(c.size);
    for (int& k : keep) k = static_cast<int>(rng.next() % 100) < c.param ? 1 : 0;
    const auto ran = select_on_device(space, keep, c.team);
    if (ran) expect_ranked_in_order(keep, c.set, *ran);
    return ran.has_value();
  };
  kpz::test::sweep_ballot_cases(GetParam(), "percent", {0, 13, 50, 100}, run);
}

INSTANTIATE_TEST_SUITE_P(Spaces, BallotSelectTest, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

#pragma once
// The layout, launch and sweep of the ballot primitives' tests (kpz::team::BallotBinRank,
// BallotSelect): groups of G members (a warp on CUDA, one member elsewhere) take kSetsPerGroup
// sets of G x kSteps elements each, one set after another; element j * G + lane of a set is the
// member's step j.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "kpz/spaces.hpp"
#include "kpz/team/ballot_bin_rank.hpp"
#include "kpz/types.hpp"
#include "kpz_test.hpp"

namespace kpz::test {

struct GroupSets {
  static constexpr int kSteps = 16;
  static constexpr int kSetsPerGroup = 3;
  int group, per_team, set, sets, groups, teams;

  GroupSets(int group_size, int team_size, std::size_t elements)
      : group(group_size),
        per_team(team_size / group_size),
        set(kSteps * group_size),
        sets(static_cast<int>((elements + static_cast<std::size_t>(set) - 1) / static_cast<std::size_t>(set))),
        groups((sets + kSetsPerGroup - 1) / kSetsPerGroup),
        teams((groups + per_team - 1) / per_team) {}

  // Calls f(first) in a kernel for each set of the member's group, `first` its first element.
  template <class Member, class F>
  KOKKOS_INLINE_FUNCTION void for_each_set(const Member& team, const F& f) const {
    const int g = team.league_rank() * per_team + team.team_rank() / group;
    if (g >= groups) return;  // a whole group leaves together
    for (int h = 0; h < kSetsPerGroup; ++h) f((static_cast<long>(g) * kSetsPerGroup + h) * set);
  }
};

// f(std::true_type{}) where the groups of teams of team_size can be CUDA warps, else
// f(std::false_type{}).
template <class Space, class F>
auto with_warp_groups(int team_size, const F& f) {
  if (kpz::team::BallotBinRank<Space, false>::warps_possible(team_size)) {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return f(std::true_type{});
#endif
  }
  return f(std::false_type{});
}

// Runs body on `teams` teams of team_size; false, having run nothing, when the kernel cannot run
// teams that large (its registers: 1024 threads need 64).
template <class Space, class Body>
bool launch_if_it_fits(const Space& space, int teams, int team_size, const Body& body) {
  const kpz::TeamPolicy<Space> policy(space, teams, team_size);
  if (team_size > policy.team_size_max(body, Kokkos::ParallelForTag())) return false;
  Kokkos::parallel_for(policy, body);
  space.fence();
  return true;
}

// One case of a ballot primitive's sweep (sweep_ballot_cases): a team size, a value of what the
// test varies (`param`: bins, a percentage) and `extra` elements past whole sets; a set is `set`
// elements at that team size, and `size` elements make enough sets for three groups or more, the
// last set partial or absent.
struct BallotCase {
  int team, param, extra, set, size;
};

// Calls run(space, c) on the space named `space_name` for every team size, each of `params` (named
// `param_name` in failures) and 0, 1 and 37 extra elements, in that order (a test seeds its inputs
// from the case). run checks its case with EXPECT_* and ASSERT_* and returns whether it ran (a
// kernel that cannot run teams that large does not). A failure names its case (SCOPED_TRACE), and
// the sweep stops at the first fatal one, as an ASSERT_* in a loop of the test itself would.
// The kernels built on the primitives run teams of up to 256 (several warps on CUDA): those must
// have run.
template <class Run>
void sweep_ballot_cases(const std::string& space_name, const std::string& param_name, std::initializer_list<int> params,
                        const Run& run) {
  kpz::with_space(space_name, [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    int largest_team = 0;  // the largest team size that ran
    for (const int team : team_sizes(space_name))
      for (const int param : params)
        for (const int extra : {0, 1, 37}) {
          const int set = GroupSets::kSteps * (kpz::team::BallotBinRank<Space, false>::warps_possible(team) ? 32 : 1);
          const BallotCase c{team, param, extra, set, (3 * GroupSets::kSetsPerGroup + 1) * set + extra};
          SCOPED_TRACE("team=" + std::to_string(team) + " " + param_name + "=" + std::to_string(param) +
                       " size=" + std::to_string(c.size));
          if (run(space, c)) largest_team = std::max(largest_team, team);
          if (::testing::Test::HasFatalFailure()) return;
        }
    EXPECT_GE(largest_team, std::min(256, team_sizes(space_name).back())) << "team sizes skipped";
  });
}

}  // namespace kpz::test

#pragma once
// The layout and launch of the ballot primitives' tests (kpz::team::BallotBinRank, BallotSelect):
// groups of G members (a warp on CUDA, one member elsewhere) take kSetsPerGroup sets of
// G x kSteps elements each, one set after another; element j * G + lane of a set is the
// member's step j.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

#include "kpz/team/ballot_bin_rank.hpp"
#include "kpz/types.hpp"

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

}  // namespace kpz::test

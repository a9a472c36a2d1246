// basics exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void team_reverse(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile;
  const int teams = (n + tile - 1) / tile;
  // `teams` teams (CUDA: blocks) of launch.team_size members (CUDA: threads of a block).
  Kokkos::parallel_for(
      "basics::team_reverse", TeamPolicy<Space>(space, teams, launch.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;  // this team's first element
        // TODO(roughly 4 lines): reverse this team's elements of in into out. count: how many
        //   it owns (tile, fewer in the last team); out(first + i), i < count, gets the i-th of
        //   them from the end; the members share them with a TeamThreadRange.
      });
}

template <class Space>
void scratch_reverse(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile;
  const int teams = (n + tile - 1) / tile;
  // Each team asks for one tile of floats of level-0 scratch (CUDA: __shared__ memory).
  const auto policy = TeamPolicy<Space>(space, teams, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes<Space>(tile)));
  Kokkos::parallel_for(
      "basics::scratch_reverse", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;
        const int count = Kokkos::min(tile, n - first);
        Scratch s(team.team_scratch(0), tile);
        // TODO(roughly 2 lines): stage this team's elements in s, then wait for every member.
        //   The count elements from in(first), copied by the members together (TeamThreadRange).
        // TODO(roughly 2 lines): reverse s into out(first) .. out(first + count - 1). With a
        //   TeamThreadRange, reading only s.
      });
}

KPZ_FOR_EACH_SPACE(KPZ_BASICS_INSTANTIATE_TEAMS)

}  // namespace kpz::basics::exercise

// conv1d exercise: fill in every TODO, then run `kpuzzles run conv1d` (or the tests).
// The solution is in reference/conv1d/, but try first: `kpuzzles hint conv1d` helps.
// This file is generated from the reference; `python3 cmake/kpz_skeletons.py --write conv1d`
// restores it (and discards your work).
#include "conv1d/conv1d.hpp"

namespace kpz::conv1d::exercise {

template <class Space>
void simple(const Space& space, int team_size, View<const float*, Space> a,
            View<const float*, Space> b, View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  // One team (CUDA: one block). Its scratch (CUDA: __shared__ memory) holds all of a and b.
  const auto policy = TeamPolicy<Space>(space, 1, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(simple_scratch_bytes<Space>(n, taps)));
  Kokkos::parallel_for(
      "conv1d::simple", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Scratch s_a(team.team_scratch(0), n);
        Scratch s_b(team.team_scratch(0), taps);
        // TODO(roughly 3 lines): copy a into s_a and the first `taps` values of b into s_b with TeamThreadRange loops, then wait until every member has copied its part.
        // TODO(roughly 6 lines): for every i of a TeamThreadRange over n, sum s_a(i + j) * s_b(j) for j < taps while i + j < n, and write the sum to out(i).
      });
}

template <class Space>
void tiled(const Space& space, const Launch& launch, View<const float*, Space> a,
           View<const float*, Space> b, View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  const int tile = launch.tile;
  const int teams = (n + tile - 1) / tile;
  const auto policy =
      TeamPolicy<Space>(space, teams, launch.team_size)
          .set_scratch_size(0, Kokkos::PerTeam(tiled_scratch_bytes<Space>(tile, taps)));
  Kokkos::parallel_for(
      "conv1d::tiled", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        // s_a(i) holds a(first + i) for i < tile + taps - 1: the tile and its halo.
        Scratch s_a(team.team_scratch(0), tile + taps - 1);
        Scratch s_b(team.team_scratch(0), taps);
        const int first = team.league_rank() * tile;
        // TODO(roughly 6 lines): stage the tile and its halo, a(first + i) for i < tile + taps - 1, into s_a (0 where first + i >= n), and b into s_b; then wait for every member.
        // TODO(roughly 6 lines): for every i of a TeamThreadRange over this team's outputs (fewer than tile in the last team), write out(first + i) = sum of s_a(i + j) * s_b(j) for j < taps.
      });
}

KPZ_FOR_EACH_SPACE(KPZ_CONV1D_INSTANTIATE)

}  // namespace kpz::conv1d::exercise

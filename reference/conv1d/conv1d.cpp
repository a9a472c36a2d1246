// conv1d reference solution. exercises/conv1d/conv1d.cpp is generated from this file by
// cmake/kpz_skeletons.py: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "conv1d/conv1d.hpp"

namespace kpz::conv1d::reference {

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
        // KPZ-TODO(roughly 3 lines): copy a into s_a and the first `taps` values of b into s_b with TeamThreadRange loops, then wait until every member has copied its part.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) { s_a(i) = a(i); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 6 lines): for every i of a TeamThreadRange over n, sum s_a(i + j) * s_b(j) for j < taps while i + j < n, and write the sum to out(i).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
          const int last = Kokkos::min(taps, n - i);
          float sum = 0.0f;
          for (int j = 0; j < last; ++j) sum += s_a(i + j) * s_b(j);
          out(i) = sum;
        });
        // KPZ-END
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
        // KPZ-TODO(roughly 6 lines): stage the tile and its halo, a(first + i) for i < tile + taps - 1, into s_a (0 where first + i >= n), and b into s_b; then wait for every member.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile + taps - 1), [&](int i) {
          const int g = first + i;
          s_a(i) = g < n ? a(g) : 0.0f;
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 6 lines): for every i of a TeamThreadRange over this team's outputs (fewer than tile in the last team), write out(first + i) = sum of s_a(i + j) * s_b(j) for j < taps.
        const int count = Kokkos::min(tile, n - first);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
          float sum = 0.0f;
          for (int j = 0; j < taps; ++j) sum += s_a(i + j) * s_b(j);
          out(first + i) = sum;
        });
        // KPZ-END
      });
}

KPZ_FOR_EACH_SPACE(KPZ_CONV1D_INSTANTIATE)

}  // namespace kpz::conv1d::reference

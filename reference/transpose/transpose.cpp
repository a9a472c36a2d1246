// transpose reference solution. exercises/transpose/transpose.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "transpose/transpose.hpp"

namespace kpz::transpose::reference {

template <class Space>
void naive(const Space& space, const LaunchShape& launch, int rows, int cols, View<const float*, Space> in,
           View<float*, Space> out) {
  const int tile = launch.tile;
  tile_grid_launch(
      space, launch, "transpose::naive", rows, cols, 0, KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        const int height = Kokkos::min(tile, rows - r0), width = Kokkos::min(tile, cols - c0);
        // KPZ-TODO(roughly 5 lines): copy every element (r0 + r, c0 + c) of this tile of `in`
        //   to its place in `out`: the tile's rows on the team's threads, its columns on their
        //   vector lanes.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, height), [&](int r) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width),
                               [&](int c) { out((c0 + c) * rows + r0 + r) = in((r0 + r) * cols + c0 + c); });
        });
        // KPZ-END
      });
}

template <class Space>
void tiled(const Space& space, const LaunchShape& launch, int rows, int cols, View<const float*, Space> in,
           View<float*, Space> out) {
  const int tile = launch.tile, stride = launch.tile + 1;
  tile_grid_launch(
      space, launch, "transpose::tiled", rows, cols, tile_scratch_bytes<Space>(tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        const int height = Kokkos::min(tile, rows - r0), width = Kokkos::min(tile, cols - c0);
        // s(r * stride + c) holds in(r0 + r, c0 + c) (CUDA: __shared__ float s[tile][tile + 1]).
        const ScratchView<float*, Space> s(team.team_scratch(0), tile * stride);
        // KPZ-TODO(roughly 6 lines): stage the tile in s, reading `in` along its rows (consecutive
        //   lanes on consecutive columns); then the team waits.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, height), [&](int r) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width),
                               [&](int c) { s(r * stride + c) = in((r0 + r) * cols + c0 + c); });
        });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 5 lines): write the tile's transpose from s, so that consecutive lanes
        //   write consecutive elements of `out` too.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width), [&](int c) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, height),
                               [&](int r) { out((c0 + c) * rows + r0 + r) = s(r * stride + c); });
        });
        // KPZ-END
      });
}

template <class Space>
void in_place(const Space& space, const LaunchShape& launch, int n, View<float*, Space> m) {
  const int tile = launch.tile, stride = launch.tile + 1;
  tile_grid_launch(
      space, launch, "transpose::in_place", n, n, 2 * tile_scratch_bytes<Space>(tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        if (r0 > c0) return;  // tile (bi, bj) below the diagonal: the team of (bj, bi) swaps it
        const int height = Kokkos::min(tile, n - r0), width = Kokkos::min(tile, n - c0);
        // a(r * stride + c) holds m(r0 + r, c0 + c); b(c * stride + r) holds m(c0 + c, r0 + r), the
        // mirror tile (the same tile on the diagonal, where r0 == c0).
        const ScratchView<float*, Space> a(team.team_scratch(0), tile * stride);
        const ScratchView<float*, Space> b(team.team_scratch(0), tile * stride);
        // KPZ-TODO(roughly 3 lines): stage both tiles with for_each_in_tile, reading along rows
        //   of m; then the team waits.
        for_each_in_tile(team, height, width, [&](int r, int c) { a(r * stride + c) = m((r0 + r) * n + c0 + c); });
        for_each_in_tile(team, width, height, [&](int c, int r) { b(c * stride + r) = m((c0 + c) * n + r0 + r); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 3 lines): write each staged tile, transposed, where the other one was,
        //   writing along rows of m; a tile on the diagonal is written once.
        for_each_in_tile(team, width, height, [&](int c, int r) { m((c0 + c) * n + r0 + r) = a(r * stride + c); });
        if (r0 == c0) return;
        for_each_in_tile(team, height, width, [&](int r, int c) { m((r0 + r) * n + c0 + c) = b(c * stride + r); });
        // KPZ-END
      });
}

KPZ_FOR_EACH_SPACE(KPZ_TRANSPOSE_INSTANTIATE)

}  // namespace kpz::transpose::reference

// transpose exercise: fill in every TODO, then run `kpuzzles run transpose`
// (or the tests). Host builds race-check every pass; `kpuzzles trace transpose --<variant>`
// draws the accesses. The solution is in reference/transpose/, but try first: the hints are in
// docs/puzzles/transpose.md. Generated from the reference: `kpuzzles reset transpose` restores it
// (your work is kept as a backup).
#include "transpose/transpose.hpp"

namespace kpz::transpose::exercise {

template <class Space>
void naive(const Space& space, const LaunchShape& launch, int rows, int cols, View<const float*, Space> in,
           View<float*, Space> out) {
  const int tile = launch.tile;
  tile_grid_launch(
      space, launch, "transpose::naive", rows, cols, 0, KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        const int height = Kokkos::min(tile, rows - r0), width = Kokkos::min(tile, cols - c0);
        // TODO(roughly 5 lines): copy every element (r0 + r, c0 + c) of this tile of `in`
        //   to its place in `out`: the tile's rows on the team's threads, its columns on their
        //   vector lanes.
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
        // TODO(roughly 6 lines): stage the tile in s, reading `in` along its rows (consecutive
        //   lanes on consecutive columns); then the team waits.
        // TODO(roughly 5 lines): write the tile's transpose from s, so that consecutive lanes
        //   write consecutive elements of `out` too.
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
        // TODO(roughly 3 lines): stage both tiles with for_each_in_tile, reading along rows
        //   of m; then the team waits.
        // TODO(roughly 3 lines): write each staged tile, transposed, where the other one was,
        //   writing along rows of m; a tile on the diagonal is written once.
      });
}

KPZ_FOR_EACH_SPACE(KPZ_TRANSPOSE_INSTANTIATE)

}  // namespace kpz::transpose::exercise

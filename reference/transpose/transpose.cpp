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

// `tiled`'s kernel for InFlight loads in flight per thread: each lane loads InFlight elements of
// its tile into registers before it stores the first, so that a GPU thread waits for one memory
// latency per InFlight loads instead of one per load. `tiled` picks the version launch.in_flight
// asks for: 4 on a GPU, 1 on a CPU (whose lanes are one loop the compiler vectorises, as a plain
// row copy, and several rows in that loop are slower there).
template <int InFlight, class Space>
void tiled_in_flight(const Space& space, const LaunchShape& launch, int rows, int cols, View<const float*, Space> in,
                     View<float*, Space> out) {
  const int tile = launch.tile, stride = launch.tile + 1;
  tile_grid_launch(
      space, launch, "transpose::tiled", rows, cols, tile_scratch_bytes<Space>(tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        const int height = Kokkos::min(tile, rows - r0), width = Kokkos::min(tile, cols - c0);
        // s(r * stride + c) holds in(r0 + r, c0 + c) (CUDA: __shared__ float s[tile][tile + 1]).
        const ScratchView<float*, Space> s(team.team_scratch(0), tile * stride);
        // The tile's rows (and, to write, its columns) in groups: group g holds rows g, g + groups,
        // ..., g + (InFlight - 1) * groups, those below height (width).
        const int row_groups = (height + InFlight - 1) / InFlight, col_groups = (width + InFlight - 1) / InFlight;
        // KPZ-TODO(roughly 12 lines): stage the tile in s, reading `in` along its rows (consecutive
        //   lanes on consecutive columns), a group of rows per thread: each lane loads its column
        //   of all the group's rows into a float[InFlight] before it stores any; then the team
        //   waits.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, row_groups), [&](int g) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width), [&](int c) {
            float v[InFlight];  // CUDA: registers
            for (int q = 0; q < InFlight; ++q) {
              const int r = g + q * row_groups;
              v[q] = q == 0 || r < height ? in((r0 + r) * cols + c0 + c) : 0.0f;
            }
            for (int q = 0; q < InFlight; ++q)
              if (const int r = g + q * row_groups; q == 0 || r < height) s(r * stride + c) = v[q];
          });
        });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 11 lines): write the tile's transpose from s, so that consecutive lanes
        //   write consecutive elements of `out` too, a group of the tile's columns per thread, each
        //   lane reading all of them from s before it writes any.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, col_groups), [&](int g) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, height), [&](int r) {
            float v[InFlight];
            for (int q = 0; q < InFlight; ++q) {
              const int c = g + q * col_groups;
              v[q] = q == 0 || c < width ? s(r * stride + c) : 0.0f;
            }
            for (int q = 0; q < InFlight; ++q)
              if (const int c = g + q * col_groups; q == 0 || c < width) out((c0 + c) * rows + r0 + r) = v[q];
          });
        });
        // KPZ-END
      });
}

template <class Space>
void tiled(const Space& space, const LaunchShape& launch, int rows, int cols, View<const float*, Space> in,
           View<float*, Space> out) {
  with_in_flight(launch.in_flight, [&](auto in_flight) {
    tiled_in_flight<decltype(in_flight)::value>(space, launch, rows, cols, in, out);
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

KPZ_INSTANTIATE_KERNELS(KPZ_TRANSPOSE_KERNELS)

}  // namespace kpz::transpose::reference

#pragma once
// transpose: out = in^T for a rows x cols matrix `in`, both stored row by row in 1D Views (element
// (i, j) of `in` is in(i * cols + j), element (j, i) of `out` is out(j * rows + i)), as a CUDA
// program holds them in plain arrays. The kernels below are implemented twice, with the same
// text: by the learner in exercises/transpose/ and in reference/transpose/.
#include <cstddef>

#include "kpz/kernel_table.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"
#include "kpz/tile_grid.hpp"
#include "kpz/types.hpp"

namespace kpz::transpose {

// The launch (kpz::LaunchShape: team_size threads of vector_length lanes, tiles of tile x tile,
// in_flight loads in flight per thread). GPU: a warp's 32 lanes on consecutive columns, 8 warps a
// block, tiles of 64 x 64, each thread holding 4 of its 16 elements at once (about 90 % of a copy
// on an H100, against 72 % with one at a time; benchmarks/results/transpose-notes.md). CPU: one
// thread per team, whose tile of 64 x 64 floats (16 KiB staged) stays in its core's L1, and one
// row at a time: a plain row copy, which the compiler vectorises.
inline KernelNeeds kernel_needs() {
  return KernelNeeds{.vector_loops = true,
                     .gpu_team = 8,
                     .gpu_vector = 32,
                     .host_vector = 1,
                     .gpu_tile = 64,
                     .host_tile = 64,
                     .gpu_in_flight = 4,
                     .host_in_flight = 1};
}

// Level-0 scratch one tile asks for: tile rows of tile + 1 floats (row r of the tile starts at
// r * (tile + 1): the extra float keeps the 32 lanes that read a column of the tile on 32
// different shared-memory banks). in_place stages two; the framework's tile is halved to fit
// (halved_to_fit: two tiles of 64 x 65 floats are just over a CPU backend's 32 KiB).
template <class Space>
std::size_t tile_scratch_bytes(int tile) {
  return ScratchView<float*, Space>::shmem_size(static_cast<std::size_t>(tile) * (tile + 1));
}

// The loop nest of naive and tiled, for in_place's four blocks: body(r, c) for every r < height
// on the team's threads and every c < width on their vector lanes (neighbouring lanes,
// neighbouring c).
template <class Member, class Body>
KOKKOS_INLINE_FUNCTION void for_each_in_tile(const Member& team, int height, int width, const Body& body) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, height), [&](int r) {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width), [&](int c) { body(r, c); });
  });
}

// Fewest bytes any transpose moves: every element read once and written once.
inline double bytes_moved(double rows, double cols) {
  return 2.0 * sizeof(float) * rows * cols;
}

// The kernels, listed once (kpz/kernel_table.hpp): declarations, instantiations, the table.
#define KPZ_TRANSPOSE_KERNELS(KERNEL, Space)                                                        \
  /* out(j * rows + i) = in(i * cols + j) with a tile per team, straight from global memory:      \
     rows of the tile on the team's threads, columns on their vector lanes. */ \
  KERNEL(naive, (const Space& space, const ::kpz::LaunchShape& launch, int rows, int cols,          \
                 ::kpz::View<const float*, Space> in, ::kpz::View<float*, Space> out))              \
                                                                                                    \
  /* The same result, through team scratch: each team stages its tile, then writes it             \
     transposed, so that reads and writes both run along rows, launch.in_flight elements a        \
     thread at once. Scratch: tile_scratch_bytes. */ \
  KERNEL(tiled, (const Space& space, const ::kpz::LaunchShape& launch, int rows, int cols,          \
                 ::kpz::View<const float*, Space> in, ::kpz::View<float*, Space> out))              \
                                                                                                    \
  /* An n x n matrix transposed in place: the team of tile (bi, bj), bi <= bj, swaps it with      \
     tile (bj, bi) through two staged tiles. Scratch: 2 tile_scratch_bytes. */ \
  KERNEL(in_place, (const Space& space, const ::kpz::LaunchShape& launch, int n, ::kpz::View<float*, Space> m))

KPZ_KERNELS(KPZ_TRANSPOSE_KERNELS)

}  // namespace kpz::transpose

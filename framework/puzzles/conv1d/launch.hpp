#pragma once
// conv1d's launches: what its kernels ask of a launch, and the launch `tiled` and its bug hunt
// share.
#include "conv1d/conv1d.hpp"
#include "kpz/launch_shape.hpp"

// What conv1d's kernels ask of their launch (kpz/launch_shape.hpp answers per backend); shared by
// `kpuzzles run/check` (run.cpp, Purpose::check) and `kpuzzles bench` (Purpose::speed).
namespace kpz::conv1d {

// simple, tiled, general and the bug hunt: one lane per member, the tile chosen per kernel.
inline KernelNeeds scalar_needs() {
  return KernelNeeds{.gpu_team = 256, .gpu_vector = 1, .host_vector = 1};
}

// vector_lanes. GPU: 8 warps of 32 lanes (256 threads, as `general`), 5 outputs per lane, so a row
// is 160 outputs and a block's tile 36 rows (5760 outputs, 23 KiB of scratch: two blocks per SM
// still fit; benchmarks/results/portability-notes.md has the tiles and lane counts measured).
// CPU: one lane per thread, whose 4 packs are 4 SIMD registers of consecutive outputs (64 outputs
// a row with AVX-512): more lanes only lengthen a loop around the same code. 2048 outputs per
// team keep the staged tile and b (about 8 KiB) in L1 while the taps reuse them.
inline KernelNeeds vector_needs() {
  return KernelNeeds{.vector_loops = true, .gpu_team = 8, .gpu_vector = 32, .gpu_tile = 5760, .host_tile = 2048};
}

}  // namespace kpz::conv1d

// The launch of `tiled` (reference/conv1d/conv1d.cpp and its skeleton): team t computes
// out[t * tile, (t + 1) * tile) from its tile of a and a halo of taps - 1 elements in s_a and from
// b in s_b, both in team scratch. Only the launch and the scratch views: what fills and reads them
// is the lesson, and stays in `tiled`.
namespace kpz::conv1d {

template <class Space>
using TileScratch = ScratchView<float*, Space>;

// kpz::tile_launch with tiled's scratch: body(team, s_a, s_b, first) computes the outputs from
// first = t * launch.tile on, with s_a (tile + taps - 1 floats) and s_b (taps floats) carved from
// the team's scratch (tiled_scratch_bytes).
template <class Space, class Body>
void tiled_launch(const Space& space, const Launch& launch, const char* name, int n, int taps, Body body) {
  tile_launch(
      space, launch, name, n, tiled_scratch_bytes<Space>(launch.tile, taps),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const TileScratch<Space> s_a(team.team_scratch(0), tile.size + taps - 1);
        const TileScratch<Space> s_b(team.team_scratch(0), taps);
        body(team, s_a, s_b, tile.first);
      });
}

}  // namespace kpz::conv1d

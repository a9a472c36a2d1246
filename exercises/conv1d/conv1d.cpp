// conv1d exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run conv1d`
// (or the tests). Host builds race-check every pass; `kpuzzles trace conv1d --<variant>`
// draws the accesses. The solution is in reference/conv1d/, but try first: the hints are in
// docs/puzzles/conv1d.md. Generated from the reference: `kpuzzles reset conv1d` restores it
// (your work is kept as a backup).
#include "conv1d/conv1d.hpp"
#include "conv1d/launch.hpp"

namespace kpz::conv1d::exercise {

template <class Space>
void simple(const Space& space, int team_size, View<const float*, Space> a, View<const float*, Space> b,
            View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  // One team (CUDA: one block) of team_size members. Its level-0 scratch (CUDA: __shared__
  // memory) holds all of a and all of b: the views s_a and s_b below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 3 lines): make policy the launch the comment above describes: one team of
  //   team_size members, with a level-0 request, per team, for the bytes s_a and s_b carve.
  Kokkos::parallel_for(
      "conv1d::simple", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Scratch s_a(team.team_scratch(0), n);
        Scratch s_b(team.team_scratch(0), taps);
        // TODO(roughly 3 lines): stage a in s_a and the first `taps` values of b in s_b; then
        //   the team waits for both.
        // TODO(roughly 6 lines): every output out(i), i < n, of the convolution, computed from
        //   s_a and s_b; products that would read past the end of a are left out.
      });
}

template <class Space>
void tiled(const Space& space, const Launch& launch, View<const float*, Space> a, View<const float*, Space> b,
           View<float*, Space> out) {
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  const int tile = launch.tile;
  tiled_launch(
      space, launch, "conv1d::tiled", n, taps,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const TileScratch<Space>& s_a, const TileScratch<Space>& s_b,
                    int first) {
        // s_a(i) holds a(first + i) for i < tile + taps - 1: the tile and its halo; s_b(j) holds b(j).
        // TODO(roughly 6 lines): fill s_a and s_b as the comment above describes (zeros past
        //   the end of a); then the team waits for both.
        // TODO(roughly 6 lines): this team's outputs out(first + i), computed from s_a and s_b;
        //   the last team's tile may be cut short by n.
      });
}

template <class Space>
void general(const Space& space, const Launch& launch, View<const float*, Space> a, View<const float*, Space> b,
             View<float*, Space> out) {
  using Scratch = ScratchView<Quad*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  const int tap_quads = (taps + 3) / 4;                   // b, zero-padded to whole Quads
  const int a_quads = (launch.tile + 3) / 4 + tap_quads;  // the tile and its halo, in Quads
  tile_launch(
      space, launch, "conv1d::general", n, general_scratch_bytes<Space>(launch.tile, taps),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        // s_a(q).v[r] holds a(tile.first + 4q + r), zero past n; s_b(q).v[r] holds b(4q + r), zero
        // past taps.
        Scratch s_a(team.team_scratch(0), a_quads);
        Scratch s_b(team.team_scratch(0), tap_quads);
        // TODO(roughly 14 lines): fill every Quad of s_a and s_b as the comment above describes
        //   (zeros past n and taps), one store per Quad; then the team waits for both.
        // TODO(roughly 16 lines): this team's outputs, four consecutive ones per member, from
        //   s_a and s_b a Quad at a time; the last tile holds only tile.count of them, and nothing
        //   past it is written.
      });
}

// One source for both machines. The three levels: the team (CUDA: a block; OpenMP: one thread at
// the speed shape) owns a tile; its threads (CUDA: warps) take rows of outputs; each vector lane
// (CUDA: a lane of the warp; OpenMP: an iteration of a loop) takes U consecutive packs of outputs
// (U = packs_per_lane_v: 5 on a GPU, 4 on a CPU). A pack (kpz::Pack) is one float on a GPU, so a
// lane's outputs at neighbouring taps share inputs in registers; on a CPU a pack is a SIMD
// register of consecutive outputs.
template <class Space>
void vector_lanes(const Space& space, const Launch& launch, View<const float*, Space> a, View<const float*, Space> b,
                  View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  using P = Pack<float, Space>;
  constexpr int W = pack_width_v<float, Space>, U = packs_per_lane_v<Space>, L = kVectorLoads;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  const int lanes = launch.vector_length;
  const int row = vector_row<Space>(lanes);  // outputs per row: lanes x U packs of W
  const int staged = vector_staged<Space>(launch.tile, taps, lanes);
  tile_launch(
      space, launch, "conv1d::vector_lanes", n, vector_scratch_bytes<Space>(launch.tile, taps, lanes),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        // s_a(i) = a(tile.first + i) for i < staged (0 past n); s_b(j) = b(j).
        Scratch s_a(team.team_scratch(0), staged);
        Scratch s_b(team.team_scratch(0), taps);
        // TODO(roughly 12 lines): stage s_a as the comment above describes in Packs of W floats
        //   (load_pack, store_pack), L loads in flight per lane (TeamVectorRange); then s_b; then
        //   the team waits for both.
        // TODO(roughly 15 lines): this team's outputs in rows of `row`: a row per member, and
        //   in it U consecutive Packs of outputs per vector lane, kept in registers (Kokkos::fma);
        //   nothing past the tile is written.
      });
}

// Bug hunt: in the exercise, this function has a bug that passes on Serial by luck (on OpenMP it
// passes or fails from run to run). It keeps only b in scratch (every output of the team reuses
// all of it) and reads a straight from global memory. Build the trace preset and run
// `kpuzzles trace conv1d --bug-missing-barrier`: the diagram and the race report show what goes
// wrong; fix it.
template <class Space>
void bug_missing_barrier(const Space& space, const Launch& launch, View<const float*, Space> a,
                         View<const float*, Space> b, View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  tile_launch(
      space, launch, "conv1d::bug_missing_barrier", n, Scratch::shmem_size(taps),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const Scratch s_b(team.team_scratch(0), taps);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) {
          const int o = tile.first + i;
          const int last = Kokkos::min(taps, n - o);
          float sum = 0.0f;
          for (int j = 0; j < last; ++j) sum += a(o + j) * s_b(j);
          out(o) = sum;
        });
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_CONV1D_KERNELS)

}  // namespace kpz::conv1d::exercise

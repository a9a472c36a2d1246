// conv1d reference solution. exercises/conv1d/conv1d.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "conv1d/conv1d.hpp"
#include "conv1d/launch.hpp"

namespace kpz::conv1d::reference {

template <class Space>
void simple(const Space& space, int team_size, View<const float*, Space> a, View<const float*, Space> b,
            View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  // One team (CUDA: one block) of team_size members. Its level-0 scratch (CUDA: __shared__
  // memory) holds all of a and all of b: the views s_a and s_b below.
  TeamPolicy<Space> policy(space, 1, 1);
  // KPZ-TODO(roughly 3 lines): make policy the launch the comment above describes: one team of
  //   team_size members, with a level-0 request, per team, for the bytes s_a and s_b carve.
  policy = TeamPolicy<Space>(space, 1, team_size)
               .set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(n) + Scratch::shmem_size(taps)));
  // KPZ-END
  Kokkos::parallel_for(
      "conv1d::simple", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Scratch s_a(team.team_scratch(0), n);
        Scratch s_b(team.team_scratch(0), taps);
        // KPZ-TODO(roughly 3 lines): stage a in s_a and the first `taps` values of b in s_b; then
        //   the team waits for both.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) { s_a(i) = a(i); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 6 lines): every output out(i), i < n, of the convolution, computed from
        //   s_a and s_b; products that would read past the end of a are left out.
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
        // KPZ-TODO(roughly 6 lines): fill s_a and s_b as the comment above describes (zeros past
        //   the end of a); then the team waits for both.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile + taps - 1), [&](int i) {
          const int g = first + i;
          s_a(i) = g < n ? a(g) : 0.0f;
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 6 lines): this team's outputs out(first + i), computed from s_a and s_b;
        //   the last team's tile may be cut short by n.
        const int count = Kokkos::min(tile, n - first);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
          float sum = 0.0f;
          for (int j = 0; j < taps; ++j) sum += s_a(i + j) * s_b(j);
          out(first + i) = sum;
        });
        // KPZ-END
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
        // KPZ-TODO(roughly 14 lines): fill every Quad of s_a and s_b as the comment above describes
        //   (zeros past n and taps), one store per Quad; then the team waits for both.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, a_quads), [&](int q) {
          Quad x;
          for (int r = 0; r < 4; ++r) {
            const int g = tile.first + 4 * q + r;
            x.v[r] = g < n ? a(g) : 0.0f;
          }
          s_a(q) = x;
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tap_quads), [&](int q) {
          Quad x;
          for (int r = 0; r < 4; ++r) x.v[r] = 4 * q + r < taps ? b(4 * q + r) : 0.0f;
          s_b(q) = x;
        });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 16 lines): this team's outputs, four consecutive ones per member, from
        //   s_a and s_b a Quad at a time; the last tile holds only tile.count of them, and nothing
        //   past it is written.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (tile.count + 3) / 4), [&](int q) {
          float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          Quad lo = s_a(q);
          for (int t = 0; t < tap_quads; ++t) {
            const Quad hi = s_a(q + t + 1);
            const Quad w = s_b(t);
            const float window[8] = {lo.v[0], lo.v[1], lo.v[2], lo.v[3], hi.v[0], hi.v[1], hi.v[2], hi.v[3]};
            for (int r = 0; r < 4; ++r)
              for (int u = 0; u < 4; ++u) acc[r] += window[r + u] * w.v[u];
            lo = hi;
          }
          for (int r = 0; r < 4; ++r)
            if (4 * q + r < tile.count) out(tile.first + 4 * q + r) = acc[r];
        });
        // KPZ-END
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
        // KPZ-TODO(roughly 12 lines): stage s_a as the comment above describes in Packs of W floats
        //   (load_pack, store_pack), L loads in flight per lane (TeamVectorRange); then s_b; then
        //   the team waits for both.
        const int packs = (staged + W - 1) / W, chunks = (packs + L - 1) / L;
        const int present = Kokkos::min(staged, n - tile.first);  // inputs of a this team can read
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, chunks), [&](int c) {
          P x[L];  // all L loads issued before the first store: L loads in flight per lane
          for (int u = 0; u < L; ++u) {
            const int i = (c + u * chunks) * W;
            x[u] = load_pack<P>(a, tile.first + i, present - i);
          }
          for (int u = 0; u < L; ++u) {
            const int i = (c + u * chunks) * W;
            store_pack(s_a, i, x[u], staged - i);
          }
        });
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 15 lines): this team's outputs in rows of `row`: a row per member, and
        //   in it U consecutive Packs of outputs per vector lane, kept in registers (Kokkos::fma);
        //   nothing past the tile is written.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (tile.count + row - 1) / row), [&](int r) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](int l) {
            const int base = r * row + l * U * W;  // pack u starts at base + u * W
            P acc[U];
            for (int u = 0; u < U; ++u) acc[u] = P(0.0f);
            for (int k = 0; k < taps; ++k) {
              const P w(s_b(k));
              for (int u = 0; u < U; ++u) acc[u] = Kokkos::fma(w, load_pack<P>(s_a, base + u * W + k), acc[u]);
            }
            for (int u = 0; u < U; ++u) {
              const int i = base + u * W;
              store_pack(out, tile.first + i, acc[u], tile.count - i);
            }
          });
        });
        // KPZ-END
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
        // KPZ-BUG(the skeleton has no barrier here)
        team.team_barrier();
        // KPZ-END
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

}  // namespace kpz::conv1d::reference

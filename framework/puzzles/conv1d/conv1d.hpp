#pragma once
// conv1d: out[i] = sum over j < K with i + j < N of a[i + j] * b[j] (terms past the end are 0).
// The kernel signatures (signatures.inc) are implemented twice, with the same text: by the learner
// in exercises/conv1d/ (namespace kpz::conv1d::exercise) and in reference/conv1d/
// (namespace kpz::conv1d::reference).
#include <algorithm>
#include <cstddef>

#include "conv1d/signatures.inc"
#include "kpz/backend_traits.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/quad.hpp"
#include "kpz/simd_pack.hpp"
#include "kpz/spaces.hpp"
#include "kpz/tile_grid.hpp"
#include "kpz/types.hpp"

namespace kpz::conv1d {

// What the host side decides before a launch (CUDA: the block size and the outputs per block).
struct Launch {
  int team_size;          // team members per team
  int tile;               // outputs computed by one team
  int vector_length = 1;  // vector lanes per member (`vector_lanes`; the other kernels use 1)
};

// Taps that can ever meet a nonzero input: K > N adds nothing past N.
inline int effective_taps(std::size_t n, std::size_t k) {
  return static_cast<int>(std::min(n, k));
}

// Level-0 scratch one team of `tiled` asks for: its tile of a plus a halo of taps-1, and b.
template <class Space>
std::size_t tiled_scratch_bytes(int tile, int taps) {
  using S = ScratchView<float*, Space>;
  return S::shmem_size(tile + taps - 1) + S::shmem_size(taps);
}

// Four consecutive floats in one 16-byte scratch word: one shared-memory load brings four
// values (CUDA: LDS.128), and staging four inputs per member keeps four global loads in flight.
using Quad = kpz::Quad<float>;

// Level-0 scratch one team of `general` asks for, in Quads: the tile rounded up to whole
// Quads plus ceil(taps/4) Quads of halo, and b zero-padded to whole Quads.
template <class Space>
std::size_t general_scratch_bytes(int tile, int taps) {
  using S = ScratchView<Quad*, Space>;
  const int tap_quads = (taps + 3) / 4;
  return S::shmem_size((tile + 3) / 4 + tap_quads) + S::shmem_size(tap_quads);
}

// Outputs per team of the general kernel: large enough to amortise the halo, small enough
// for level-0 scratch; halved while a long filter needs the room. Measured on an H100:
// 2048 is the best compromise for K = 3 and K = 16 (benchmarks/results/conv1d-notes.md).
template <class Space>
int default_tile(int team_size, int taps) {
  int tile = is_gpu_v<Space> ? 2048 : 4096;
  const std::size_t limit = scratch_size_max<Space>(0);
  while (tile > team_size && general_scratch_bytes<Space>(tile, taps) > limit) tile /= 2;
  return tile;
}

// `vector_lanes` gives each vector lane packs_per_lane_v<Space> consecutive packs of outputs
// (kpz/simd_pack.hpp: a SIMD pack on a CPU, one float on a GPU) and keeps their sums in registers
// while it runs over the taps: every tap's weight is read once per lane and row, and on a CPU
// every tap is one fused multiply-add per pack. On a GPU the packs are single floats, so a lane's
// consecutive outputs at taps k and k + 1 share all but one input: once the compiler unrolls the
// taps, it loads each input from shared memory once per lane, not once per output. Five, an odd
// number, keeps the 32 lanes of a warp, 5 floats apart, on 32 different shared-memory banks (4
// would put 4 lanes on one bank). It stages its tile with kVectorLoads packs per lane loaded
// before the first store, so that a GPU has several loads in flight.
inline constexpr int kPacksPerLane = 4;  // CPU and trace build: 4 SIMD registers of sums per lane
inline constexpr int kGpuPacksPerLane = 5;
template <class Space>
inline constexpr int packs_per_lane_v = is_gpu_v<Space> ? kGpuPacksPerLane : kPacksPerLane;
inline constexpr int kVectorLoads = 4;

// Outputs one row of `vector_lanes` computes: lanes x packs_per_lane_v packs.
template <class Space>
int vector_row(int lanes) {
  return lanes * packs_per_lane_v<Space> * pack_width_v<float, Space>;
}

// Inputs one team of `vector_lanes` stages: its tile rounded up to whole rows (the last row's
// packs read that far) plus the halo of taps - 1.
template <class Space>
int vector_staged(int tile, int taps, int lanes) {
  const int row = vector_row<Space>(lanes);
  return (tile + row - 1) / row * row + taps - 1;
}

// Level-0 scratch one team of `vector_lanes` asks for: the staged inputs (zeros past N) and b.
template <class Space>
std::size_t vector_scratch_bytes(int tile, int taps, int lanes) {
  using S = ScratchView<float*, Space>;
  return S::shmem_size(vector_staged<Space>(tile, taps, lanes)) + S::shmem_size(taps);
}

// The tile `vector_lanes` runs with: the launch shape's, halved while a long filter needs the
// room in level-0 scratch (CUDA: 48 KiB per block).
template <class Space>
int vector_tile(int wanted, int taps, int lanes) {
  return halved_to_fit<Space>(wanted, [&](int tile) { return vector_scratch_bytes<Space>(tile, taps, lanes); });
}

// Fewest bytes any conv1d kernel moves: read a and b once, write out once.
inline double bytes_moved(std::size_t n, std::size_t k) {
  return static_cast<double>(sizeof(float)) * (2.0 * static_cast<double>(n) + static_cast<double>(k));
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_CONV1D_KERNELS)

}  // namespace kpz::conv1d

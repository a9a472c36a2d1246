#pragma once
// What conv1d's kernels ask of their launch (kpz/launch_shape.hpp answers per backend); shared by
// `kpuzzles run/check` (spec.cpp, Purpose::check) and `kpuzzles bench` (Purpose::speed).
#include "kpz/launch_shape.hpp"

namespace kpz::conv1d {

// simple, tiled, general and the bug hunt: one lane per member, the tile chosen per kernel.
inline KernelNeeds scalar_needs() {
  KernelNeeds needs;
  needs.gpu_team = 256;
  needs.gpu_vector = 1;
  needs.host_vector = 1;
  return needs;
}

// vector_lanes. GPU: 8 warps of 32 lanes (256 threads, as `general`), 2048 outputs per block, so
// several blocks fit an SM's shared memory. CPU: 64 lanes, the length of the SIMD loop the
// compiler builds (32 and 64 measured best on the 2-core VM, 16 about 15 % slower), and 2048
// outputs per team: the tile, b and the running sums (about 16 KiB) stay in L1 while they are
// reused, and fit Kokkos' 32 KiB host scratch_size_max(0) (4096 would not, with the sums).
inline KernelNeeds vector_needs() {
  KernelNeeds needs;
  needs.gpu_team = 8;
  needs.gpu_vector = 32;
  needs.gpu_tile = 2048;
#if defined(KPZ_TRACE)
  needs.host_vector = 4;  // the trace build draws every lane: 4 members of 4 lanes fit a diagram
#else
  needs.host_vector = 64;
#endif
  needs.host_tile = 2048;
  return needs;
}

}  // namespace kpz::conv1d

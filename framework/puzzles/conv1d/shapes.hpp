#pragma once
// What conv1d's kernels ask of their launch (kpz/launch_shape.hpp answers per backend); shared by
// `kpuzzles run/check` (spec.cpp, Purpose::check) and `kpuzzles bench` (Purpose::speed).
#include "kpz/launch_shape.hpp"

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
  KernelNeeds needs;
  needs.gpu_team = 8;
  needs.gpu_vector = 32;
  needs.gpu_tile = 5760;
#if defined(KPZ_TRACE)
  needs.host_vector = 4;  // the trace build draws every lane: 4 members of 4 lanes fit a diagram
#else
  needs.host_vector = 1;
#endif
  needs.host_tile = 2048;
  return needs;
}

}  // namespace kpz::conv1d

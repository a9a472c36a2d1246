#pragma once
// @name@: out = each tile of `in` reversed, tile by tile, one team per tile (replace this line
// with what your puzzle computes). The kernels below are implemented twice, with the same text:
// by the learner in exercises/@name@/ and in reference/@name@/.
#include <cstddef>

#include "kpz/kernel_table.hpp"
#include "kpz/spaces.hpp"
#include "kpz/tile_grid.hpp"
#include "kpz/types.hpp"

namespace kpz::@ns@ {

// Level-0 scratch one team asks for: its tile of floats (CUDA: __shared__ float s[tile]).
template <class Space>
std::size_t tile_scratch_bytes(int tile) {
  return ScratchView<float*, Space>::shmem_size(static_cast<std::size_t>(tile));
}

// The kernels, listed once (kpz/kernel_table.hpp): declarations, instantiations, the table.
#define KPZ_@NS@_KERNELS(KERNEL, Space)                                                       \
  /* out(first + i) = in(first + count - 1 - i) for every tile [first, first + count): the   \
     team stages its tile in scratch, waits, and writes it reversed. Scratch:                \
     tile_scratch_bytes. */                                                                   \
  KERNEL(tiled, (const Space& space, const ::kpz::LaunchShape& launch, ::kpz::View<const float*, Space> in, \
                 ::kpz::View<float*, Space> out))

KPZ_KERNELS(KPZ_@NS@_KERNELS)

}  // namespace kpz::@ns@

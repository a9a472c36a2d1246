#pragma once
// basics: the on-ramp, one small kernel per Kokkos concept (Views and deep_copy, RangePolicy,
// MDRangePolicy, reducers, scans, atomics and ScatterView, TeamPolicy, team scratch, vector
// lanes). The kernel signatures (signatures.inc) are implemented twice, with the same text: by
// the learner in exercises/basics/ (namespace kpz::basics::exercise) and in reference/basics/
// (namespace kpz::basics::reference).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstddef>

#include "basics/signatures.inc"
#include "kpz/kernel_table.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

namespace kpz::basics {

// A View in host memory: `--views` hands its kernel the host's data in these.
template <class DataType>
using HostView = Kokkos::View<DataType, Kokkos::HostSpace>;

// What `reduce` finds: one built-in reduction (the maximum) and one min-loc reduction.
struct Extremes {
  float max;
  float min;
  int min_index;
};

// `axpy` launches whole blocks of kBlock indices, as a CUDA grid of kBlock-thread blocks
// would: the indices past N are the ones its guard must skip.
inline constexpr int kBlock = 128;
inline int padded_range(int n) {
  return (n + kBlock - 1) / kBlock * kBlock;
}

// What the host decides before a team launch (CUDA: the block size and the elements per block).
struct Launch {
  int team_size;          // team members per team
  int tile;               // elements (row_dots: rows) owned by one team
  int vector_length = 1;  // vector lanes per member (CUDA: threadIdx.x of a block of lanes x members)
};

// Level-0 scratch one team of `scratch_reverse` asks for: its tile of floats.
template <class Space>
std::size_t scratch_bytes(int tile) {
  return ScratchView<float*, Space>::shmem_size(tile);
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BASICS_KERNELS)

}  // namespace kpz::basics

// Compile the kernels of one file of an implementation for execution space S (used with
// KPZ_FOR_EACH_SPACE at the end of that file).
#define KPZ_BASICS_INSTANTIATE_RANGES(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_RANGE_KERNELS, S)
#define KPZ_BASICS_INSTANTIATE_REDUCTIONS(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_REDUCTION_KERNELS, S)
#define KPZ_BASICS_INSTANTIATE_TEAMS(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TEAM_KERNELS, S)

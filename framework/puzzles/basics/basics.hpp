#pragma once
// basics: the on-ramp, one small kernel per Kokkos concept (Views and deep_copy, RangePolicy,
// MDRangePolicy, subviews, reducers and a custom reducer, scans, atomics and ScatterView,
// TeamPolicy, team scratch, vector lanes). The kernel signatures (signatures.inc) are implemented twice, with the same text: by
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

// A matrix stored row by row on every backend (a plain 2D View takes its space's default layout,
// LayoutLeft on a GPU): row r is contiguous, column c has a stride of cols elements.
template <class T, class Space>
using RowMajor = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

// Any rank-1 View in Space's memory, contiguous or not (LayoutStride keeps a stride per index): a
// row and a column of a RowMajor matrix both convert to it.
template <class T, class Space>
using Strided = Kokkos::View<T*, Kokkos::LayoutStride, typename Space::memory_space>;

// Given to `subviews` (a 1D routine, as a library offers one): total() becomes the sum of v, on
// `space`, without waiting. total is a single element (a rank-0 View).
template <class Space>
void sum_1d(const Space& space, Strided<const float, Space> v,
            Kokkos::View<float, typename Space::memory_space> total) {
  Kokkos::parallel_reduce(
      "basics::sum_1d", Kokkos::RangePolicy<Space>(space, 0, v.extent(0)),
      KOKKOS_LAMBDA(int i, float& sum) { sum += v(i); }, total);
}

// Where `subviews`' block starts in its matrix.
struct Corner {
  int row;
  int col;
};

// What `reduce` finds: one built-in reduction (the maximum) and one min-loc reduction.
struct Extremes {
  float max;
  float min;
  int min_index;
};

// A summary of some values that two summaries can be merged into (Welford, Chan et al.): how many
// values, their mean and m2, the sum of their squared deviations from the mean (the variance is
// m2 / count). The summary of no values is {0, 0, 0}.
struct Moments {
  int count;
  float mean;
  float m2;
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

// `histogram_levels`: the most bins of a table of int counters that level-0 scratch holds on Space
// (CUDA: 48 KiB a block, less what Kokkos keeps; host backends: 32 KiB), at most `bins`.
template <class Space>
int level0_bins_max(int bins) {
  int fit = 0;
  for (int step = 1 << 30; step > 0; step /= 2)
    if (fit + step <= bins && ScratchView<int*, Space>::shmem_size(fit + step) <= scratch_size_max<Space>(0))
      fit += step;
  return fit;
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BASICS_KERNELS)

}  // namespace kpz::basics

// Compile the kernels of one file of an implementation for execution space S (used with
// KPZ_FOR_EACH_SPACE at the end of that file).
#define KPZ_BASICS_INSTANTIATE_RANGES(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_RANGE_KERNELS, S)
#define KPZ_BASICS_INSTANTIATE_REDUCTIONS(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_REDUCTION_KERNELS, S)
#define KPZ_BASICS_INSTANTIATE_TEAMS(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TEAM_KERNELS, S)
#define KPZ_BASICS_INSTANTIATE_LEVELS(S) KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_LEVEL_KERNELS, S)

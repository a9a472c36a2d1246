#pragma once
// The names kernels use for their data and their team. In normal builds they are plain Kokkos
// types. In the trace build (KPZ_TRACE, `cmake --preset trace`) they become recording versions
// (framework/include/kpz/trace/) without any change to the exercise sources: docs/tracing.md.
#include <Kokkos_Core.hpp>

#if defined(KPZ_TRACE)
#include "kpz/trace/team.hpp"
#endif

namespace kpz {

#if !defined(KPZ_TRACE)

// A View in the memory of execution space Space (global memory on a GPU).
template <class DataType, class Space>
using View = Kokkos::View<DataType, typename Space::memory_space>;

// A team-private View carved out of team scratch (CUDA __shared__ memory at level 0).
template <class DataType, class Space>
using ScratchView = Kokkos::View<DataType, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

template <class Space>
using TeamPolicy = Kokkos::TeamPolicy<Space>;

// A team policy with CUDA's __launch_bounds__: at most MaxThreads threads a block, and registers
// few enough for MinBlocks blocks per multiprocessor. Host backends ignore the bounds. Kokkos
// refuses a bounded launch with more threads, or with scratch that leaves room for fewer blocks:
// ask the bounded policy's team_size_max(functor, Kokkos::ParallelForTag()) first (0: refused).
template <class Space, int MaxThreads, int MinBlocks>
using BoundedTeamPolicy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<MaxThreads, MinBlocks>>;

// One team member (CUDA: one thread of a block) as seen inside a team kernel.
template <class Space>
using TeamMember = typename Kokkos::TeamPolicy<Space>::member_type;

#else

template <class DataType, class Space>
using View = trace::View<DataType, Space>;

template <class DataType, class Space>
using ScratchView = trace::ScratchView<DataType, Space>;

template <class Space>
using TeamPolicy = trace::TeamPolicy<Space>;

template <class Space, int MaxThreads, int MinBlocks>
using BoundedTeamPolicy = trace::TeamPolicy<Space>;  // the bounds are a GPU register hint

template <class Space>
using TeamMember = trace::Member<Space>;

#endif

}  // namespace kpz

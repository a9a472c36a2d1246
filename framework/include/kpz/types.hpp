#pragma once
// The names kernels use for their data and their team. Today they are plain Kokkos types;
// they exist so that a trace build can swap in recording versions without touching the
// exercise sources (see docs/tracing.md once it exists).
#include <Kokkos_Core.hpp>

namespace kpz {

// A View in the memory of execution space Space (global memory on a GPU).
template <class DataType, class Space>
using View = Kokkos::View<DataType, typename Space::memory_space>;

// A team-private View carved out of team scratch (CUDA __shared__ memory at level 0).
template <class DataType, class Space>
using ScratchView =
    Kokkos::View<DataType, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

template <class Space>
using TeamPolicy = Kokkos::TeamPolicy<Space>;

// One team member (CUDA: one thread of a block) as seen inside a team kernel.
template <class Space>
using TeamMember = typename Kokkos::TeamPolicy<Space>::member_type;

}  // namespace kpz

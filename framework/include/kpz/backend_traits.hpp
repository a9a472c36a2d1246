#pragma once
// What code may assume about the backend it is compiled for: the one place that asks which
// execution space is CUDA, which has GPU teams, and when a team is made of whole CUDA warps.
// Tuning and warp paths ask these traits, never a space's name.
//
// Device-only code is guarded one way everywhere: KOKKOS_IF_ON_DEVICE / KOKKOS_IF_ON_HOST pick
// between device and host code; KPZ_CUDA_ARCH (below) guards instructions that need a minimum
// CUDA architecture, which those macros cannot express.
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "kpz/errors.hpp"

// The CUDA architecture the current compilation pass generates code for (800 for sm_80, 900 for
// sm_90), 0 in host code and in builds without CUDA. For `#if KPZ_CUDA_ARCH >= 900` around PTX
// that older architectures cannot assemble.
#if defined(__CUDA_ARCH__)
#define KPZ_CUDA_ARCH __CUDA_ARCH__
#else
#define KPZ_CUDA_ARCH 0
#endif

namespace kpz {

// True for Kokkos::Cuda in a build that enables it.
template <class Space>
inline constexpr bool is_cuda_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<Space, Kokkos::Cuda>;
#else
    false;
#endif

// True for execution spaces whose teams are GPU thread blocks (only CUDA in this project). The
// trace build (KPZ_TRACE) runs every kernel on its own host executor: no GPU there.
template <class Space>
inline constexpr bool is_gpu_v =
#if defined(KPZ_TRACE)
    false;
#else
    is_cuda_v<Space>;
#endif

inline constexpr int kWarpSize = 32;

// True where a team of `team_size` members is made of whole CUDA warps, so that the team
// collectives' warp paths (XorExchange, OrderedScan, BallotBinRank, BallotSelect) may run: a GPU
// team and a team size that is a multiple of 32. The warp paths then take team rank r to be lane
// r % 32 of warp r / 32, which holds for vector length 1 only: check_warp_launch() checks that
// before a launch.
template <class Space>
KOKKOS_INLINE_FUNCTION constexpr bool warp_groups(int team_size) {
  if constexpr (is_gpu_v<Space>) {
    return team_size % kWarpSize == 0;
  } else {
    (void)team_size;
    return false;
  }
}

// Kokkos lays a CUDA team out as a block of vector_length x team_size threads (threadIdx.x the
// vector lane, threadIdx.y the team rank), so team ranks are consecutive threads of a warp only
// with vector length 1. Called on the host before launching a kernel that may take a warp path;
// throws UsageError where the warp path would run with any other vector length.
template <class Space>
void check_warp_launch(int team_size, int vector_length) {
  if (warp_groups<Space>(team_size) && vector_length != 1)
    throw UsageError("a team of " + std::to_string(team_size) +
                     " members takes the warp path, which needs vector length 1 (team rank r is" +
                     " then lane r % 32 of warp r / 32); got vector length " + std::to_string(vector_length));
}

// The same check for the policy a kernel is about to be launched with.
template <class Policy>
void check_warp_launch(const Policy& policy) {
  using Space = typename Policy::execution_space;
  check_warp_launch<Space>(policy.team_size(), policy.impl_vector_length());
}

}  // namespace kpz

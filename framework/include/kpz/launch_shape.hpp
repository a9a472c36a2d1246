#pragma once
// Launch shapes: the one place that decides, per backend, how a team kernel is launched (team
// size, vector length, tile). A puzzle states what its kernel needs (KernelNeeds); the framework
// answers for the backend it runs on, and the user's --team-size / --vector-length override it.
//
// Why the answer differs by backend and by purpose:
// - On a GPU a team is a thread block: many members, barriers in hardware, vector lanes are the
//   lanes of a warp. The GPU shape is the same for checking and for timing.
// - On a CPU a team is a group of OS threads: every team_barrier synchronises those cores, and
//   vector lanes are a loop the compiler can turn into SIMD instructions. Timing wants Kokkos'
//   own recommendation (team_size_recommended: one thread per team on OpenMP), so that barriers
//   cost nothing and the innermost ThreadVectorRange loop is the one that is vectorised.
// - A correctness check on a CPU wants the opposite: teams of as many members as the backend
//   gives, so that a missing barrier or a race between members shows (OMP_NUM_THREADS=8).
#include <Kokkos_Core.hpp>

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "kpz/backend_traits.hpp"
#include "kpz/errors.hpp"
#include "kpz/kernel_needs.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"

namespace kpz {

// The user's overrides; 0 lets the framework choose.
struct ShapeRequest {
  int team_size = 0;
  int vector_length = 0;
};

// Largest vector length a team kernel may use on Space (CUDA: 32, a warp; host: Kokkos' own
// vector_length_max, a loop length).
template <class Space>
int vector_length_max() {
#if defined(KPZ_TRACE)
  return trace::kMaxVectorLength;  // the trace executor's lanes (Serial underneath)
#else
  return Kokkos::TeamPolicy<Space>::vector_length_max();
#endif
}

// Largest team for a simple kernel with this vector length.
template <class Space>
int team_size_max(const Space& space, int vector_length) {
#if defined(KPZ_TRACE)
  (void)vector_length;
  return team_size_max(space);
#else
  Kokkos::TeamPolicy<Space> policy(space, 1, 1, vector_length);
  return policy.team_size_max(detail::SampleTeamFunctor{}, Kokkos::ParallelForTag{});
#endif
}

// Kokkos' recommended team size for a simple kernel (OpenMP: one thread per team).
template <class Space>
int team_size_recommended(const Space& space, int vector_length) {
#if defined(KPZ_TRACE)
  (void)space;
  (void)vector_length;
  return 1;
#else
  Kokkos::TeamPolicy<Space> policy(space, 1, 1, vector_length);
  return policy.team_size_recommended(detail::SampleTeamFunctor{}, Kokkos::ParallelForTag{});
#endif
}

// Raised for a user override the backend cannot honour; the CLI maps it to the flag.
struct ShapeError : UsageError {
  using UsageError::UsageError;
};

// f(std::integral_constant<int, count>{}) for the loads-in-flight counts a kernel is compiled for
// (LaunchShape::in_flight), so that the kernel holds its loads in an array whose size the compiler
// knows: registers on a GPU.
template <class F>
void with_in_flight(int count, F&& f) {
  switch (count) {
    case 1:
      f(std::integral_constant<int, 1>{});
      return;
    case 4:
      f(std::integral_constant<int, 4>{});
      return;
    case 8:
      f(std::integral_constant<int, 8>{});
      return;
    default:
      throw ShapeError("loads in flight " + std::to_string(count) + " is not compiled: use 1, 4 or 8");
  }
}

namespace detail {
inline int floor_pow2(int v) {
  int p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}
inline bool is_pow2(int v) {
  return v > 0 && (v & (v - 1)) == 0;
}
}  // namespace detail

// Vector lanes the trace build gives a kernel with vector loops, at least (4 members of 4 lanes
// still fit a diagram).
inline constexpr int kTraceVectorLanes = 4;

template <class Space>
LaunchShape launch_shape(const Space& space, const KernelNeeds& needs, const ShapeRequest& req, Purpose purpose) {
  constexpr bool gpu = is_gpu_v<Space>;
  const std::string where(space_name<Space>());
  LaunchShape shape;

  if (!needs.vector_loops && (needs.gpu_vector > 1 || needs.host_vector > 1))
    throw std::logic_error("KernelNeeds asks for vector lanes without vector_loops");
  if (!needs.vector_loops && req.vector_length > 1)
    throw ShapeError("--vector-length " + std::to_string(req.vector_length) +
                     " is not allowed for this kernel: it has no vector loops, so every lane of a member would run "
                     "the member's whole body, a race on what it writes (use 1; the variants with vector loops take "
                     "more)");
  const int vmax = vector_length_max<Space>();
  if (req.vector_length != 0) {
    if (req.vector_length < 1 || req.vector_length > vmax || !detail::is_pow2(req.vector_length))
      throw ShapeError("vector length " + std::to_string(req.vector_length) + " is not allowed on " + where +
                       ": use a power of two from 1 to " + std::to_string(vmax));
    shape.vector_length = req.vector_length;
  } else {
    int wanted = gpu ? needs.gpu_vector : needs.host_vector;
#if defined(KPZ_TRACE)
    // The trace build (and the race check of every pass, which runs it) judges a kernel with
    // vector loops on several lanes, as a GPU runs it: with one lane, a write every lane makes or
    // two lanes sharing an element could not show.
    if (needs.vector_loops && wanted < kTraceVectorLanes) wanted = kTraceVectorLanes;
#endif
    shape.vector_length = detail::floor_pow2(wanted < 1 ? 1 : (wanted > vmax ? vmax : wanted));
    // A team size the user asked for wins over the kernel's preferred lanes: a GPU block holds
    // team * vector threads, so fewer lanes make room for the members.
    while (req.team_size > 0 && shape.vector_length > 1 && req.team_size > team_size_max(space, shape.vector_length))
      shape.vector_length /= 2;
  }

  const int tmax = team_size_max(space, shape.vector_length);
  if (req.team_size != 0) {
    if (req.team_size < 1 || req.team_size > tmax)
      throw ShapeError("team size " + std::to_string(req.team_size) + " is not allowed on " + where +
                       " with vector length " + std::to_string(shape.vector_length) + ": use 1.." +
                       std::to_string(tmax) + (gpu ? "" : " (CPU teams are bounded by the thread count)"));
    if (needs.power_of_two_team && !detail::is_pow2(req.team_size))
      throw ShapeError("team size " + std::to_string(req.team_size) + " must be a power of two for this kernel");
    shape.team_size = req.team_size;
  } else {
    int t = gpu ? needs.gpu_team
                : (purpose == Purpose::speed ? team_size_recommended(space, shape.vector_length) : needs.check_team);
    t = t < tmax ? t : tmax;
    if (needs.power_of_two_team) t = detail::floor_pow2(t);
    shape.team_size = t < 1 ? 1 : t;
  }
  shape.tile = gpu ? needs.gpu_tile : needs.host_tile;
  // A check on a CPU runs the GPU's count, so that a laptop judges the code a GPU runs (the rows
  // a thread holds at once, and their guards at the tile's edges).
  shape.in_flight = gpu || purpose == Purpose::check ? needs.gpu_in_flight : needs.host_in_flight;
  return shape;
}

// The shape for a request of `kpuzzles run` / `check` (RunRequest: Purpose::check unless bench
// runs it) or of `kpuzzles bench` (BenchRequest: Purpose::speed), with the user's --team-size and
// --vector-length.
template <class Space, class Request>
requires std::same_as<std::remove_cvref_t<decltype(std::declval<const Request&>().purpose)>, Purpose> LaunchShape
launch_shape(const Space& space, const KernelNeeds& needs, const Request& req) {
  return launch_shape(space, needs, ShapeRequest{req.team_size, req.vector_length}, req.purpose);
}

}  // namespace kpz

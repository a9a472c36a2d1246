#pragma once
// The execution spaces this build enabled, by name, and what each allows a team kernel.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "kpz/errors.hpp"
#include "kpz/space_names.hpp"

#if defined(KPZ_TRACE)
#include "kpz/trace/runtime.hpp"
#endif

// KPZ_FOR_EACH_SPACE(M) expands M(Space) once per enabled execution space, and
// KPZ_FOR_EACH_SPACE_WITH(M, A) expands M(A, Space): every kernel template is compiled for every
// backend (KPZ_INSTANTIATE_KERNELS, kpz/kernel_table.hpp). The trace build (KPZ_TRACE) runs its
// own team executor on top of Serial only. KPZ_IF_<SPACE>(M, ARGS) is M(ARGS Space), where ARGS
// is empty or ends with a comma.
#if defined(KOKKOS_ENABLE_SERIAL)
#define KPZ_IF_SERIAL(M, ...) M(__VA_ARGS__ Kokkos::Serial)
#define KPZ_SPACE_SERIAL 1
#else
#define KPZ_IF_SERIAL(M, ...)
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(KPZ_TRACE)
#define KPZ_IF_OPENMP(M, ...) M(__VA_ARGS__ Kokkos::OpenMP)
#define KPZ_SPACE_OPENMP 1
#else
#define KPZ_IF_OPENMP(M, ...)
#endif
// Kokkos' Threads backend (std::thread): the host-parallel backend without OpenMP (a stock
// Apple clang). Kokkos enables at most one of OpenMP and Threads.
#if defined(KOKKOS_ENABLE_THREADS) && !defined(KPZ_TRACE)
#define KPZ_IF_THREADS(M, ...) M(__VA_ARGS__ Kokkos::Threads)
#define KPZ_SPACE_THREADS 1
#else
#define KPZ_IF_THREADS(M, ...)
#endif
#if defined(KOKKOS_ENABLE_CUDA) && !defined(KPZ_TRACE)
#define KPZ_IF_CUDA(M, ...) M(__VA_ARGS__ Kokkos::Cuda)
#define KPZ_SPACE_CUDA 1
#else
#define KPZ_IF_CUDA(M, ...)
#endif
#define KPZ_FOR_EACH_SPACE(M) KPZ_IF_SERIAL(M, ) KPZ_IF_OPENMP(M, ) KPZ_IF_THREADS(M, ) KPZ_IF_CUDA(M, )
#define KPZ_FOR_EACH_SPACE_WITH(M, A) \
  KPZ_IF_SERIAL(M, A, ) KPZ_IF_OPENMP(M, A, ) KPZ_IF_THREADS(M, A, ) KPZ_IF_CUDA(M, A, )

namespace kpz {

// Kokkos' name of an execution space, lower-cased: "serial", "openmp", "threads", "cuda" (the
// values of --space and of the reports' "space").
std::string lowercase_space_name(const char* kokkos_name);

template <class Space>
std::string_view space_name() {
  static const std::string name = lowercase_space_name(Space::name());
  return name;
}

// True when TeamThreadRange hands out indices cyclically (GPU) rather than in contiguous
// blocks (host backends). Used only to report which member owned a wrong element.
bool team_range_is_cyclic(std::string_view space);

// Calls f(Space{}) for the space called `name`; throws UsageError for other names.
template <class F>
decltype(auto) with_space(std::string_view name, F&& f) {
#define KPZ_WITH_SPACE_(S) \
  if (name == space_name<S>()) return f(S{});
  KPZ_FOR_EACH_SPACE(KPZ_WITH_SPACE_)
#undef KPZ_WITH_SPACE_
  throw UsageError("unknown or disabled execution space '" + std::string(name) +
                   "'; this build has: " + join(enabled_space_names(), ", "));
}

namespace detail {
struct SampleTeamFunctor {
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member&) const {}
};
}  // namespace detail

// Largest team a simple team kernel can use on Space (Serial: 1; OpenMP and Threads: bounded by
// the thread count; CUDA: by the block size).
template <class Space>
int team_size_max(const Space& space) {
#if defined(KPZ_TRACE)
  (void)space;
  return trace::kMaxTeamSize;  // the trace executor runs any team size on Serial
#else
  Kokkos::TeamPolicy<Space> policy(space, 1, 1);
  return policy.team_size_max(detail::SampleTeamFunctor{}, Kokkos::ParallelForTag{});
#endif
}

template <class Space>
std::size_t scratch_size_max(int level) {
  return static_cast<std::size_t>(Kokkos::TeamPolicy<Space>::scratch_size_max(level));
}

// Throws UsageError when a team kernel would ask for more level-`level` scratch than the
// backend provides (Kokkos would otherwise hand out null scratch pointers silently). `what` names
// the kernel: a string, or a callable returning one, called only on a refusal (launches are
// timed: the message costs nothing when the request fits); `hint` ends the message.
template <class Space, class What>
void check_scratch(std::size_t bytes, int level, const What& what, std::string_view hint = {}) {
  const std::size_t limit = scratch_size_max<Space>(level);
  if (bytes <= limit) return;
  std::string message;
  if constexpr (std::is_invocable_v<const What&>)
    message = what();
  else
    message = what;
  throw UsageError(message + " needs " + std::to_string(bytes) + " bytes of level-" + std::to_string(level) +
                   " team scratch per team; " + std::string(space_name<Space>()) + " allows " + std::to_string(limit) +
                   std::string(hint));
}

// check_scratch for a size the user chose with `option` (= value): bytes_of(x) is the kernel's
// scratch with option = x, nondecreasing in x. A refusal also names the largest value (a multiple
// of `step`) that fits, found by bisection only when the user's value does not. Returns
// bytes_of(value), so that a launch computes its request once.
template <class Space, class What, class BytesOf>
std::size_t check_scratch_option(const What& what, std::string_view option, int value, int level,
                                 const BytesOf& bytes_of, int step = 1) {
  const std::size_t limit = scratch_size_max<Space>(level);
  const std::size_t bytes = bytes_of(value);
  if (bytes <= limit) return bytes;
  int lo = 0, hi = value;  // bytes_of(lo) fits, or lo == 0
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (bytes_of(mid) <= limit)
      lo = mid;
    else
      hi = mid - 1;
  }
  lo = lo / step * step;
  check_scratch<Space>(bytes, level, what,
                       "; " + std::string(option) + " up to " + std::to_string(lo) + " fits" +
                           (step > 1 ? " (a multiple of " + std::to_string(step) + ")" : ""));
  return bytes;  // not reached: check_scratch throws
}

// What a PuzzleSpec's `run` or a BenchSpec's `run` is for most puzzles: a callable taking the
// request, that calls fn(space, req) with the execution space req.space names
// (`spec.run = KPZ_ON_REQUEST_SPACE(run_on);` with `template <class Space> RunReport run_on(const
// Space&, const RunRequest&)`). A macro because fn is a template, which cannot be passed as such.
#define KPZ_ON_REQUEST_SPACE(fn) \
  [](const auto& req) { return ::kpz::with_space(req.space, [&](const auto& space) { return fn(space, req); }); }

// A size the framework picks (a tile), not the user: `wanted`, halved while a team kernel's
// level-0 scratch bytes_of(size) does not fit on Space (CUDA: 48 KiB a block; host: 32 KiB).
template <class Space, class BytesOf>
int halved_to_fit(int wanted, const BytesOf& bytes_of) {
  int size = wanted;
  while (size > 1 && bytes_of(size) > scratch_size_max<Space>(0)) size /= 2;
  return size;
}

}  // namespace kpz

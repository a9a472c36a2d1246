#pragma once
// Copies 4-byte elements from global memory straight into team scratch, without holding them in
// registers: on CUDA sm_80 and later one `cp.async` per element (LDGSTS, what CUB's newer block
// loads use), elsewhere a plain copy. A member issues as many copies as it likes (they are all in
// flight at once, whatever the registers), then calls wait_copies(), after which its own copies
// have landed; a team barrier after that publishes them to the team.
//
// Why: staging a tile through registers holds every loaded word in a register until its store,
// so the loads one member keeps in flight cost registers, and registers cost teams per SM (the
// segscan merge path measured this: 4 quads per member in flight was the best trade).
#include <Kokkos_Core.hpp>

#include "kpz/backend_traits.hpp"

namespace kpz::team {

namespace detail {
// Elements consecutive 4-byte elements: 1 (`cp.async.ca`, 4 bytes) or 4 (`cp.async.cg`, 16 bytes).
template <int Elements, class T>
KOKKOS_INLINE_FUNCTION void copy_async_elements(T* scratch_dst, const T* global_src) {
  static_assert(sizeof(T) == 4, "copy_async moves 4-byte elements");
  static_assert(Elements == 1 || Elements == 4, "cp.async copies 4 or 16 bytes here");
#if KPZ_CUDA_ARCH >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(scratch_dst));
  if constexpr (Elements == 1) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(global_src) : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
  }
#else
  for (int e = 0; e < Elements; ++e) scratch_dst[e] = global_src[e];
#endif
}
}  // namespace detail

template <class T>
KOKKOS_INLINE_FUNCTION void copy_async(T* scratch_dst, const T* global_src) {
  detail::copy_async_elements<1>(scratch_dst, global_src);
}

// Four consecutive 4-byte elements at once (one 16-byte `cp.async.cg` on CUDA sm_80 and later):
// both addresses must be 16-byte aligned. A quarter of the copy instructions of copy_async, which
// matters once a kernel is issue-bound.
template <class T>
KOKKOS_INLINE_FUNCTION void copy_async_quad(T* scratch_dst, const T* global_src) {
  detail::copy_async_elements<4>(scratch_dst, global_src);
}

// Waits until every copy_async this member issued has landed in scratch.
KOKKOS_INLINE_FUNCTION void wait_copies() {
#if KPZ_CUDA_ARCH >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace kpz::team

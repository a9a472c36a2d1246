#pragma once
// Reading what other teams of the same launch wrote, after the fences of a last-team-done
// protocol (the arrival counter's atomic_fetch_add, then Kokkos::memory_fence): a relaxed atomic
// load, which no SM's L1 serves stale.
//
// Kokkos::atomic_load means exactly this, but Kokkos 5.0.2 implements it (desul's generic
// fallback, on CUDA and on the host) as a load followed by a compare-and-swap loop, so a member's
// loads no longer overlap: each waits for the previous one's round trip to L2. load_relaxed() is
// the same load without the loop. On a CUDA device it is a volatile load, which PTX treats as a
// relaxed load at system scope (ld.relaxed.sys); on the host, std::atomic_ref's relaxed load.
#include <Kokkos_Core.hpp>

#include <atomic>

namespace kpz {

template <class T>
KOKKOS_INLINE_FUNCTION T load_relaxed(const T* p) {
  KOKKOS_IF_ON_DEVICE((return *static_cast<const volatile T*>(p);))
  KOKKOS_IF_ON_HOST((return std::atomic_ref<T>(*const_cast<T*>(p)).load(std::memory_order_relaxed);))
}

}  // namespace kpz

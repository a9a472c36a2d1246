#pragma once
// What one vector lane holds, per backend: Kokkos' SIMD pack. On a CPU a Kokkos vector lane is an
// iteration of a loop, and a loop body that works on a whole pack (Kokkos::Experimental::simd:
// AVX-512 holds 16 floats, AVX2 8) is SIMD code whatever the compiler makes of the loop; on a GPU
// a lane is a thread and its pack is one element. So a kernel written over packs is one source for
// both: the lanes of a warp take consecutive elements, the lanes of a CPU thread consecutive packs.
//
// Loads and stores go through the helpers below, not through raw pointers, so that a pack of one
// (GPU, trace build) reads and writes through the View's operator(): the tracer records every
// element, and a partial pack at the end of the data touches only the elements that exist.
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD.hpp>

#include <cstddef>

#include "kpz/backend_traits.hpp"

namespace kpz {

namespace detail {
// Kokkos' own map from an execution space to its native ABI (scalar for CUDA). It lives in
// Kokkos' Impl namespace; the public alias (simd<T>) answers for the default space only, and a
// build with CUDA also runs host spaces.
template <class T, class Space>
using native_pack_abi = Kokkos::Experimental::simd_abi::Impl::native_abi<T, 0, typename Space::execution_space>;
#if defined(KPZ_TRACE)
template <class T, class Space>
using pack_abi = Kokkos::Experimental::simd_abi::scalar;
#else
template <class T, class Space>
using pack_abi = native_pack_abi<T, Space>;
#endif
}  // namespace detail

// The pack of T a vector lane of Space holds. The trace build draws and checks every element
// access, so its lanes hold one element each.
template <class T, class Space>
using Pack = Kokkos::Experimental::basic_simd<T, detail::pack_abi<T, Space>>;

// Elements in a Pack<T, Space>: 1 on a GPU and in the trace build.
template <class T, class Space>
inline constexpr int pack_width_v = static_cast<int>(Pack<T, Space>::size());

// The pack view(i), ..., view(i + width - 1); elements at or past `valid` (counted from i) read
// as zero and are not touched, so a partial pack at the end of a View stays inside it.
template <class P, class V>
KOKKOS_FORCEINLINE_FUNCTION P load_pack(const V& view, int i, int valid) {
  using T = typename P::value_type;
  constexpr int width = static_cast<int>(P::size());
  if constexpr (width == 1) {
    return P(valid > 0 ? static_cast<T>(view(i)) : T(0));
  } else {
    if (valid >= width)
      return Kokkos::Experimental::simd_unchecked_load<P>(view.data() + i, Kokkos::Experimental::simd_flag_default);
    return P([&](std::size_t e) {
      return static_cast<int>(e) < valid ? static_cast<T>(view(i + static_cast<int>(e))) : T(0);
    });
  }
}

// load_pack for a pack that lies wholly inside the View.
template <class P, class V>
KOKKOS_FORCEINLINE_FUNCTION P load_pack(const V& view, int i) {
  if constexpr (P::size() == 1) {
    return P(view(i));
  } else {
    return Kokkos::Experimental::simd_unchecked_load<P>(view.data() + i, Kokkos::Experimental::simd_flag_default);
  }
}

// Writes the first min(valid, width) elements of `pack` to view(i), view(i + 1), ...
template <class P, class V>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(const V& view, int i, const P& pack, int valid) {
  constexpr int width = static_cast<int>(P::size());
  if constexpr (width == 1) {
    if (valid > 0) view(i) = pack[0];
  } else {
    if (valid >= width) {
      Kokkos::Experimental::simd_unchecked_store(pack, view.data() + i, Kokkos::Experimental::simd_flag_default);
    } else {
      for (int e = 0; e < valid; ++e) view(i + e) = pack[e];
    }
  }
}

}  // namespace kpz

#pragma once
// Four consecutive 4-byte elements in one 16-byte word: one vector memory instruction instead of
// four (CUDA: LDG.128 from global memory, LDS.128/STS.128 in scratch). Streaming kernels read an
// array as Quads when its data is 16-byte aligned: a View that Kokkos allocated always is, a
// subview that starts mid-Quad is not, so every kernel that reinterprets data() checks first.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kpz {

template <class T>
struct alignas(16) Quad {
  static_assert(sizeof(T) == 4, "a Quad holds four 4-byte elements");
  T v[4];
};

// True when p may be read as Quads (p == nullptr, an empty View's data, is aligned too).
template <class T>
inline bool is_quad_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(Quad<T>) == 0;
}

// A View of the Quads of a 4-byte array: element 4q..4q+3 is Quad q.
template <class Space, class E>
using QuadView = Kokkos::View<const Quad<E>*, typename Space::memory_space, Kokkos::MemoryUnmanaged>;

// The Quads of `view` (extent(0) / 4 of them), made on the host before a launch; empty when the
// data is not 16-byte aligned, and always in the trace build, which sees loads only through the
// View's operator(). A kernel checks quads.data() != nullptr and otherwise loads elements.
template <class Space, class E, class V>
QuadView<Space, E> quads_of(const V& view) {
#if defined(KPZ_TRACE)
  (void)view;
  return QuadView<Space, E>();
#else
  const E* p = view.data();
  const bool aligned = p != nullptr && is_quad_aligned(p);
  return aligned ? QuadView<Space, E>(reinterpret_cast<const Quad<E>*>(p), view.extent(0) / 4) : QuadView<Space, E>();
#endif
}

}  // namespace kpz

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

}  // namespace kpz

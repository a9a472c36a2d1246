#pragma once
// The part of Kokkos' reducer contract that every custom reducer over one result value shares:
// the type names, the stored reference to the result and its accessors. A reducer derives from
// it and adds what makes it itself: init (the identity) and join (how two partial results merge).
//
//   template <class T>
//   struct MyReducer : kpz::Reducer<MyReducer<T>, MyValue<T>> {
//     KOKKOS_INLINE_FUNCTION explicit MyReducer(MyValue<T>& result) : MyReducer::Reducer(result) {}
//     KOKKOS_INLINE_FUNCTION void join(MyValue<T>& dest, const MyValue<T>& src) const { ... }
//     KOKKOS_INLINE_FUNCTION void init(MyValue<T>& v) const { ... }
//   };
#include <Kokkos_Core.hpp>

namespace kpz {

template <class Derived, class Value>
struct Reducer {
  using reducer = Derived;  // Kokkos::is_reducer: T::reducer is T
  using value_type = Value;
  // The result of a parallel_reduce over a policy is a host value, as for Kokkos' own reducers
  // (Kokkos::Sum<T, Space = HostSpace>): a GPU backend copies it back. In AnonymousSpace, which
  // every space may access, CUDA wrote it from the device through the host pointer (an illegal
  // address: basics --custom-reducer on an H200). Nested reductions use reference() only.
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  KOKKOS_INLINE_FUNCTION explicit Reducer(value_type& result) : result_(&result) {}
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *result_; }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return result_view_type(result_); }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }

 private:
  value_type* result_;
};

}  // namespace kpz

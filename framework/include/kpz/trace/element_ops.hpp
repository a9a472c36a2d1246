#pragma once
// Kokkos' atomics and math functions on the trace build's element proxies (element.hpp), in
// namespace Kokkos so that kernel sources call them unchanged. Compiled only with KPZ_TRACE.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kpz/trace/element.hpp"

namespace Kokkos {

// Atomics on traced elements: `Kokkos::atomic_add(&s(i), v)`.
#define KPZ_TRACE_ATOMIC_VOID(name, expr)              \
  template <class T, class U>                          \
  void name(const kpz::trace::Ptr<T>& p, const U& v) { \
    p.atomic([&](auto& x) { expr; });                  \
  }
#define KPZ_TRACE_ATOMIC_FETCH(name, expr)                               \
  template <class T, class U>                                            \
  std::remove_const_t<T> name(const kpz::trace::Ptr<T>& p, const U& v) { \
    return p.atomic([&](auto& x) {                                       \
      const std::remove_const_t<T> old = x;                              \
      expr;                                                              \
      return old;                                                        \
    });                                                                  \
  }
#define KPZ_TRACE_ATOMIC_OP_FETCH(name, expr)                            \
  template <class T, class U>                                            \
  std::remove_const_t<T> name(const kpz::trace::Ptr<T>& p, const U& v) { \
    return p.atomic([&](auto& x) {                                       \
      expr;                                                              \
      return static_cast<std::remove_const_t<T>>(x);                     \
    });                                                                  \
  }
// The operations Kokkos has in all three forms: atomic_op, atomic_fetch_op, atomic_op_fetch.
#define KPZ_TRACE_ATOMIC_OPS(M)                                        \
  M(atomic_add, atomic_fetch_add, atomic_add_fetch, x += v)            \
  M(atomic_sub, atomic_fetch_sub, atomic_sub_fetch, x -= v)            \
  M(atomic_mul, atomic_fetch_mul, atomic_mul_fetch, x *= v)            \
  M(atomic_div, atomic_fetch_div, atomic_div_fetch, x /= v)            \
  M(atomic_max, atomic_fetch_max, atomic_max_fetch, x = x < v ? v : x) \
  M(atomic_min, atomic_fetch_min, atomic_min_fetch, x = v < x ? v : x) \
  M(atomic_and, atomic_fetch_and, atomic_and_fetch, x &= v)            \
  M(atomic_or, atomic_fetch_or, atomic_or_fetch, x |= v)               \
  M(atomic_xor, atomic_fetch_xor, atomic_xor_fetch, x ^= v)
#define KPZ_TRACE_ATOMIC_ALL_FORMS(op, fetch_op, op_fetch, expr) \
  KPZ_TRACE_ATOMIC_VOID(op, expr)                                \
  KPZ_TRACE_ATOMIC_FETCH(fetch_op, expr)                         \
  KPZ_TRACE_ATOMIC_OP_FETCH(op_fetch, expr)
KPZ_TRACE_ATOMIC_OPS(KPZ_TRACE_ATOMIC_ALL_FORMS)
KPZ_TRACE_ATOMIC_VOID(atomic_store, x = v)
KPZ_TRACE_ATOMIC_FETCH(atomic_exchange, x = v)
#undef KPZ_TRACE_ATOMIC_OPS
#undef KPZ_TRACE_ATOMIC_ALL_FORMS
#undef KPZ_TRACE_ATOMIC_VOID
#undef KPZ_TRACE_ATOMIC_FETCH
#undef KPZ_TRACE_ATOMIC_OP_FETCH

// Kokkos' math on scalar elements: `Kokkos::max(acc, s(i))` deduces one type from both arguments,
// which a Ref is not; these read the element and call the plain function.
#define KPZ_TRACE_BINARY(name)                                                                             \
  template <class A, class B>                                                                              \
  requires(kpz::trace::is_element_v<A> || kpz::trace::is_element_v<B>) auto name(const A& a, const B& b) { \
    return Kokkos::name(kpz::trace::plain_t<A>(a), kpz::trace::plain_t<B>(b));                             \
  }
#define KPZ_TRACE_UNARY(name)                       \
  template <class A>                                \
  requires kpz::trace::is_element_v<A>              \
  auto name(const A& a) {                           \
    return Kokkos::name(kpz::trace::plain_t<A>(a)); \
  }
KPZ_TRACE_BINARY(min)
KPZ_TRACE_BINARY(max)
KPZ_TRACE_BINARY(fmin)
KPZ_TRACE_BINARY(fmax)
KPZ_TRACE_BINARY(pow)
KPZ_TRACE_BINARY(fmod)
KPZ_TRACE_UNARY(abs)
KPZ_TRACE_UNARY(fabs)
KPZ_TRACE_UNARY(sqrt)
KPZ_TRACE_UNARY(exp)
KPZ_TRACE_UNARY(log)
KPZ_TRACE_UNARY(floor)
KPZ_TRACE_UNARY(ceil)
KPZ_TRACE_UNARY(isnan)
KPZ_TRACE_UNARY(isfinite)
#undef KPZ_TRACE_BINARY
#undef KPZ_TRACE_UNARY
template <class A, class B, class C>
requires(kpz::trace::is_element_v<A> || kpz::trace::is_element_v<B> ||
         kpz::trace::is_element_v<C>) auto clamp(const A& a, const B& lo, const C& hi) {
  return Kokkos::clamp(kpz::trace::plain_t<A>(a), kpz::trace::plain_t<B>(lo), kpz::trace::plain_t<C>(hi));
}

template <class T>
void atomic_inc(const kpz::trace::Ptr<T>& p) {
  p.atomic([](auto& x) { ++x; });
}
template <class T>
void atomic_dec(const kpz::trace::Ptr<T>& p) {
  p.atomic([](auto& x) { --x; });
}
template <class T>
std::remove_const_t<T> atomic_fetch_inc(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return x++; });
}
template <class T>
std::remove_const_t<T> atomic_fetch_dec(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return x--; });
}
template <class T>
std::remove_const_t<T> atomic_inc_fetch(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return ++x; });
}
template <class T>
std::remove_const_t<T> atomic_dec_fetch(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return --x; });
}
template <class T>
std::remove_const_t<T> atomic_load(const kpz::trace::Ptr<T>& p) {
  return p.load_atomic();
}
template <class T, class U, class W>
std::remove_const_t<T> atomic_compare_exchange(const kpz::trace::Ptr<T>& p, const U& expected, const W& desired) {
  return p.atomic([&](auto& x) {
    const std::remove_const_t<T> old = x;
    if (old == expected) x = desired;
    return old;
  });
}

}  // namespace Kokkos

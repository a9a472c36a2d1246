// segscan reference solution: the segmented operator, which every kernel of segscan.cpp and
// vector_scan.cpp combines pairs with. exercises/segscan/combine.hpp is generated from this file
// by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#pragma once

#include "segscan/segscan.hpp"

namespace kpz::segscan::reference {

// The segmented operator on (value, flag) pairs; `a` is the earlier operand, `b` the later one:
//   (v_a, f_a) (+) (v_b, f_b) = (f_b ? v_b : v_a + v_b, f_a | f_b).
// A flag means "a segment starts here or somewhere in the range this pair sums up".
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> combine(const SegPair<T>& a, const SegPair<T>& b) {
  SegPair<T> r{T(0), 0};
  // KPZ-TODO(roughly 2 lines): fill r with a (+) b as the comment above defines it: both its value
  //   and its flag.
  r.value = b.flag ? b.value : a.value + b.value;
  r.flag = a.flag | b.flag;
  // KPZ-END
  return r;
}

// The operator's identity: (0, no head). identity (+) p = p (+) identity = p.
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> identity() {
  return SegPair<T>{T(0), 0};
}

}  // namespace kpz::segscan::reference

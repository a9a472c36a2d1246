// segscan reference solution: the segmented operator, which every kernel of segscan.cpp and
// vector_scan.cpp combines pairs with. exercises/segscan/combine.hpp is generated from this file
// by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#pragma once

#include "segscan/segscan.hpp"

namespace kpz::segscan::reference {

// The segmented operator on (value, flag) pairs. A pair summarises a range of elements: its flag
// says that a segment starts somewhere in the range, its value is the sum from the last such
// start to the range's end (over the whole range when none starts in it). `a` summarises a range,
// `b` the range right after it; a (+) b summarises the two together.
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> combine(const SegPair<T>& a, const SegPair<T>& b) {
  SegPair<T> r{T(0), 0};
  // KPZ-TODO(roughly 2 lines): fill r, both its value and its flag, with the summary of a's
  //   range followed by b's.
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

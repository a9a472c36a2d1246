// segscan exercise: fill in every TODO, then run `kpuzzles run segscan`
// (or the tests). Host builds race-check every pass; `kpuzzles trace segscan --<variant>`
// draws the accesses. The solution is in reference/segscan/, but try first: the hints are in
// docs/puzzles/segscan.md. Generated from the reference: `kpuzzles reset segscan` restores it
// (your work is kept as a backup).
#pragma once

#include "segscan/segscan.hpp"

namespace kpz::segscan::exercise {

// The segmented operator on (value, flag) pairs; `a` is the earlier operand, `b` the later one:
//   (v_a, f_a) (+) (v_b, f_b) = (f_b ? v_b : v_a + v_b, f_a | f_b).
// A flag means "a segment starts here or somewhere in the range this pair sums up".
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> combine(const SegPair<T>& a, const SegPair<T>& b) {
  SegPair<T> r{T(0), 0};
  // TODO(roughly 2 lines): fill r with a (+) b as the comment above defines it: both its value
  //   and its flag.
  return r;
}

// The operator's identity: (0, no head). identity (+) p = p (+) identity = p.
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> identity() {
  return SegPair<T>{T(0), 0};
}

}  // namespace kpz::segscan::exercise

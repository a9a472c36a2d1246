// segscan exercise: fill in every TODO, then run `kpuzzles run segscan`
// (or the tests). Host builds race-check every pass; `kpuzzles trace segscan --<variant>`
// draws the accesses. The solution is in reference/segscan/, but try first: the hints are in
// docs/puzzles/segscan.md. Generated from the reference: `kpuzzles reset segscan` restores it
// (your work is kept as a backup).
#pragma once

#include "segscan/segscan.hpp"

namespace kpz::segscan::exercise {

// The segmented operator on (value, flag) pairs. A pair summarises a range of elements: its flag
// says that a segment starts somewhere in the range, its value is the sum from the last such
// start to the range's end (over the whole range when none starts in it). `a` summarises a range,
// `b` the range right after it; a (+) b summarises the two together.
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> combine(const SegPair<T>& a, const SegPair<T>& b) {
  SegPair<T> r{T(0), 0};
  // TODO(roughly 2 lines): fill r, both its value and its flag, with the summary of a's
  //   range followed by b's.
  return r;
}

// The operator's identity: (0, no head). identity (+) p = p (+) identity = p.
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> identity() {
  return SegPair<T>{T(0), 0};
}

}  // namespace kpz::segscan::exercise

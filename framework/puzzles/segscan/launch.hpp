#pragma once
// segscan --vector-scan's two given launches around the tile kernel that the learner writes
// (reference/segscan/segscan.cpp `vector_scan_tiles`): launch 0 finds every tile's first
// segment, the carries launch scans the tiles' totals.
#include <Kokkos_Core.hpp>

#include "segscan/segscan.hpp"

namespace kpz::segscan {

// --vector-scan, the carries: one device-level parallel_scan over the tiles' totals, with the
// segmented operator, adds tile t's carry-in to its open segment: the segment that holds the
// tile's first element, when it began in an earlier tile and ends in this one.
//
// Kokkos' RangePolicy scan honours a functor's join and init, but calls join(dest, src) with dest
// the LATER range on CUDA and the EARLIER one on the host. The segmented operator is not
// commutative, so each partial result carries the first tile it covers and join puts the earlier
// operand first itself: the operator on (value, flag, first tile) is then commutative. Given code
// for the learner (docs/puzzles/segscan.md, step 6): the reference and the exercise pass their own
// combine as Op.
template <class T>
struct PlacedPair {
  T value;
  int flag;
  int first;  // the first tile it combines; -1 marks the identity
};

template <class Space, class T, class Op>
struct TileCarries {
  using value_type = PlacedPair<T>;
  int n, tile;
  View<const int*, Space> offsets;
  View<T*, Space> sums;
  View<const SegPair<T>*, Space> tile_totals;
  View<const int*, Space> tile_first_seg;
  Op op;  // the segmented operator (the caller's combine), earlier operand first

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type{T(0), 0, -1}; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    if (src.first < 0) return;
    if (dest.first < 0) {
      dest = src;
      return;
    }
    const bool dest_first = dest.first < src.first;
    const value_type& earlier = dest_first ? dest : src;
    const value_type& later = dest_first ? src : dest;
    const SegPair<T> c = op(SegPair<T>{earlier.value, earlier.flag}, SegPair<T>{later.value, later.flag});
    dest = value_type{c.value, c.flag, earlier.first};
  }
  // update arrives as tiles 0..t-1 combined: tile t's carry-in.
  KOKKOS_INLINE_FUNCTION void operator()(int t, value_type& update, bool final) const {
    if (final) {
      const int s = tile_first_seg(t), tile_first = t * tile;
      const bool open = offsets(s) < tile_first && offsets(s + 1) <= Kokkos::min(tile_first + tile, n);
      if (open) sums(s) += update.value;
    }
    const SegPair<T> mine = tile_totals(t);
    join(update, value_type{mine.value, mine.flag, t});
  }
};

// The most tiles one carries launch scans. On CUDA, Kokkos 5.0.2's RangePolicy scan gives each
// thread of a block one element only while the range fits b * min(b * b, 65535) for its block
// of b threads, a size it chooses from the functor; past that its first pass accumulates a
// thread's elements in a strided order, which the placed pair cannot put right (the pieces it
// joins are no longer adjacent). Measured on an H200: 4194304 tiles gave wrong sums. 2^15 is
// inside the limit for any block of 32 threads or more; N = 2^28 takes tiles of 8192 (the GPU's
// default is 16384).
inline constexpr std::int64_t kMaxCarryTiles = std::int64_t{1} << 15;

// --vector-scan, launch 0: the segment that holds each tile's first element, one binary search
// per tile, all tiles at once. The tile kernel reads its own entry and the next one instead of
// searching `offsets` itself: on a GPU a block that starts with dependent searches through
// millions of offsets waits for memory longer than it takes to stream its tile.
template <class Space>
void vector_scan_tile_segments(const Space& space, int tile, int n, View<const int*, Space> offsets,
                               View<int*, Space> tile_first_seg) {
  const int segments = static_cast<int>(offsets.extent(0)) - 1;
  Kokkos::parallel_for(
      "segscan::vector_scan::tile_segments", Kokkos::RangePolicy<Space>(space, 0, tile_first_seg.extent(0)),
      KOKKOS_LAMBDA(int t) {
        const int first = Kokkos::min(t * tile, n - 1);
        tile_first_seg(t) = first_at_least(offsets, 1, segments + 1, first + 1) - 1;
      });
}

}  // namespace kpz::segscan

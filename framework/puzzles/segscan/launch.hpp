#pragma once
// segscan --vector-scan's two given launches around the tile kernel that the learner writes
// (reference/segscan/segscan.cpp `vector_scan_tiles`): launch 0 finds every tile's first
// segment, the carries (scan_tile_carries) scan the tiles' totals.
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

// The init and join of a scan of placed pairs (above), for any Op.
template <class T, class Op>
struct PlacedScan {
  using value_type = PlacedPair<T>;
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
};

// Tile t's carry-in goes to its open segment: the one holding its first element, when that
// segment began before the tile and ends in it.
template <class Space, class T>
struct OpenSegments {
  int n, tile;
  View<const int*, Space> offsets;
  View<T*, Space> sums;
  View<const int*, Space> tile_first_seg;

  KOKKOS_INLINE_FUNCTION void add_carry(int t, T carry) const {
    const int s = tile_first_seg(t), tile_first = t * tile;
    const bool open = offsets(s) < tile_first && offsets(s + 1) <= Kokkos::min(tile_first + tile, n);
    if (open) sums(s) += carry;
  }
};

template <class Space, class T, class Op>
struct TileCarries : PlacedScan<T, Op> {
  using value_type = PlacedPair<T>;
  OpenSegments<Space, T> segments;
  View<const SegPair<T>*, Space> tile_totals;

  // update arrives as tiles 0..t-1 combined: tile t's carry-in.
  KOKKOS_INLINE_FUNCTION void operator()(int t, value_type& update, bool final) const {
    if (final) segments.add_carry(t, update.value);
    const SegPair<T> mine = tile_totals(t);
    this->join(update, value_type{mine.value, mine.flag, t});
  }
};

// The scan over chunks of consecutive tiles (scan_tile_carries): each chunk's carry-in, from the
// chunks before it.
template <class Space, class T, class Op>
struct ChunkCarries : PlacedScan<T, Op> {
  using value_type = PlacedPair<T>;
  View<const SegPair<T>*, Space> chunk_totals;
  View<SegPair<T>*, Space> chunk_carry;

  KOKKOS_INLINE_FUNCTION void operator()(int c, value_type& update, bool final) const {
    if (final) chunk_carry(c) = SegPair<T>{update.value, update.flag};
    const SegPair<T> mine = chunk_totals(c);
    this->join(update, value_type{mine.value, mine.flag, c});
  }
};

// The most elements one scan of placed pairs takes. On CUDA, Kokkos 5.0.2's RangePolicy scan
// gives each thread of a block one element only while the range fits b * min(b * b, 65535) for
// its block of b threads, a size it chooses from the functor; past that its first pass
// accumulates a thread's elements in a strided order, which the placed pair cannot put right
// (the pieces it joins are no longer adjacent). Measured on an H200: a scan of 4194304 tiles gave
// wrong sums. 2^15 is inside the limit for any block of 32 threads or more.
inline constexpr int kMaxCarryTiles = 1 << 15;

// The carries of `tile_totals` (one SegPair per tile) into the tiles' open segments. Up to
// kMaxCarryTiles tiles: one scan of the tiles. More: chunks of consecutive tiles, each folded in
// order by one thread, one scan of at most kMaxCarryTiles chunks, then each chunk's thread walks
// its tiles in order from the chunk's carry-in.
template <class Space, class T, class Op>
void scan_tile_carries(const Space& space, int n, int tile, View<const int*, Space> offsets, View<T*, Space> sums,
                       View<const SegPair<T>*, Space> tile_totals, View<const int*, Space> tile_first_seg, Op op) {
  const int tiles = static_cast<int>(tile_totals.extent(0));
  const OpenSegments<Space, T> segments{
      .n = n, .tile = tile, .offsets = offsets, .sums = sums, .tile_first_seg = tile_first_seg};
  if (tiles <= kMaxCarryTiles) {
    Kokkos::parallel_scan("segscan::vector_scan::carries", Kokkos::RangePolicy<Space>(space, 0, tiles),
                          TileCarries<Space, T, Op>{{op}, segments, tile_totals});
    return;
  }
  const int per = (tiles + kMaxCarryTiles - 1) / kMaxCarryTiles;  // tiles per chunk
  const int chunks = (tiles + per - 1) / per;
  View<SegPair<T>*, Space> chunk_totals(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "chunk_totals"), chunks);
  View<SegPair<T>*, Space> chunk_carry(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "chunk_carry"), chunks);
  Kokkos::parallel_for(
      "segscan::vector_scan::carries_fold", Kokkos::RangePolicy<Space>(space, 0, chunks), KOKKOS_LAMBDA(int c) {
        const int first = c * per, last = Kokkos::min(first + per, tiles);
        SegPair<T> acc = tile_totals(first);
        for (int t = first + 1; t < last; ++t) acc = op(acc, tile_totals(t));
        chunk_totals(c) = acc;
      });
  Kokkos::parallel_scan("segscan::vector_scan::carries_chunks", Kokkos::RangePolicy<Space>(space, 0, chunks),
                        ChunkCarries<Space, T, Op>{{op}, chunk_totals, chunk_carry});
  Kokkos::parallel_for(
      "segscan::vector_scan::carries_apply", Kokkos::RangePolicy<Space>(space, 0, chunks), KOKKOS_LAMBDA(int c) {
        const int first = c * per, last = Kokkos::min(first + per, tiles);
        // acc: the tiles before t combined. Chunk 0 starts after its first tile, which has none.
        SegPair<T> acc = tile_totals(first);
        if (c > 0) acc = chunk_carry(c);
        for (int t = c > 0 ? first : first + 1; t < last; ++t) {
          segments.add_carry(t, acc.value);
          acc = op(acc, tile_totals(t));
        }
      });
}

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

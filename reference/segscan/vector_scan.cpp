// segscan reference solution, --vector-scan. exercises/segscan/vector_scan.cpp is generated from
// this file by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "combine.hpp"
#include "segscan/launch.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan::reference {

// --vector-scan, the tile kernel. Team t owns the elements [first, last) of its tile and writes
// sums(s) for every segment s whose end offsets(s + 1) lies in (first, last] (tile 0: [0, last]).
// The tile is cut into rows of kVectorScanRow elements, one member per row, and each row into
// one chunk per vector lane. Each lane walks its chunk once, on its own (raking: many
// independent loads, no lane-to-lane step): it writes the segments that begin and end in the
// chunk and leaves in scratch its total, the chunk's part of the segment that holds its first
// element, and that segment when it ends in the chunk. One ThreadVectorRange parallel_scan with
// SegReducer over the lanes' totals (no walk inside it: Kokkos' CUDA scan calls its closure
// twice) gives every lane its carry-in, which finishes those segments. A segment whose head lies
// before its row gets the row's carry-in; one that began before the tile is the tile's `open`
// segment, finished by the carries launch.
template <class Space, class T>
void vector_scan_tiles(const Space& space, const Launch& launch, View<const T*, Space> values,
                       View<const int*, Space> offsets, View<T*, Space> sums, View<SegPair<T>*, Space> tile_totals,
                       View<const int*, Space> tile_first_seg) {
  using Ints = ScratchView<int*, Space>;
  using Pairs = PairBuffer<Space, T>;
  using Values = ScratchView<T*, Space>;
  const int n = static_cast<int>(values.extent(0));
  const int segments = static_cast<int>(sums.extent(0));
  const int tile = launch.tile;
  const int tiles = static_cast<int>(tile_first_seg.extent(0));
  const int row = launch.row;  // elements per row: the host's choice (vector_scan_row: 2048, or 512)
  const int rows = (tile + row - 1) / row;
  const int lanes = launch.vector_length;
  const int per_lane = vector_scan_items_per_lane(row, lanes);  // elements in one lane's chunk
  const int slots = rows * lanes;                               // one per lane of every row
  // A GPU lane's chunk (32 lanes: 64 or 16 elements) is walked from registers, kLaneLoads at a time.
  const bool from_registers = per_lane % kLaneLoads == 0 && per_lane <= kRegisterChunk;
  // The values as 16-byte Quads (CUDA's float4 loads: a quarter of the load instructions), or
  // empty when the data is not 16-byte aligned.
  const QuadView<Space, T> quads = quads_of<Space, T>(values);
  const auto policy =
      TeamPolicy<Space>(space, tiles, launch.team_size, launch.vector_length)
          .set_scratch_size(0, Kokkos::PerTeam(vector_scan_scratch_bytes<Space, T>(tile, launch.vector_length, row)));
  Kokkos::parallel_for(
      "segscan::vector_scan::tiles", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank();
        const int first = t * tile, count = Kokkos::min(tile, n - first);
        const int rows_here = (count + row - 1) / row;
        Pairs row_total(team.team_scratch(0), rows), row_carry(team.team_scratch(0), rows);
        Ints open_seg(team.team_scratch(0), rows);
        Values open_value(team.team_scratch(0), rows);
        Pairs lane_total(team.team_scratch(0), slots), lane_carry(team.team_scratch(0), slots);
        Ints pending(team.team_scratch(0), slots);
        Values lead(team.team_scratch(0), slots);
        // The segments that hold the tile's elements lie in [seg_lo, seg_hi): seg_lo holds `first`
        // and `next` holds the next tile's first element (launch 0 found both).
        const int seg_lo = tile_first_seg(t), next = t + 1 < tiles ? tile_first_seg(t + 1) : segments;
        const int seg_hi = Kokkos::min(next + 1, segments);
        // The tile owns the segments whose end lies in (first, last]: [end_lo, end_hi). An empty one
        // at element p < n is written by the lane whose chunk holds p; the last tile writes those
        // at n.
        const int end_lo = t == 0 ? 0 : seg_lo, end_hi = next;
        if (t + 1 == tiles)
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, end_lo, end_hi), [&](int s) {
            if (offsets(s) == n) sums(s) = T(0);
          });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_here),
                             [&](int r) { Kokkos::single(Kokkos::PerThread(team), [&]() { open_seg(r) = -1; }); });
        // KPZ-TODO(roughly 60 lines): each lane walks its chunk once: sums(s) for every segment
        //   whose head and end both lie in the chunk; lane_total, lead and pending for its slot.
        //   A whole chunk of per_lane elements when from_registers: batches of kLaneLoads in
        //   registers (from quads where they are aligned), then one element at a time; other
        //   chunks: one segment piece at a time.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_here), [&](int r) {
          const int row_lo = r * row, row_hi = Kokkos::min(row_lo + row, count);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](int k) {
            const int slot = r * lanes + k;
            const int a = Kokkos::min(row_lo + k * per_lane, row_hi), b = Kokkos::min(a + per_lane, row_hi);
            SegPair<T> total = identity<T>();
            T before = T(0);   // the chunk's part of the segment that holds a, while no head was seen
            int waiting = -1;  // that segment, when its head lies before a and it ends in the chunk
            // s: the segment that holds element a (offsets(s) <= first + a < offsets(s + 1)).
            int s = a < b ? first_at_least(offsets, seg_lo + 1, seg_hi, first + a + 1) - 1 : 0;
            // The empty segments at a, just before s when s begins at a, are this lane's.
            if (a < b && offsets(s) == first + a)
              for (int e = s - 1; e >= 0 && offsets(e) == first + a; --e) sums(e) = T(0);
            if (from_registers && b - a == per_lane) {
              // A GPU lane's chunk, in batches of kLaneLoads: a batch's loads all in flight,
              // unguarded, before its first add; then element by element.
              int head = offsets(s) - first, end = offsets(s + 1) - first;
              for (int c = a; c < b; c += kLaneLoads) {
                T v[kLaneLoads];
                if (quads.data() != nullptr && (first + c) % 4 == 0) {
                  for (int q = 0; q < kLaneLoads / 4; ++q) {
                    const Quad<T> four = quads((first + c) / 4 + q);
                    for (int e = 0; e < 4; ++e) v[4 * q + e] = four.v[e];
                  }
                } else {
                  for (int u = 0; u < kLaneLoads; ++u) v[u] = values(first + c + u);
                }
                if (head < c && end > c + kLaneLoads) {  // the batch lies inside one segment: a plain sum
                  for (int u = 0; u < kLaneLoads; ++u) total.value += v[u];
                  if (!total.flag) before = total.value;
                  continue;
                }
                for (int u = 0; u < kLaneLoads; ++u) {
                  const int j = c + u;
                  if (j == head) {
                    total = SegPair<T>{v[u], 1};
                  } else {
                    total.value += v[u];
                    if (!total.flag) before = total.value;
                  }
                  if (j + 1 == end) {  // s ends at j
                    if (head >= a)
                      sums(s) = total.value;
                    else
                      waiting = s;
                    if (j + 1 < b) {  // the next non-empty segment starts at j + 1, empty ones before it
                      while (offsets(s + 2) - first == j + 1) sums(++s) = T(0);
                      ++s;
                      head = j + 1;
                      end = offsets(s + 1) - first;
                    }
                  }
                }
              }
            } else if (a < b) {
              // Any other chunk (a CPU lane walks a whole row): the piece of the segment that
              // holds a, then each segment that begins and ends in the chunk as one plain loop (as a
              // thread per segment: no bookkeeping per element, none per segment but its sum), then
              // the piece of the segment that begins in the chunk and ends after it.
              const int head = offsets(s) - first, end = offsets(s + 1) - first, stop = Kokkos::min(end, b);
              T piece = T(0);
              for (int j = a; j < stop; ++j) piece += values(first + j);
              total = SegPair<T>{piece, head == a ? 1 : 0};
              if (head < a) before = piece;
              if (stop == end) {  // s ends in the chunk
                if (head == a)
                  sums(s) = piece;
                else
                  waiting = s;
                int lo = 0, e = 0;
                for (++s; (lo = offsets(s) - first) < b && (e = offsets(s + 1) - first) <= b; ++s) {
                  T sum = T(0);
                  for (int j = lo; j < e; ++j) sum += values(first + j);
                  sums(s) = sum;  // 0 for an empty segment
                  if (e > lo) total = SegPair<T>{sum, 1};
                }
                if (lo < b) {  // s begins in the chunk and ends after it
                  T sum = T(0);
                  for (int j = lo; j < b; ++j) sum += values(first + j);
                  total = SegPair<T>{sum, 1};
                }
              }
            }
            lane_total(slot) = total;
            lead(slot) = before;
            pending(slot) = waiting;
          });
        });
        // Kokkos' CUDA vector scan has lane k read lane k - 1's total: the lanes' scratch writes
        // must be visible first (there is no portable barrier of one member's lanes).
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 25 lines): per row, the exclusive scan of the lanes' totals (lane_carry,
        //   one vector-level parallel_scan with SegReducer) and row_total(r); then each lane's
        //   pending segment: its sum, or else it becomes open_seg(r) with open_value(r).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_here), [&](int r) {
          SegPair<T> row_sum;  // the host leaves it unset: the closure stores what it needs
          Kokkos::parallel_scan(
              Kokkos::ThreadVectorRange(team, lanes),
              [&](int k, SegPair<T>& update, bool final) {
                if (final) lane_carry(r * lanes + k) = update;
                update = combine(update, lane_total(r * lanes + k));
                if (final && k == lanes - 1) row_total(r) = update;
              },
              SegReducer<T>(row_sum));
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](int k) {
            const int slot = r * lanes + k, s = pending(slot);
            if (s < 0) return;
            const SegPair<T> carry = lane_carry(slot);
            if (carry.flag) {
              sums(s) = carry.value + lead(slot);
            } else {  // its head lies before the row: the row's carry-in comes later
              open_seg(r) = s;
              open_value(r) = carry.value + lead(slot);
            }
          });
        });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 12 lines): row_carry: the exclusive scan of row_total over the rows, by
        //   one member (a vector-level parallel_scan, SegReducer), and the tile's total in
        //   tile_totals(t).
        if (team.team_rank() == 0) {
          SegPair<T> total;
          Kokkos::parallel_scan(
              Kokkos::ThreadVectorRange(team, rows_here),
              [&](int r, SegPair<T>& update, bool final) {
                if (final) row_carry(r) = update;
                update = combine(update, row_total(r));
                if (final && r == rows_here - 1) tile_totals(t) = update;
              },
              SegReducer<T>(total));
        }
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 8 lines): finish each row's open segment (open_seg, open_value) with its
        //   carry-in row_carry(r); one that began before the tile gets the rest from the carries
        //   launch.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_here), [&](int r) {
          Kokkos::single(Kokkos::PerThread(team), [&]() {
            const int s = open_seg(r);
            if (s < 0) return;
            sums(s) = row_carry(r).value + open_value(r);
          });
        });
        // KPZ-END
      });
}

// `combine` as a function object: the operator of the given carries scan
// (segscan/launch.hpp, scan_tile_carries).
struct Combine {
  template <class T>
  KOKKOS_INLINE_FUNCTION SegPair<T> operator()(const SegPair<T>& a, const SegPair<T>& b) const {
    return combine(a, b);
  }
};

template <class Space, class T>
void vector_scan(const Space& space, const Launch& launch, View<const T*, Space> values,
                 View<const int*, Space> offsets, View<T*, Space> sums, View<SegPair<T>*, Space> tile_totals,
                 View<int*, Space> tile_open) {
  const int n = static_cast<int>(values.extent(0));
  if (n == 0) {  // no tiles: every segment is empty
    Kokkos::deep_copy(space, sums, T(0));
    return;
  }
  // tile_open(t) receives the segment that holds tile t's first element.
  vector_scan_tile_segments(space, launch.tile, n, offsets, tile_open);
  const View<const int*, Space> tile_first_seg(tile_open);
  vector_scan_tiles(space, launch, values, offsets, sums, tile_totals, tile_first_seg);
  if (tile_totals.extent(0) > 1)
    scan_tile_carries(space, n, launch.tile, offsets, sums, View<const SegPair<T>*, Space>(tile_totals), tile_first_seg,
                      Combine{});
}

KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_INSTANTIATE_VECTOR)

}  // namespace kpz::segscan::reference

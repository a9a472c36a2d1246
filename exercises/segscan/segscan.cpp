// segscan exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run segscan`
// (or the tests). Host builds race-check every pass; `kpuzzles trace segscan --<variant>`
// draws the accesses. The solution is in reference/segscan/, but try first: the hints are in
// docs/puzzles/segscan.md. Generated from the reference: `kpuzzles reset segscan` restores it
// (your work is kept as a backup).
#include "segscan/segscan.hpp"
#include "segscan/vector_scan_carries.hpp"

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

// Inclusive segmented scan of cur(0), ..., cur(n - 1) in team scratch, Hillis-Steele style:
// after the step with offset d, cur(i) sums the (up to) 2d elements ending at i. The caller has
// filled cur and waited for the whole team; on return cur holds the scan (the buffers are
// swapped after every step, so cur and next may have traded places).
template <class Member, class Buffer>
KOKKOS_INLINE_FUNCTION void hillis_steele(const Member& team, Buffer& cur, Buffer& next, int n) {
  // TODO(roughly 8 lines): the Hillis-Steele scan the comment above describes, with combine, on
  //   cur and next (Kokkos::kokkos_swap), the team waiting after each step.
}

// Loads the pairs (values(first + i), flags(first + i)), i < count, into cur and scans them with
// hillis_steele: on return cur holds their inclusive scan. Every Hillis-Steele variant starts so.
template <class Member, class Values, class Flags, class Buffer>
KOKKOS_INLINE_FUNCTION void load_and_scan(const Member& team, const Values& values, const Flags& flags, int first,
                                          int count, Buffer& cur, Buffer& next) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
    cur(i) = {values(first + i), static_cast<int>(flags(first + i))};
  });
  team.team_barrier();
  hillis_steele(team, cur, next, count);
}

// One team (CUDA: one block) scans all n pairs; its scratch holds two buffers of n pairs. Then
// write(team, cur, n) writes out from cur, the inclusive scan (whose last step ended with a
// barrier, so any member may read any cur(i)).
template <class Space, class T, class Write>
void one_team_scan(const Space& space, int team_size, const char* name, View<const T*, Space> values,
                   View<const Flag*, Space> flags, Write write) {
  using Buffer = PairBuffer<Space, T>;
  const int n = static_cast<int>(values.extent(0));
  const auto policy = TeamPolicy<Space>(space, 1, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(hillis_steele_scratch_bytes<Space, T>(n)));
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Buffer cur(team.team_scratch(0), n), next(team.team_scratch(0), n);
        load_and_scan(team, values, flags, 0, n, cur, next);
        write(team, cur, n);
      });
}

// The inclusive scan's writer for one_team_scan: out(i) = cur(i).value.
template <class Space, class T>
struct InclusiveValues {
  View<T*, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember<Space>& team, const PairBuffer<Space, T>& cur, int n) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) { out(i) = cur(i).value; });
  }
};

template <class Space, class T>
void inclusive_simple(const Space& space, int team_size, View<const T*, Space> values, View<const Flag*, Space> flags,
                      View<T*, Space> out) {
  one_team_scan(space, team_size, "segscan::inclusive_simple", values, flags, InclusiveValues<Space, T>{out});
}

template <class Space, class T>
void exclusive(const Space& space, int team_size, View<const T*, Space> values, View<const Flag*, Space> flags,
               View<T*, Space> out) {
  one_team_scan(
      space, team_size, "segscan::exclusive", values, flags,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const PairBuffer<Space, T>& cur, int n) {
        // TODO(roughly 3 lines): out(i) for every i < n: the exclusive segmented scan,
        //   computed from the inclusive one in cur (a head's exclusive sum is 0).
      });
}

template <class Space, class T>
void work_efficient(const Space& space, int team_size, View<const T*, Space> values, View<const Flag*, Space> flags,
                    View<T*, Space> out) {
  using Buffer = PairBuffer<Space, T>;
  const int n = static_cast<int>(values.extent(0));
  const int p = next_pow2(n);  // the tree has p leaves; leaves past n hold the identity
  const auto policy =
      TeamPolicy<Space>(space, 1, team_size).set_scratch_size(0, Kokkos::PerTeam(blelloch_scratch_bytes<Space, T>(n)));
  Kokkos::parallel_for(
      "segscan::work_efficient", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Buffer a(team.team_scratch(0), p);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p), [&](int i) {
          a(i) = i < n ? SegPair<T>{values(i), static_cast<int>(flags(i))} : identity<T>();
        });
        team.team_barrier();
        // TODO(roughly 8 lines): Blelloch's up-sweep over the p pairs of a, with combine as the
        //   operator and the team waiting between levels.
        // TODO(roughly 12 lines): Blelloch's down-sweep on a, with identity<T>() and combine,
        //   the team waiting between levels; afterwards a(i) holds the exclusive pair scan
        //   (everything before element i).
        // TODO(roughly 3 lines): out(i) for every i < n: the inclusive scan, from the exclusive
        //   pair a(i) and element i itself (values, flags), with combine.
      });
}

template <class Space, class T>
void multi_team(const Space& space, const Launch& launch, View<const T*, Space> values, View<const Flag*, Space> flags,
                View<T*, Space> out) {
  using Buffer = PairBuffer<Space, T>;
  const int n = static_cast<int>(values.extent(0));
  const int tile = launch.tile;
  const int tiles = (n + tile - 1) / tile;
  if (tiles == 0) return;
  // Per tile: its aggregate, which is the scanned pair of its last element (the sum since the
  // tile's last head, and whether it has a head), and the position of its first head.
  View<T*, Space> agg_values(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::agg_values"), tiles);
  View<Flag*, Space> agg_flags(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::agg_flags"), tiles);
  View<int*, Space> first_head(Kokkos::view_alloc(space, "segscan::first_head"), tiles);
  const auto policy = TeamPolicy<Space>(space, tiles, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(hillis_steele_scratch_bytes<Space, T>(tile)));
  Kokkos::parallel_for(
      "segscan::multi_team::tiles", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank();
        const int first = t * tile;
        const int count = Kokkos::min(tile, n - first);
        Buffer cur(team.team_scratch(0), tile), next(team.team_scratch(0), tile);
        load_and_scan(team, values, flags, first, count, cur, next);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) { out(first + i) = cur(i).value; });
        // TODO(roughly 8 lines): the tile's aggregate, the scanned pair of its last element
        //   (agg_values, agg_flags), and in first_head(t) where its first head is (count if it has
        //   none).
      });
  if (tiles == 1) return;

  // carry(t): the inclusive segmented scan of the aggregates at tile t, i.e. the sum of the
  // segment that is still open at the end of tile t.
  View<T*, Space> carry(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::carry"), tiles);
  // TODO(roughly 2 lines): the scan of the aggregates is a segmented scan too: compute it into
  //   carry with multi_team itself (agg_values and agg_flags as Views of const).

  Kokkos::parallel_for(
      "segscan::multi_team::carry", TeamPolicy<Space>(space, tiles - 1, launch.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank() + 1;  // tile 0 has nothing before it
        const int first = t * tile;
        // TODO(roughly 4 lines): add tile t's carry-in, carry(t - 1), to the elements of its
        //   first segment that began in an earlier tile: those before first_head(t).
      });
}

template <class Space, class T>
void reduce(const Space& space, const Launch& launch, View<const T*, Space> values, View<const int*, Space> offsets,
            View<T*, Space> sums) {
  const int n = static_cast<int>(values.extent(0));
  const int segments = static_cast<int>(sums.extent(0));
  View<Flag*, Space> flags(Kokkos::view_alloc(space, "segscan::reduce::flags"), n);  // zeros
  View<T*, Space> scan(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::reduce::scan"), n);
  // TODO(roughly 4 lines): flags is 1 at the first element of every non-empty segment that
  //   offsets describes (one parallel_for on space).
  multi_team(space, launch, values, View<const Flag*, Space>(flags), scan);
  // TODO(roughly 4 lines): sums(s) for every segment: its total, read off the inclusive scan (0
  //   for an empty segment), one parallel_for on space.
}

template <class Space, class T>
void spmv(const Space& space, const Launch& launch, View<const int*, Space> row_offsets,
          View<const int*, Space> columns, View<const T*, Space> matrix_values, View<const T*, Space> x,
          View<T*, Space> y) {
  const int nnz = static_cast<int>(columns.extent(0));
  View<T*, Space> products(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::spmv::products"), nnz);
  // TODO(roughly 3 lines): products(j) for every nonzero j: its matrix value times the entry of
  //   x in its column (a parallel_for over nnz).
  // TODO(roughly 1 line): y is a segmented reduction of products over the rows: one call of
  //   reduce, with row_offsets as its offsets.
}

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
        // The tile owns the segments whose end lies in (first, last]: [end_lo, end_hi). It writes
        // the empty ones among them; lanes skip empty segments.
        const int end_lo = t == 0 ? 0 : seg_lo, end_hi = next;
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, end_lo, end_hi), [&](int s) {
          if (offsets(s) == offsets(s + 1)) sums(s) = T(0);
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_here),
                             [&](int r) { Kokkos::single(Kokkos::PerThread(team), [&]() { open_seg(r) = -1; }); });
        // TODO(roughly 60 lines): each lane walks its chunk once: sums(s) for every segment
        //   whose head and end both lie in the chunk; lane_total, lead and pending for its slot.
        //   A whole chunk of per_lane elements when from_registers: batches of kLaneLoads in
        //   registers (from quads where they are aligned), then one element at a time; other
        //   chunks: one segment piece at a time.
        // TODO(roughly 25 lines): per row, the exclusive scan of the lanes' totals (lane_carry,
        //   one vector-level parallel_scan with SegReducer) and row_total(r); then each lane's
        //   pending segment: its sum, or else it becomes open_seg(r) with open_value(r).
        // TODO(roughly 12 lines): row_carry: the exclusive scan of row_total over the rows, by
        //   one member (a vector-level parallel_scan, SegReducer), and the tile's total in
        //   tile_totals(t).
        // TODO(roughly 8 lines): finish each row's open segment (open_seg, open_value) with its
        //   carry-in row_carry(r); one that began before the tile gets the rest from the carries
        //   launch.
      });
}

// `combine` as a function object: the operator of the given carries scan
// (segscan/vector_scan_carries.hpp).
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
  const int tiles = static_cast<int>(tile_totals.extent(0));
  if (tiles > 1)
    Kokkos::parallel_scan(
        "segscan::vector_scan::carries", Kokkos::RangePolicy<Space>(space, 0, tiles),
        TileCarries<Space, T, Combine>{n, launch.tile, offsets, sums, tile_totals, tile_first_seg, {}});
}

KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_INSTANTIATE)

}  // namespace kpz::segscan::exercise

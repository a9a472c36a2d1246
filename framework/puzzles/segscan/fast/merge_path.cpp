// The framework's fast segmented reduction and SpMV: merge-path load balancing (what
// `kpuzzles bench segscan` times). Compiled once per space: kernel lambdas stay out of headers.
//
// The merge path. Segment s ends after value offsets[s+1] - 1. Merge the S segment ends with
// the N value indices: an end comes before value j when offsets[s+1] <= j. The merged sequence
// has S + N items, and walking it from the start is a serial segmented reduction: a value item
// adds to the running sum, an end item emits the sum as that segment's total and restarts it.
// Empty segments are end items with no value item before them, so they emit 0.
//
// Cutting the path into equal pieces balances the work whatever the segment lengths are: a
// piece of D items holds some ends and some values, and costs about the same whether the
// segments have length 0, 4 or 2^20. A point of the path is a pair (x, y): x ends and y values
// consumed, x + y = the diagonal; a binary search over x finds the point on any diagonal.
//
// Three steps:
//  1. search: tile t starts at the point on diagonal t * D; every 32nd tile searches the whole
//     path in global memory, the others only the bracket those leave (locate_tiles);
//  2. tiles: team t copies its values and segment ends (the CSR offsets, absolute) into one
//     scratch buffer with 16-byte cp.async copies of whole Quads (kpz::team::copy_async_quad;
//     4-byte copies only where an array ends mid-Quad or is not 16-byte aligned), all in flight
//     at once with no register held. Scratch keeps each array's global alignment: value y sits
//     at slot y + voff and the end of segment x (offsets[x+1]) at slot x + eoff, values first,
//     each array as the whole Quads the tile touches (D slots plus kMergeSlotsExtra). SpMV,
//     whose values are computed products, stages the same layout through registers. Each
//     member searches its own starting point there and walks D / team_size items serially (43
//     on CUDA: an odd count keeps the members' scratch reads in different banks), without
//     branches, in unrolled groups of 8 with no bounds test, then the remainder. A segment's
//     total goes one slot up, over the end after it, which the member has just read and nobody
//     reads after the barrier. A segment that ends inside the member's items is complete,
//     except the member's first one, which may have begun in an earlier member: every member
//     contributes (sum since its last end, "it had an end") to a segmented scan across the team
//     (kpz::team::OrderedScan), whose exclusive result the member adds to its first total in
//     place. The totals then go to global memory in one coalesced pass. The team's scan total
//     is the tile's carry: the sum of the segment still open at the tile's end, and "the tile
//     has an end";
//  3. carries: an exclusive segmented scan of the tiles' carries gives each tile the part of its
//     first segment that lies in earlier tiles: chunks of carries are scanned by a team each
//     (raking: serial runs, then OrderedScan), the chunk aggregates likewise (recursively when there are more than a chunk of them), and
//     the fix-up kernel (one thread per tile) adds the carry to that segment's total.
// Six launches in all (two searches, tiles, two carry scans, fix-up) for up to chunk^2 tiles.
// On a CPU step 2 walks each tile where it lies, one thread per tile (plan.staged false): a
// core's cache already is its scratch, and staging was a copy of every item plus two barriers.
// No atomics, so the result is the same on every run.
//
// This file holds step 2 and the entry points; step 1 is merge_path_search.cpp, step 3
// merge_path_carries.cpp.
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"

#include "kpz/team/async_copy.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "segscan/fast/merge_path_steps.hpp"

namespace kpz::segscan {
namespace merge_path {
namespace {

// Elements of a 4-byte array: one (operator()) or the whole aligned Quad q (quad()).
template <class Space, class E>
struct ArrayLoader {
  View<const E*, Space> data;
  QuadView<Space, E> quads;
  KOKKOS_INLINE_FUNCTION E operator()(int j) const { return data(j); }
  // Element j's address, for copies straight into scratch (not in the trace build, which records
  // accesses through operator()).
  KOKKOS_INLINE_FUNCTION const E* address(int j) const { return &data(j); }
  // Whether address(4 q) is 16-byte aligned for every q (a Quad copy may start there).
  KOKKOS_INLINE_FUNCTION bool quads_aligned() const { return quads.data() != nullptr; }
#if defined(KPZ_TRACE)
  static constexpr bool direct = false;
#else
  static constexpr bool direct = true;
#endif
  KOKKOS_INLINE_FUNCTION Quad<E> quad(int q) const {
    if (quads.data() != nullptr) return quads(q);
    Quad<E> r;
    for (int e = 0; e < 4; ++e) r.v[e] = data(4 * q + e);
    return r;
  }
};

// What a value item adds: a value (--reduce) or a product A(j) * x(col(j)) (--spmv).
template <class Space, class T>
using ValueLoader = ArrayLoader<Space, T>;

template <class Space, class T>
struct ProductLoader {
  View<const int*, Space> columns;
  View<const T*, Space> matrix_values;
  View<const T*, Space> x;
  static constexpr bool direct = false;  // a product is computed, not copied
  KOKKOS_INLINE_FUNCTION T operator()(int j) const { return matrix_values(j) * x(columns(j)); }
  KOKKOS_INLINE_FUNCTION Quad<T> quad(int q) const {
    int c[4];
    T a[4];
    for (int e = 0; e < 4; ++e) {
      c[e] = columns(4 * q + e);
      a[e] = matrix_values(4 * q + e);
    }
    Quad<T> r;
    for (int e = 0; e < 4; ++e) r.v[e] = a[e] * x(c[e]);
    return r;
  }
};

// The range [first, last) of an array as whole aligned Quads [q0, q1) and single elements: a
// head before 4 q0 and a tail from 4 q1 (at most 3 + 3 singles; all of them when no Quad fits).
struct Span {
  int first, last, q0, q1;
  KOKKOS_INLINE_FUNCTION Span(int first_, int last_) : first(first_), last(last_), q0((first_ + 3) / 4), q1(last_ / 4) {
    if (q1 < q0) q1 = q0;
  }
  KOKKOS_INLINE_FUNCTION int quads() const { return q1 - q0; }
  KOKKOS_INLINE_FUNCTION int head() const { return Kokkos::min(last, 4 * q0) - first; }
  KOKKOS_INLINE_FUNCTION int tail_begin() const { return Kokkos::max(4 * q1, first + head()); }
  KOKKOS_INLINE_FUNCTION int singles() const { return head() + Kokkos::max(0, last - tail_begin()); }
  KOKKOS_INLINE_FUNCTION int single(int k) const { return k < head() ? first + k : tail_begin() + (k - head()); }
};

// Quads (or single elements) one member loads before it stores any: the loads of a tile's staging
// are all in flight at once (a tile of 3840 items and 256 members needs about 4 per member).
constexpr int kStageUnits = 4;

// Items of the walk unrolled together (compile-time register indices, one loop test per group).
constexpr int kWalkUnroll = 8;
// An end no value index reaches: the sentinel after the path's last end (read by the tile that
// ends the path; every other tile stages the real end after its last one).
constexpr int kNoEnd = 2147483647;

// Step 2 without staging: the row loop of a CSR kernel over the tile's share of the path (its
// ends [c0.x, c1.x) and values [c0.y, c1.y)); every end x of the tile has offsets(x + 1) <= c1.y.
template <class Space, class T, class Loader>
void walk_tiles_in_place(const Space& space, MergePathWorkspace<Space, T>& ws, const Loader& load,
                         View<const int*, Space> offsets, View<T*, Space> sums) {
  const auto coords = ws.coords;
  const auto tile_carry = ws.carry_in[0];
  Kokkos::parallel_for(
      "segscan::merge_path::tiles_in_place", Kokkos::RangePolicy<Space>(space, 0, ws.tiles), KOKKOS_LAMBDA(int t) {
        const Coord c0 = coords(t), c1 = coords(t + 1);
        int y = c0.y;
        T acc = T(0);
        for (int x = c0.x; x < c1.x; ++x) {
          const int end = offsets(x + 1);
          for (; y < end; ++y) acc += load(y);
          sums(x) = acc;
          acc = T(0);
        }
        for (; y < c1.y; ++y) acc += load(y);
        tile_carry(t) = SegPair<T>{acc, c1.x > c0.x ? 1 : 0};
      });
}

template <class Space, class T, class Loader>
void merge_path_run(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws, const Loader& load,
                    View<const int*, Space> offsets, int n, View<T*, Space> sums) {
  using Slots = ScratchView<MergeSlot<T>*, Space>;
  const int segments = static_cast<int>(sums.extent(0));
  if (ws.segments != segments || ws.values != n)
    throw std::logic_error("merge-path workspace built for " + std::to_string(ws.segments) + " segments and " +
                           std::to_string(ws.values) + " values, used for " + std::to_string(segments) + " and " +
                           std::to_string(n));
  if (segments == 0) return;
  const int tile_items = plan.tile_items;
  const int tiles = ws.tiles;
  const int team_size = plan.team_size;
  const int per_member = (tile_items + team_size - 1) / team_size;
  const auto coords = ws.coords;
  const auto tile_carry = ws.carry_in[0];
  const ArrayLoader<Space, int> ends{offsets, quads_of<Space, int>(offsets)};

  // 1. Where each tile's share of the path starts.
  locate_tiles(space, plan, ws, offsets, n);
  if (!plan.staged) {
    walk_tiles_in_place(space, ws, load, offsets, sums);
    add_tile_carries(space, plan, ws, sums);
    return;
  }

  // 2. The tiles. Scratch holds the tile's values, then its segment ends (offsets, absolute,
  // later the segments' totals), each as the whole Quads of its array that the tile touches, so
  // that global and scratch addresses agree mod 16 bytes: value y at slot y + voff, end x
  // (offsets(x + 1)) at slot x + eoff.
  const int offsets_size = segments + 1;
  const auto policy = TeamPolicy<Space>(space, tiles, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(merge_path_scratch_bytes<Space, T>(plan)));
  check_warp_launch(policy);  // OrderedScan's shuffle path
  Kokkos::parallel_for(
      "segscan::merge_path::tiles", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Slots s(team.team_scratch(0), tile_items + kMergeSlotsExtra);
        const kpz::team::OrderedScan<Space, SegPair<T>> scan(team);
        const int t = team.league_rank();
        const int m = team.team_rank();
        const Coord c0 = coords(t), c1 = coords(t + 1);
        const int nx = c1.x - c0.x;  // segment ends in this tile
        const int ny = c1.y - c0.y;  // values in this tile

        // Where things go. The ends staged are offsets(c0.x + 1) .. offsets(c1.x + 1): the tile's
        // own and the one after them, which every value of the tile comes before (a sentinel
        // when the tile ends the path, where there is none).
        int a0 = 0;  // the first slot on a 16-byte boundary
        if constexpr (Loader::direct)
          a0 = static_cast<int>((16 - reinterpret_cast<std::uintptr_t>(s.data()) % 16) % 16 / 4);
        const int vq0 = c0.y / 4, vquads = ny > 0 ? (c1.y + 3) / 4 - vq0 : 0;
        const int ej0 = c0.x + 1, ej1 = Kokkos::min(c1.x + 2, offsets_size);  // offsets staged
        const int eq0 = ej0 / 4, equads = (ej1 + 3) / 4 - eq0;
        const int voff = a0 - 4 * vq0;
        const int ebase = a0 + 4 * vquads;
        const int eoff = ebase + 1 - 4 * eq0;

        // Straight into scratch (kpz::team::copy_async_quad: a 16-byte cp.async on CUDA), the
        // whole tile in flight at once with no register held; consecutive members copy
        // consecutive Quads, single elements only where an array ends mid-Quad or is not 16-byte
        // aligned. H100, N = 2^28, L = 4 / 32 / 1024 / 2^20: 4-byte copies of every element gave
        // 79.2 / 75.4 / 79.0 / 82.2 % of copy, against 73.7 / 71.9 / 75.3 / 79.8 % through
        // registers in the same run; Quads with the walk below, 86.5 / 84.6 / 90.1 / 92.3 %. (Generic, so that only a direct Loader instantiates it.)
        const auto stage_async = [&](const auto& values) {
          const auto stage = [&](auto* dst, const auto& from, int q, int extent) {
            if (from.quads_aligned() && 4 * q + 4 <= extent) {
              kpz::team::copy_async_quad(dst, from.address(4 * q));
            } else {
              for (int e = 0; e < 4; ++e)
                if (4 * q + e < extent) kpz::team::copy_async(dst + e, from.address(4 * q + e));
            }
          };
          for (int u = m; u < vquads; u += team_size) stage(&s(a0 + 4 * u).value, values, vq0 + u, n);
          for (int u = m; u < equads; u += team_size) stage(&s(ebase + 4 * u).end, ends, eq0 + u, offsets_size);
          kpz::team::wait_copies();
        };
        const Loader& values = load;  // captured here: nvcc forbids a first capture inside if constexpr
        if constexpr (Loader::direct) {
          stage_async(values);
        } else {
          // Through registers (what a computed value, SpMV's product, needs): the whole Quads of
          // values, then of ends, then the single elements around them, as one list of units;
          // each member loads kStageUnits units (team_size apart, so a warp reads consecutive
          // Quads) into registers before it stores any.
          const Span sv(c0.y, c1.y), se(ej0, ej1);
          const int qv = sv.quads(), qe = qv + se.quads(), sg = qe + sv.singles(), units = sg + se.singles();
          for (int u0 = m; u0 < units; u0 += kStageUnits * team_size) {
            // Only the loaded words stay live between the two loops (registers bound the teams
            // per SM); the second loop recomputes where each unit goes.
            MergeSlot<T> r[kStageUnits][4];
            for (int k = 0; k < kStageUnits; ++k) {
              const int u = u0 + k * team_size;
              if (u < qv) {
                const Quad<T> q = load.quad(sv.q0 + u);
                for (int e = 0; e < 4; ++e) r[k][e].value = q.v[e];
              } else if (u < qe) {
                const Quad<int> q = ends.quad(se.q0 + u - qv);
                for (int e = 0; e < 4; ++e) r[k][e].end = q.v[e];
              } else if (u < sg) {
                r[k][0].value = load(sv.single(u - qe));
              } else if (u < units) {
                r[k][0].end = ends(se.single(u - sg));
              }
            }
            for (int k = 0; k < kStageUnits; ++k) {
              const int u = u0 + k * team_size;
              if (u < qv) {
                for (int e = 0; e < 4; ++e) s(4 * (sv.q0 + u) + e + voff) = r[k][e];
              } else if (u < qe) {
                for (int e = 0; e < 4; ++e) s(4 * (se.q0 + u - qv) + e - 1 + eoff) = r[k][e];
              } else if (u < sg) {
                s(sv.single(u - qe) + voff) = r[k][0];
              } else if (u < units) {
                s(se.single(u - sg) - 1 + eoff) = r[k][0];
              }
            }
          }
        }
        // No copy writes this slot: it lies past the offsets array.
        if (m == 0 && c1.x == segments) s(segments + eoff).end = kNoEnd;
        team.team_barrier();

        // This member's items [d0, d1) of the tile's path, and where they start: lo ends in.
        const int d0 = Kokkos::min(m * per_member, nx + ny);
        const int d1 = Kokkos::min(d0 + per_member, nx + ny);
        int lo = Kokkos::max(d0 - ny, 0), hi = Kokkos::min(d0, nx);
        while (lo < hi) {
          const int pivot = lo + (hi - lo) / 2;
          if (s(c0.x + pivot + eoff).end <= c0.y + d0 - pivot - 1)
            lo = pivot + 1;
          else
            hi = pivot;
        }
        // The walk's state as slots: xs holds the end after the last end met, ys the next value;
        // es is the next end, counted in value slots (an end e comes before value y when
        // e <= y, i.e. e + voff <= ys). Read here, before the barrier: see below.
        const int xs_first = c0.x + lo + 1 + eoff;
        int xs = xs_first, ys = c0.y + d0 - lo + voff;
        int es = s(xs - 1).end + voff;
        team.team_barrier();  // every member has read the ends it needs before totals overwrite them

        // The serial walk, with the next end in a register. Each item reads one slot: the next
        // value, or at an end the end after it, and updates the state with selects, so a warp
        // whose members meet ends and values in different places does not run both branches;
        // kWalkUnroll items at a time with no bounds test. A segment's total goes one slot up,
        // over the end after it, which this member has just read and nobody reads after the
        // barrier (the member that starts at that end read it before), so the walk needs no
        // other bookkeeping. The first total may miss the part of its segment before this
        // member's items: the team scan adds it.
        T acc = T(0);
        const auto step = [&] {
          const bool is_end = es <= ys;
          const int slot = is_end ? xs : ys;
          const MergeSlot<T> w = s(slot);
          if (is_end) s(slot).value = acc;
          acc = is_end ? T(0) : acc + w.value;
          es = is_end ? w.end + voff : es;
          xs += is_end ? 1 : 0;
          ys += is_end ? 0 : 1;
        };
        int left = d1 - d0;
        for (; left >= kWalkUnroll; left -= kWalkUnroll)
          for (int k = 0; k < kWalkUnroll; ++k) step();
        for (; left > 0; --left) step();
        const bool met_end = xs > xs_first;

        const auto carry = scan.scan(team, SegPair<T>{acc, met_end ? 1 : 0}, SegPair<T>{T(0), 0},
                                     [](const SegPair<T>& a, const SegPair<T>& b) { return join(a, b); });
        if (met_end) s(xs_first).value += carry.exclusive.value;
        if (m == team_size - 1) tile_carry(t) = carry.inclusive;
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nx),
                             [&](int k) { sums(c0.x + k) = s(c0.x + k + 1 + eoff).value; });
      });

  add_tile_carries(space, plan, ws, sums);
}

}  // namespace
}  // namespace merge_path

template <class Space, class T>
void merge_path_reduce(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                       View<const T*, Space> values, View<const int*, Space> offsets, View<T*, Space> sums) {
  merge_path::merge_path_run(space, plan, ws, merge_path::ValueLoader<Space, T>{values, quads_of<Space, T>(values)},
                             offsets, static_cast<int>(values.extent(0)), sums);
}

template <class Space, class T>
void merge_path_spmv(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                     View<const int*, Space> row_offsets, View<const int*, Space> columns,
                     View<const T*, Space> matrix_values, View<const T*, Space> x, View<T*, Space> y) {
  merge_path::merge_path_run(space, plan, ws, merge_path::ProductLoader<Space, T>{columns, matrix_values, x},
                             row_offsets, static_cast<int>(columns.extent(0)), y);
}

#define KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, T)                                                                    \
  template void merge_path_reduce<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&, View<const T*, S>, \
                                        View<const int*, S>, View<T*, S>);                                            \
  template void merge_path_spmv<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&, View<const int*, S>, \
                                      View<const int*, S>, View<const T*, S>, View<const T*, S>, View<T*, S>);
#define KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE(S) \
  KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, float) KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, int)
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE)

}  // namespace kpz::segscan

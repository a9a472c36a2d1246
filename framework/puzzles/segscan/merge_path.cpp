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
//  1. search: tile t starts at the point on diagonal t * D (one binary search per tile, in
//     global memory; neighbouring tiles share most of the path through the cache);
//  2. tiles: team t stages its values and segment ends in scratch (eight and four independent
//     loads per member and iteration), and each member searches its own starting point there and walks
//     D / team_size items serially. A segment that ends inside the member's items is complete,
//     except the member's first one, which may have begun in an earlier member: every member
//     contributes (sum since its last end, "it had an end") to a segmented scan across the
//     team, whose exclusive result is exactly the missing part of its first segment. Totals go
//     to scratch, then to global memory in one coalesced pass. The team's scan total is the
//     tile's carry: the sum of the segment still open at the tile's end, and "the tile has an
//     end";
//  3. carries: an exclusive segmented scan of the tiles' carries gives each tile the part of its
//     first segment that lies in earlier tiles: chunks of carries are scanned in scratch, and
//     the fix-up kernel combines the few chunk aggregates before its chunk serially (or, past
//     256 chunks, reads their recursive scan) and adds the carry to that segment's total.
// Four launches in all (search, tiles, carry scan, fix-up) for up to 2^19 tiles.
// No atomics, so the result is the same on every run.
#include "segscan/segscan.hpp"

#include <stdexcept>
#include <string>

namespace kpz::segscan {
namespace {

template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> join(const SegPair<T>& a, const SegPair<T>& b) {
  return SegPair<T>{b.flag ? b.value : a.value + b.value, a.flag | b.flag};
}

// Inclusive segmented scan of cur(0..n-1) in scratch (Hillis-Steele, double-buffered; the
// caller has filled cur and waited). On return cur holds the result.
template <class Member, class Buffer>
KOKKOS_INLINE_FUNCTION void team_scan_inclusive(const Member& team, Buffer& cur, Buffer& next, int n) {
  for (int d = 1; d < n; d *= 2) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                         [&](int i) { next(i) = i >= d ? join(cur(i - d), cur(i)) : cur(i); });
    team.team_barrier();
    Kokkos::kokkos_swap(cur, next);
  }
}

// The point of the merge path on `diagonal`: x segment ends and y = diagonal - x values.
template <class OffsetView>
KOKKOS_INLINE_FUNCTION Coord merge_path_search(const OffsetView& offsets, int diagonal, int segments, int n) {
  int lo = Kokkos::max(diagonal - n, 0), hi = Kokkos::min(diagonal, segments);
  while (lo < hi) {
    const int pivot = lo + (hi - lo) / 2;
    if (offsets(pivot + 1) <= diagonal - pivot - 1) lo = pivot + 1;
    else hi = pivot;
  }
  return Coord{lo, diagonal - lo};
}

// What a value item adds: a value (--reduce) or a product A(j) * x(col(j)) (--spmv).
template <class Space, class T>
struct ValueLoader {
  View<const T*, Space> values;
  KOKKOS_INLINE_FUNCTION T operator()(int j) const { return values(j); }
};

template <class Space, class T>
struct ProductLoader {
  View<const int*, Space> columns;
  View<const T*, Space> matrix_values;
  View<const T*, Space> x;
  KOKKOS_INLINE_FUNCTION T operator()(int j) const { return matrix_values(j) * x(columns(j)); }
};

// One level of the carries' exclusive segmented scan: chunk c of ws.carry_in[level] is scanned
// in scratch; carry_out[level] gets the chunk-local exclusive result and, when there are several
// chunks, carry_in[level + 1](c) the chunk's aggregate. Returns the number of chunks.
template <class Space, class T>
int scan_chunks(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws, std::size_t level) {
  using Buffer = ScratchView<SegPair<T>*, Space>;
  const auto in = ws.carry_in[level];
  const auto out = ws.carry_out[level];
  const int n = static_cast<int>(in.extent(0));
  const int chunk = plan.chunk;
  const int chunks = (n + chunk - 1) / chunk;
  if (chunks == 0) return 0;
  const bool top = chunks == 1;
  const View<SegPair<T>*, Space> agg = top ? View<SegPair<T>*, Space>() : ws.carry_in[level + 1];
  const auto policy = TeamPolicy<Space>(space, chunks, plan.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(merge_path_carry_scratch_bytes<Space, T>(plan)));
  Kokkos::parallel_for(
      "segscan::merge_path::carry_scan", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int c = team.league_rank();
        const int first = c * chunk;
        const int count = Kokkos::min(chunk, n - first);
        Buffer cur(team.team_scratch(0), chunk), next(team.team_scratch(0), chunk);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) { cur(i) = in(first + i); });
        team.team_barrier();
        team_scan_inclusive(team, cur, next, count);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
          out(first + i) = i > 0 ? cur(i - 1) : SegPair<T>{T(0), 0};
          if (!top && i == count - 1) agg(c) = cur(i);
        });
      });
  return chunks;
}

// The whole exclusive segmented scan of ws.carry_in[level] into ws.carry_out[level]
// (chunk scans, the chunk aggregates scanned recursively, then added back).
template <class Space, class T>
void scan_carries(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws, std::size_t level) {
  if (scan_chunks(space, plan, ws, level) <= 1) return;
  scan_carries(space, plan, ws, level + 1);
  const auto out = ws.carry_out[level];
  const auto up = ws.carry_out[level + 1];
  const int chunk = plan.chunk;
  Kokkos::parallel_for(
      "segscan::merge_path::carry_apply", Kokkos::RangePolicy<Space>(space, 0, out.extent(0)),
      KOKKOS_LAMBDA(int i) { out(i) = join(up(i / chunk), out(i)); });
}

// Up to this many chunk aggregates, the fix-up combines them serially (every thread reads the
// same few values) instead of scanning them in more kernels: fewer launches.
constexpr int kSerialChunks = 256;

template <class Space, class T, class Loader>
void merge_path_run(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws, const Loader& load,
                    View<const int*, Space> offsets, int n, View<T*, Space> sums) {
  using Pairs = ScratchView<SegPair<T>*, Space>;
  using Values = ScratchView<T*, Space>;
  using Slots = ScratchView<EndOrTotal<T>*, Space>;
  const int segments = static_cast<int>(sums.extent(0));
  if (ws.segments != segments || ws.values != n)
    throw std::logic_error("merge-path workspace built for " + std::to_string(ws.segments) + " segments and " +
                           std::to_string(ws.values) + " values, used for " + std::to_string(segments) + " and " +
                           std::to_string(n));
  if (segments == 0) return;
  const int total = segments + n;
  const int tile_items = plan.tile_items;
  const int tiles = ws.tiles;
  const int team_size = plan.team_size;
  const int per_member = (tile_items + team_size - 1) / team_size;
  const auto coords = ws.coords;
  const auto tile_carry = ws.carry_in[0];

  // 1. Where each tile's share of the path starts.
  Kokkos::parallel_for(
      "segscan::merge_path::search", Kokkos::RangePolicy<Space>(space, 0, tiles + 1), KOKKOS_LAMBDA(int t) {
        const std::int64_t diagonal = static_cast<std::int64_t>(t) * tile_items;
        coords(t) = merge_path_search(offsets, static_cast<int>(diagonal < total ? diagonal : total), segments, n);
      });

  // 2. The tiles.
  const auto policy = TeamPolicy<Space>(space, tiles, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(merge_path_scratch_bytes<Space, T>(plan)));
  Kokkos::parallel_for(
      "segscan::merge_path::tiles", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Values s_val(team.team_scratch(0), tile_items);
        Slots s_slot(team.team_scratch(0), tile_items);
        Pairs cur(team.team_scratch(0), team_size), next(team.team_scratch(0), team_size);
        const int t = team.league_rank();
        const Coord c0 = coords(t), c1 = coords(t + 1);
        const int nx = c1.x - c0.x;  // segment ends in this tile
        const int ny = c1.y - c0.y;  // values in this tile

        // Stage values and ends: eight (values) and four (ends) independent global loads per
        // member and iteration; for each k the members of a warp read consecutive addresses.
        const int vq = (ny + 7) / 8;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, vq), [&](int q) {
          T v[8];
          for (int k = 0; k < 8; ++k) v[k] = q + k * vq < ny ? load(c0.y + q + k * vq) : T(0);
          for (int k = 0; k < 8; ++k)
            if (q + k * vq < ny) s_val(q + k * vq) = v[k];
        });
        const int xq = (nx + 3) / 4;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, xq), [&](int q) {
          int e[4];
          for (int k = 0; k < 4; ++k) e[k] = q + k * xq < nx ? offsets(c0.x + q + k * xq + 1) - c0.y : 0;
          for (int k = 0; k < 4; ++k)
            if (q + k * xq < nx) s_slot(q + k * xq).end = e[k];
        });
        team.team_barrier();

        // This member's items [d0, d1) of the tile's path, and where they start.
        const int m = team.team_rank();
        const int d0 = Kokkos::min(m * per_member, nx + ny);
        const int d1 = Kokkos::min(d0 + per_member, nx + ny);
        int lo = Kokkos::max(d0 - ny, 0), hi = Kokkos::min(d0, nx);
        while (lo < hi) {
          const int pivot = lo + (hi - lo) / 2;
          if (s_slot(pivot).end <= d0 - pivot - 1) lo = pivot + 1;
          else hi = pivot;
        }
        int x = lo, y = d0 - lo;
        team.team_barrier();  // every search has read the ends before totals overwrite them

        // The serial walk. The first end this member meets closes a segment that may have
        // begun before its items: keep that partial sum aside until the team scan.
        T acc = T(0), first_partial = T(0);
        int first_end = -1;
        for (int d = d0; d < d1; ++d) {
          if (x < nx && s_slot(x).end <= y) {
            if (first_end < 0) {
              first_end = x;
              first_partial = acc;
            } else {
              s_slot(x).total = acc;
            }
            acc = T(0);
            ++x;
          } else {
            acc += s_val(y);
            ++y;
          }
        }
        cur(m) = SegPair<T>{acc, first_end >= 0 ? 1 : 0};
        team.team_barrier();
        team_scan_inclusive(team, cur, next, team_size);
        if (first_end >= 0) s_slot(first_end).total = (m > 0 ? cur(m - 1).value : T(0)) + first_partial;
        if (m == team_size - 1) tile_carry(t) = cur(m);
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nx), [&](int k) { sums(c0.x + k) = s_slot(k).total; });
      });

  // 3. Segments that cross tiles: the part before the tile, added to the tile's first total.
  // Level 0 of the carry scan gives chunk-local exclusive results; the chunks' own carry-in
  // comes from a serial combination of the chunk aggregates before it (few of them), or from
  // their recursive scan when there are many.
  const int chunks = scan_chunks(space, plan, ws, 0);
  const bool serial = chunks <= kSerialChunks;
  if (!serial) scan_carries(space, plan, ws, 1);
  const auto local = ws.carry_out[0];
  const View<SegPair<T>*, Space> agg = chunks > 1 ? ws.carry_in[1] : View<SegPair<T>*, Space>();
  const View<SegPair<T>*, Space> agg_scan = serial ? View<SegPair<T>*, Space>() : ws.carry_out[1];
  const int chunk = plan.chunk;
  Kokkos::parallel_for(
      "segscan::merge_path::fixup", TeamPolicy<Space>(space, chunks, team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int c = team.league_rank();
        SegPair<T> before{T(0), 0};  // everything in the chunks before chunk c
        if (!serial) before = agg_scan(c);
        else
          for (int k = 0; k < c; ++k) before = join(before, agg(k));
        const int first = c * chunk;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Kokkos::min(chunk, tiles - first)), [&](int i) {
          const int t = first + i;
          if (tile_carry(t).flag) sums(coords(t).x) += join(before, local(t)).value;
        });
      });
}

}  // namespace

template <class Space, class T>
MergePathWorkspace<Space, T>::MergePathWorkspace(const Space& space, const MergePathPlan& plan, std::int64_t segments_,
                                                 std::int64_t values_)
    : segments(segments_), values(values_) {
  if (plan.tile_items < 1 || plan.team_size < 1 || plan.chunk < 2)
    throw std::logic_error("merge-path plan needs tile_items >= 1, team_size >= 1, chunk >= 2");
  const std::int64_t total = segments + values;
  if (total >= (std::int64_t{1} << 31) - plan.tile_items)
    throw std::logic_error("merge path: segments + values must stay below 2^31");
  tiles = segments == 0 ? 0 : static_cast<int>((total + plan.tile_items - 1) / plan.tile_items);
  coords = View<Coord*, Space>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::merge_path::coords"),
                               tiles + 1);
  int n = tiles;
  while (true) {
    carry_in.emplace_back(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::merge_path::carry_in"), n);
    carry_out.emplace_back(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::merge_path::carry_out"), n);
    if (n <= plan.chunk) break;
    n = (n + plan.chunk - 1) / plan.chunk;
  }
}

template <class Space, class T>
void merge_path_reduce(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                       View<const T*, Space> values, View<const int*, Space> offsets, View<T*, Space> sums) {
  merge_path_run(space, plan, ws, ValueLoader<Space, T>{values}, offsets, static_cast<int>(values.extent(0)), sums);
}

template <class Space, class T>
void merge_path_spmv(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                     View<const int*, Space> row_offsets, View<const int*, Space> columns,
                     View<const T*, Space> matrix_values, View<const T*, Space> x, View<T*, Space> y) {
  merge_path_run(space, plan, ws, ProductLoader<Space, T>{columns, matrix_values, x}, row_offsets,
                 static_cast<int>(columns.extent(0)), y);
}

#define KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, T)                                                            \
  template struct MergePathWorkspace<S, T>;                                                                  \
  template void merge_path_reduce<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&,           \
                                        View<const T*, S>, View<const int*, S>, View<T*, S>);                \
  template void merge_path_spmv<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&,             \
                                      View<const int*, S>, View<const int*, S>, View<const T*, S>,           \
                                      View<const T*, S>, View<T*, S>);
#define KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE(S) \
  KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, float) KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE_T(S, int)
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_MERGE_PATH_INSTANTIATE)

}  // namespace kpz::segscan

// segscan exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run segscan`
// (or the tests; bug hunts: `kpuzzles trace segscan --bug-...` in the trace build).
// The solution is in reference/segscan/, but try first: docs/puzzles/segscan.md has hints.
// This file is generated from the reference; `python3 cmake/kpz_skeletons.py --write segscan`
// restores it (and discards your work).
#include "segscan/segscan.hpp"

namespace kpz::segscan::exercise {

// The segmented operator on (value, flag) pairs; `a` is the earlier operand, `b` the later one:
//   (v_a, f_a) (+) (v_b, f_b) = (f_b ? v_b : v_a + v_b, f_a | f_b).
// A flag means "a segment starts here or somewhere in the range this pair sums up".
template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> combine(const SegPair<T>& a, const SegPair<T>& b) {
  SegPair<T> r{T(0), 0};
  // TODO(roughly 2 lines): if the later operand b starts a segment, the earlier sum must not leak into it: r.value = b.flag ? b.value : a.value + b.value; and the range of r has a head if either part has one: r.flag = a.flag | b.flag.
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
  // TODO(roughly 8 lines): for d = 1, 2, 4, ... while d < n: every i of a TeamThreadRange over n writes next(i) = i >= d ? combine(cur(i - d), cur(i)) : cur(i); then team.team_barrier() so that every member has finished the step; then swap cur and next (Kokkos::kokkos_swap) so that the next step reads what this one wrote.
}

template <class Space, class T>
void inclusive_simple(const Space& space, int team_size, View<const T*, Space> values,
                      View<const Flag*, Space> flags, View<T*, Space> out) {
  using Buffer = ScratchView<SegPair<T>*, Space>;
  const int n = static_cast<int>(values.extent(0));
  // One team (CUDA: one block); its scratch holds two buffers of n pairs.
  const auto policy = TeamPolicy<Space>(space, 1, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(hillis_steele_scratch_bytes<Space, T>(n)));
  Kokkos::parallel_for(
      "segscan::inclusive_simple", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Buffer cur(team.team_scratch(0), n), next(team.team_scratch(0), n);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                             [&](int i) { cur(i) = SegPair<T>{values(i), static_cast<int>(flags(i))}; });
        team.team_barrier();
        hillis_steele(team, cur, next, n);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) { out(i) = cur(i).value; });
      });
}

template <class Space, class T>
void exclusive(const Space& space, int team_size, View<const T*, Space> values, View<const Flag*, Space> flags,
               View<T*, Space> out) {
  using Buffer = ScratchView<SegPair<T>*, Space>;
  const int n = static_cast<int>(values.extent(0));
  const auto policy = TeamPolicy<Space>(space, 1, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(hillis_steele_scratch_bytes<Space, T>(n)));
  Kokkos::parallel_for(
      "segscan::exclusive", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Buffer cur(team.team_scratch(0), n), next(team.team_scratch(0), n);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                             [&](int i) { cur(i) = SegPair<T>{values(i), static_cast<int>(flags(i))}; });
        team.team_barrier();
        hillis_steele(team, cur, next, n);
        // cur now holds the inclusive scan, and the last step ended with a barrier.
        // TODO(roughly 3 lines): the exclusive result shifts the inclusive one by one place inside each segment: out(i) = 0 where a segment starts (i == 0 or flags(i)), else the inclusive value of the element before, cur(i - 1).value.
      });
}

template <class Space, class T>
void work_efficient(const Space& space, int team_size, View<const T*, Space> values,
                    View<const Flag*, Space> flags, View<T*, Space> out) {
  using Buffer = ScratchView<SegPair<T>*, Space>;
  const int n = static_cast<int>(values.extent(0));
  const int p = next_pow2(n);  // the tree has p leaves; leaves past n hold the identity
  const auto policy = TeamPolicy<Space>(space, 1, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(blelloch_scratch_bytes<Space, T>(n)));
  Kokkos::parallel_for(
      "segscan::work_efficient", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Buffer a(team.team_scratch(0), p);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p), [&](int i) {
          a(i) = i < n ? SegPair<T>{values(i), static_cast<int>(flags(i))} : identity<T>();
        });
        team.team_barrier();
        // TODO(roughly 8 lines): up-sweep: for d = 1, 2, 4, ... while d < p: node k of a TeamThreadRange over p / (2 * d) has right = (2 * k + 2) * d - 1 and combines its left child into it: a(right) = combine(a(right - d), a(right)); team.team_barrier() after every level.
        // TODO(roughly 12 lines): down-sweep: one member (Kokkos::single(Kokkos::PerTeam(team), ...)) sets the root a(p - 1) = identity<T>(), then barrier. For d = p / 2, p / 4, ..., 1: node k (right = (2 * k + 2) * d - 1, left = right - d) does t = a(left); a(left) = a(right); a(right) = combine(a(right), t); barrier after every level. Afterwards a(i) is the exclusive pair-scan: everything before element i combined.
        // TODO(roughly 3 lines): the inclusive result combines what comes before element i with the element itself: out(i) = combine(a(i), SegPair<T>{values(i), flags(i)}).value for every i < n.
      });
}

template <class Space, class T>
void multi_team(const Space& space, const Launch& launch, View<const T*, Space> values,
                View<const Flag*, Space> flags, View<T*, Space> out) {
  using Buffer = ScratchView<SegPair<T>*, Space>;
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
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) {
          cur(i) = SegPair<T>{values(first + i), static_cast<int>(flags(first + i))};
        });
        team.team_barrier();
        hillis_steele(team, cur, next, count);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) { out(first + i) = cur(i).value; });
        // TODO(roughly 8 lines): in a TeamThreadRange over count: the member with i == count - 1 writes the tile's aggregate agg_values(t) = cur(i).value, agg_flags(t) = cur(i).flag, and first_head(t) = count if that flag is 0 (no head in the tile); the member whose i is the first head (cur(i).flag set and, unless i == 0, cur(i - 1).flag not set) writes first_head(t) = i.
      });
  if (tiles == 1) return;

  // carry(t): the inclusive segmented scan of the aggregates at tile t, i.e. the sum of the
  // segment that is still open at the end of tile t.
  View<T*, Space> carry(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::carry"), tiles);
  // TODO(roughly 2 lines): the aggregates are (value, flag) pairs, so their scan is a segmented scan too: call multi_team itself on agg_values and agg_flags (as Views of const) with output carry.

  Kokkos::parallel_for(
      "segscan::multi_team::carry", TeamPolicy<Space>(space, tiles - 1, launch.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank() + 1;  // tile 0 has nothing before it
        const int first = t * tile;
        // TODO(roughly 4 lines): tile t's carry-in is carry(t - 1); add it to out(first + i) for every i before the tile's first head (a TeamThreadRange over first_head(t)): those elements continue a segment that began in an earlier tile.
      });
}

template <class Space, class T>
void reduce(const Space& space, const Launch& launch, View<const T*, Space> values, View<const int*, Space> offsets,
            View<T*, Space> sums) {
  const int n = static_cast<int>(values.extent(0));
  const int segments = static_cast<int>(sums.extent(0));
  View<Flag*, Space> flags(Kokkos::view_alloc(space, "segscan::reduce::flags"), n);  // zeros
  View<T*, Space> scan(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::reduce::scan"), n);
  // TODO(roughly 4 lines): head flags from the CSR offsets: in a parallel_for over the segments (Kokkos::RangePolicy<Space>(space, 0, segments)), every non-empty segment s (offsets(s) < offsets(s + 1)) sets flags(offsets(s)) = 1.
  multi_team(space, launch, values, View<const Flag*, Space>(flags), scan);
  // TODO(roughly 4 lines): a segment's total is the inclusive scan at its last element: sums(s) = scan(offsets(s + 1) - 1) for a non-empty segment, T(0) for an empty one (a parallel_for over the segments).
}

template <class Space, class T>
void spmv(const Space& space, const Launch& launch, View<const int*, Space> row_offsets,
          View<const int*, Space> columns, View<const T*, Space> matrix_values, View<const T*, Space> x,
          View<T*, Space> y) {
  const int nnz = static_cast<int>(columns.extent(0));
  View<T*, Space> products(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "segscan::spmv::products"), nnz);
  // TODO(roughly 3 lines): one product per nonzero: products(j) = matrix_values(j) * x(columns(j)) (a parallel_for over the nnz nonzeros).
  // TODO(roughly 1 line): y is the segmented reduction of the products over the rows: call reduce with row_offsets as the segment offsets.
}

KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_INSTANTIATE)

}  // namespace kpz::segscan::exercise

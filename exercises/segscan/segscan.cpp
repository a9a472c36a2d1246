// segscan exercise: fill in every TODO, then run `kpuzzles run segscan`
// (or the tests). Host builds race-check every pass; `kpuzzles trace segscan --<variant>`
// draws the accesses. The solution is in reference/segscan/, but try first: the hints are in
// docs/puzzles/segscan.md. Generated from the reference: `kpuzzles reset segscan` restores it
// (your work is kept as a backup).
#include "segscan/segscan.hpp"
#include "combine.hpp"

namespace kpz::segscan::exercise {

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

// One team scans all n pairs. Then write(team, cur, n) writes out from cur, the inclusive scan
// (whose last step ended with a barrier, so any member may read any cur(i)).
template <class Space, class T, class Write>
void one_team_scan(const Space& space, int team_size, const char* name, View<const T*, Space> values,
                   View<const Flag*, Space> flags, Write write) {
  using Buffer = PairBuffer<Space, T>;
  const int n = static_cast<int>(values.extent(0));
  // One team (CUDA: one block) of team_size members. Its level-0 scratch (CUDA: __shared__
  // memory) holds two buffers of n pairs: the views cur and next below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 3 lines): make policy the launch the comment above describes: one team of
  //   team_size members, with a level-0 request, per team, for the bytes cur and next carve.
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
  // One team (CUDA: one block) of team_size members. Its level-0 scratch holds the tree, all p
  // leaves of it: the view a below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 3 lines): make policy the launch the comment above describes: one team of
  //   team_size members, with a level-0 request, per team, for the bytes the view a carves.
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
  // A team (CUDA: a block) per tile, of launch.team_size members. Each team's level-0 scratch
  // holds two buffers of tile pairs: the views cur and next below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 3 lines): make policy the launch the comment above describes: one team per
  //   tile, of launch.team_size members, with a level-0 request, per team, for the bytes cur and
  //   next carve.
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

KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_INSTANTIATE_SCANS)

}  // namespace kpz::segscan::exercise

// Step 3 of the framework's merge path (merge_path.cpp): the exclusive segmented scan of the
// tiles' carries and the fix-up that adds them to the totals of segments that cross tiles.
#include <cstddef>

#include "segscan/merge_path_steps.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan::merge_path {

namespace {

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

}  // namespace

template <class Space, class T>
void add_tile_carries(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                      View<T*, Space> sums) {
  const int tiles = ws.tiles;
  const auto coords = ws.coords;
  const auto tile_carry = ws.carry_in[0];
  // 3. Segments that cross tiles: the part before the tile, added to the tile's first total.
  // Level 0 of the carry scan gives chunk-local exclusive results; the chunk aggregates are
  // scanned in turn (one team up to `chunk` chunks), and the fix-up, one thread per tile,
  // combines the two. Short kernels with many teams: the earlier fix-up, a team per chunk that
  // combined up to 256 aggregates serially, took about 18 us on the H100 (Nsight Compute).
  const int chunks = scan_chunks(space, plan, ws, 0);
  if (chunks > 1) scan_carries(space, plan, ws, 1);
  const auto local = ws.carry_out[0];
  const View<SegPair<T>*, Space> agg_scan = chunks > 1 ? ws.carry_out[1] : View<SegPair<T>*, Space>();
  const int chunk = plan.chunk;
  Kokkos::parallel_for(
      "segscan::merge_path::fixup", Kokkos::RangePolicy<Space>(space, 0, tiles), KOKKOS_LAMBDA(int t) {
        if (!tile_carry(t).flag) return;
        const SegPair<T> carry = chunks > 1 ? join(agg_scan(t / chunk), local(t)) : local(t);
        sums(coords(t).x) += carry.value;
      });
}

#define KPZ_SEGSCAN_CARRIES_INSTANTIATE_T(S, T) \
  template void add_tile_carries<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&, View<T*, S>);
#define KPZ_SEGSCAN_CARRIES_INSTANTIATE(S) \
  KPZ_SEGSCAN_CARRIES_INSTANTIATE_T(S, float) KPZ_SEGSCAN_CARRIES_INSTANTIATE_T(S, int)
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_CARRIES_INSTANTIATE)

}  // namespace kpz::segscan::merge_path

// Step 3 of the framework's merge path (merge_path.cpp): the exclusive segmented scan of the
// tiles' carries and the fix-up that adds them to the totals of segments that cross tiles.
#include <cstddef>

#include "segscan/fast/kernels.hpp"
#include "segscan/fast/merge_path_steps.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan::merge_path {

namespace {

// One level of the carries' exclusive segmented scan: chunk c of ws.carry_in[level] is scanned
// by one team; carry_out[level] gets the chunk-local exclusive result and, when there are several
// chunks, carry_in[level + 1](c) the chunk's aggregate. Returns the number of chunks.
// Raking (CUB's BlockScan with several items per thread): each member joins its run of
// consecutive pairs serially, the runs' totals meet in one team scan (OrderedScan: warp
// shuffles on CUDA, two barriers), and the member walks its run again from that prefix. The
// earlier Hillis-Steele in scratch took log2(chunk) barrier-separated rounds over the chunk.
template <class Space, class T>
int scan_chunks(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws, std::size_t level) {
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
  check_warp_launch(policy);  // OrderedScan's shuffle path
  Kokkos::parallel_for(
      "segscan::merge_path::carry_scan", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const kpz::team::OrderedScan<Space, SegPair<T>> scan(team);
        const int first = team.league_rank() * chunk;
        const int count = Kokkos::min(chunk, n - first);
        const int run = (count + team.team_size() - 1) / team.team_size();
        const int lo = Kokkos::min(count, team.team_rank() * run), hi = Kokkos::min(count, lo + run);
        SegPair<T> acc{T(0), 0};
        for (int i = lo; i < hi; ++i) acc = join(acc, in(first + i));
        acc = scan.scan(team, acc, SegPair<T>{T(0), 0},
                        [](const SegPair<T>& a, const SegPair<T>& b) { return join(a, b); })
                  .exclusive;
        for (int i = lo; i < hi; ++i) {
          const SegPair<T> x = in(first + i);
          out(first + i) = acc;
          acc = join(acc, x);
        }
        if (!top && lo < hi && hi == count) agg(team.league_rank()) = acc;  // the member with the last pair
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

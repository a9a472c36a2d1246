// Step 1 of the framework's merge path (merge_path.cpp): where each tile starts on the path,
// and the workspace the steps share.
#include <cstdint>
#include <stdexcept>

#include "segscan/fast/kernels.hpp"
#include "segscan/fast/merge_path_steps.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan {

namespace merge_path {

namespace {

// The point of the merge path on `diagonal` when its x lies in [lo, hi]: a binary search (see
// merge_path_search for the predicate).
template <class OffsetView>
KOKKOS_INLINE_FUNCTION Coord bisect_diagonal(const OffsetView& offsets, int diagonal, int lo, int hi) {
  while (lo < hi) {
    const int pivot = lo + (hi - lo) / 2;
    if (offsets(pivot + 1) <= diagonal - pivot - 1)
      lo = pivot + 1;
    else
      hi = pivot;
  }
  return Coord{lo, diagonal - lo};
}

// The point of the merge path on `diagonal`: x segment ends and y = diagonal - x values.
// "End x comes before the value at diagonal - x - 1" is true below the answer and false from
// it on. Fifteen probes per round, loaded together, cut the range 16-fold: 7 rounds of
// dependent loads for 2^26 segments instead of 26 (the search is latency-bound: one thread
// per tile, few threads).
template <class OffsetView>
KOKKOS_INLINE_FUNCTION Coord merge_path_search(const OffsetView& offsets, int diagonal, int segments, int n) {
  constexpr int kProbes = 15;
  int lo = Kokkos::max(diagonal - n, 0), hi = Kokkos::min(diagonal, segments);
  while (hi - lo > kProbes) {
    int pivot[kProbes], end[kProbes];
    for (int i = 0; i < kProbes; ++i) {
      pivot[i] = lo + static_cast<int>(static_cast<std::int64_t>(hi - lo) * (i + 1) / (kProbes + 1));
      end[i] = offsets(pivot[i] + 1);
    }
    int below = 0;  // probes below the answer
    for (int i = 0; i < kProbes; ++i) below += end[i] <= diagonal - pivot[i] - 1 ? 1 : 0;
    const int new_lo = below > 0 ? pivot[below - 1] + 1 : lo;
    hi = below < kProbes ? pivot[below] : hi;
    lo = new_lo;
  }
  return bisect_diagonal(offsets, diagonal, lo, hi);
}

// Every kSearchStride-th tile searches the whole path (15 probes per round: few threads, so
// the rounds' latency matters, not their loads); the tiles between two of those search only
// the bracket they leave, about kSearchStride tiles' worth of segment ends that neighbouring
// tiles share through L2. One search of the whole path per tile read about 28 offsets per
// tile from DRAM at L = 4 (Nsight Compute: 95 us, 10 % of the call).
constexpr int kSearchStride = 32;

}  // namespace

template <class Space, class T>
void locate_tiles(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                  View<const int*, Space> offsets, int n) {
  const int segments = static_cast<int>(ws.segments);
  const int total = segments + n;
  const int tile_items = plan.tile_items;
  const int tiles = ws.tiles;
  const auto coords = ws.coords;
  const auto diagonal = KOKKOS_LAMBDA(int t) {
    const std::int64_t d = static_cast<std::int64_t>(t) * tile_items;
    return static_cast<int>(d < total ? d : total);
  };
  const int coarse = (tiles + kSearchStride - 1) / kSearchStride + 1;  // tiles 0, 32, ... and the end
  Kokkos::parallel_for(
      "segscan::merge_path::search_coarse", Kokkos::RangePolicy<Space>(space, 0, coarse), KOKKOS_LAMBDA(int i) {
        const int t = Kokkos::min(i * kSearchStride, tiles);
        coords(t) = merge_path_search(offsets, diagonal(t), segments, n);
      });
  Kokkos::parallel_for(
      "segscan::merge_path::search_fine", Kokkos::RangePolicy<Space>(space, 0, tiles), KOKKOS_LAMBDA(int t) {
        if (t % kSearchStride == 0) return;
        const int t0 = t - t % kSearchStride, t1 = Kokkos::min(t0 + kSearchStride, tiles);
        const int d = diagonal(t);
        coords(t) = bisect_diagonal(offsets, d, Kokkos::max(d - n, coords(t0).x), Kokkos::min(d, coords(t1).x));
      });
}

#define KPZ_SEGSCAN_LOCATE_INSTANTIATE_T(S, T) \
  template void locate_tiles<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&, View<const int*, S>, int);
#define KPZ_SEGSCAN_LOCATE_INSTANTIATE(S) \
  KPZ_SEGSCAN_LOCATE_INSTANTIATE_T(S, float) KPZ_SEGSCAN_LOCATE_INSTANTIATE_T(S, int)
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_LOCATE_INSTANTIATE)

}  // namespace merge_path

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
void merge_path_locate(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                       View<const int*, Space> offsets) {
  if (ws.segments == 0) return;
  merge_path::locate_tiles(space, plan, ws, offsets, static_cast<int>(ws.values));
}

#define KPZ_SEGSCAN_WORKSPACE_INSTANTIATE_T(S, T) \
  template struct MergePathWorkspace<S, T>;       \
  template void merge_path_locate<S, T>(const S&, const MergePathPlan&, MergePathWorkspace<S, T>&, View<const int*, S>);
#define KPZ_SEGSCAN_WORKSPACE_INSTANTIATE(S) \
  KPZ_SEGSCAN_WORKSPACE_INSTANTIATE_T(S, float) KPZ_SEGSCAN_WORKSPACE_INSTANTIATE_T(S, int)
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_WORKSPACE_INSTANTIATE)

}  // namespace kpz::segscan

#pragma once
// The steps of the merge-path kernels (merge_path.cpp walks the tiles) that have files of their
// own: finding where each tile starts (merge_path_search.cpp) and the segmented scan of the
// tiles' carries with its fix-up (merge_path_carries.cpp). Private to these three files.
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan::merge_path {

template <class T>
KOKKOS_INLINE_FUNCTION SegPair<T> join(const SegPair<T>& a, const SegPair<T>& b) {
  return SegPair<T>{b.flag ? b.value : a.value + b.value, a.flag | b.flag};
}

// Step 1: ws.coords(t) = the point of the path where tile t starts, for every tile and the end.
template <class Space, class T>
void locate_tiles(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                  View<const int*, Space> offsets, int n);

// Step 3: segments that cross tiles. Scans the tiles' carries (ws.carry_in[0], written by the
// tiles) and adds to each tile's first total the part of its segment in earlier tiles.
template <class Space, class T>
void add_tile_carries(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                      View<T*, Space> sums);

}  // namespace kpz::segscan::merge_path

// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void reduce(const Space& space, View<const float*, Space> x, Extremes& result) {
  const Kokkos::RangePolicy<Space> range(space, 0, x.extent(0));
  // TODO(roughly 4 lines): the largest x(i) into result.max, with Kokkos' built-in Max reducer.
  //   A parallel_reduce named "basics::max" over range.
  using MinLoc = Kokkos::MinLoc<float, int>;
  typename MinLoc::value_type min_loc{};
  // TODO(roughly 6 lines): the smallest x(i) (val) and an i where it is (loc), into min_loc.
  //   A parallel_reduce named "basics::min_loc" over range with the reducer MinLoc.
  result.min = min_loc.val;
  result.min_index = min_loc.loc;
}

template <class Space>
void scan(const Space& space, View<const int*, Space> counts, View<int*, Space> offsets) {
  const int n = static_cast<int>(counts.extent(0));
  // TODO(roughly 6 lines): in offsets(i), the sum of counts(j) for j < i, for every i <= n.
  //   A parallel_scan named "basics::scan" over a RangePolicy<Space> on `space`, an int sum.
}

template <class Space>
void histogram_atomic(const Space& space, View<const int*, Space> values, View<int*, Space> bins) {
  Kokkos::deep_copy(space, bins, 0);
  // TODO(roughly 4 lines): count every values(i) in bins; many i share one bin.
  //   A parallel_for named "basics::histogram_atomic" over a RangePolicy<Space> on `space`.
}

template <class Space>
void histogram_scatter(const Space& space, View<const int*, Space> values, View<int*, Space> bins) {
  Kokkos::deep_copy(space, bins, 0);
  // Per-thread copies of bins on a CPU, atomics on a GPU: the backend's choice.
  Kokkos::Experimental::ScatterView<int*, typename View<int*, Space>::array_layout, Space> scatter(bins);
  // TODO(roughly 6 lines): count every values(i) through scatter, then add its counts to bins.
  //   A parallel_for named "basics::histogram_scatter" over a RangePolicy<Space> on `space`.
}

KPZ_FOR_EACH_SPACE(KPZ_BASICS_INSTANTIATE_REDUCTIONS)

}  // namespace kpz::basics::exercise

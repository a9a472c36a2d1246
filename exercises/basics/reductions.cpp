// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"
#include "kpz/reducer.hpp"

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

// A reducer is a class, not a value type with operator+= and a Kokkos::reduction_identity: the
// same object serves every parallel_reduce (RangePolicy, TeamThreadRange, ThreadVectorRange) and
// team_reduce, and the merge has a name instead of hiding behind +=. kpz::Reducer holds the
// result and the contract's type names; a reducer adds the two things that make it itself.
struct MomentsReducer : kpz::Reducer<MomentsReducer, Moments> {
  KOKKOS_INLINE_FUNCTION explicit MomentsReducer(Moments& result) : MomentsReducer::Reducer(result) {}

  // The identity: each thread's accumulator starts from it.
  KOKKOS_INLINE_FUNCTION void init(Moments& v) const {
    // TODO(roughly 1 line): v becomes the summary of no values at all.
  }

  // dest and src summarise two sets of values with nothing in common; Kokkos merges the threads'
  // summaries in whatever grouping the backend likes.
  KOKKOS_INLINE_FUNCTION void join(Moments& dest, const Moments& src) const {
    // TODO(roughly 6 lines): dest becomes the summary of dest's values and src's together: the
    //   count, the mean and m2 of all of them, from the two counts, means and m2s. Either summary
    //   may be of no values at all.
  }
};

template <class Space>
void moments(const Space& space, View<const float*, Space> x, Moments& result) {
  // x in two parts, the first third and the rest, each reduced by its own launch; their summaries
  // are merged here on the host, as summaries computed apart (two launches, two GPUs, two MPI
  // ranks) are. So a merge of two real summaries happens on every backend, Serial included.
  const int n = static_cast<int>(x.extent(0));
  const int split = n / 3;
  Moments part[2] = {};
  for (int p = 0; p < 2; ++p) {
    const Kokkos::RangePolicy<Space> range(space, p == 0 ? 0 : split, p == 0 ? split : n);
    // TODO(roughly 6 lines): part[p] becomes the summary of the x(i) of range, in one
    //   parallel_reduce named "basics::moments" with a MomentsReducer on part[p]: each x(i) is a
    //   summary of one value, merged into the body's accumulator by the reducer's own merge.
  }
  const MomentsReducer merge(result);
  merge.init(result);
  merge.join(result, part[0]);
  merge.join(result, part[1]);
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

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_REDUCTION_KERNELS)

}  // namespace kpz::basics::exercise

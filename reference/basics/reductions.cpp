// basics reference solution, steps 6-9: parallel_reduce with reducers, a custom reducer,
// parallel_scan, atomics and ScatterView. exercises/basics/reductions.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "basics/basics.hpp"
#include "kpz/reducer.hpp"

namespace kpz::basics::reference {

template <class Space>
void reduce(const Space& space, View<const float*, Space> x, Extremes& result) {
  const Kokkos::RangePolicy<Space> range(space, 0, x.extent(0));
  // KPZ-TODO(roughly 4 lines): the largest x(i) into result.max, with Kokkos' built-in Max reducer.
  //   A parallel_reduce named "basics::max" over range.
  Kokkos::parallel_reduce(
      "basics::max", range,
      KOKKOS_LAMBDA(int i, float& m) {
        const float xi = x(i);
        m = Kokkos::max(m, xi);
      },
      Kokkos::Max<float>(result.max));
  // KPZ-END
  using MinLoc = Kokkos::MinLoc<float, int>;
  typename MinLoc::value_type min_loc{};
  // KPZ-TODO(roughly 6 lines): the smallest x(i) (val) and an i where it is (loc), into min_loc.
  //   A parallel_reduce named "basics::min_loc" over range with the reducer MinLoc.
  Kokkos::parallel_reduce(
      "basics::min_loc", range,
      KOKKOS_LAMBDA(int i, typename MinLoc::value_type& m) {
        const float xi = x(i);
        if (xi < m.val) {
          m.val = xi;
          m.loc = i;
        }
      },
      MinLoc(min_loc));
  // KPZ-END
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
    // KPZ-TODO(roughly 1 line): v becomes the summary of no values at all.
    v = Moments{0, 0.0f, 0.0f};
    // KPZ-END
  }

  // dest and src summarise two sets of values with nothing in common; Kokkos merges the threads'
  // summaries in whatever grouping the backend likes.
  KOKKOS_INLINE_FUNCTION void join(Moments& dest, const Moments& src) const {
    // KPZ-TODO(roughly 6 lines): dest becomes the summary of dest's values and src's together: the
    //   count, the mean and m2 of all of them, from the two counts, means and m2s. Either summary
    //   may be of no values at all.
    if (src.count == 0) return;
    const int n = dest.count + src.count;
    const float delta = src.mean - dest.mean;
    dest.mean += delta * static_cast<float>(src.count) / static_cast<float>(n);
    dest.m2 +=
        src.m2 + delta * delta * static_cast<float>(dest.count) * static_cast<float>(src.count) / static_cast<float>(n);
    dest.count = n;
    // KPZ-END
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
    // KPZ-TODO(roughly 6 lines): part[p] becomes the summary of the x(i) of range, in one
    //   parallel_reduce named "basics::moments" with a MomentsReducer on part[p]: each x(i) is a
    //   summary of one value, merged into the body's accumulator by the reducer's own merge.
    const MomentsReducer reducer(part[p]);
    Kokkos::parallel_reduce(
        "basics::moments", range,
        KOKKOS_LAMBDA(int i, Moments& acc) {
          const float xi = x(i);
          reducer.join(acc, Moments{1, xi, 0.0f});
        },
        reducer);
    // KPZ-END
  }
  const MomentsReducer merge(result);
  merge.init(result);
  merge.join(result, part[0]);
  merge.join(result, part[1]);
}

template <class Space>
void scan(const Space& space, View<const int*, Space> counts, View<int*, Space> offsets) {
  const int n = static_cast<int>(counts.extent(0));
  // KPZ-TODO(roughly 6 lines): in offsets(i), the sum of counts(j) for j < i, for every i <= n.
  //   A parallel_scan named "basics::scan" over a RangePolicy<Space> on `space`, an int sum.
  Kokkos::parallel_scan(
      "basics::scan", Kokkos::RangePolicy<Space>(space, 0, n + 1), KOKKOS_LAMBDA(int i, int& prefix, bool final) {
        const int c = i < n ? counts(i) : 0;
        if (final) offsets(i) = prefix;
        prefix += c;
      });
  // KPZ-END
}

template <class Space>
void histogram_atomic(const Space& space, View<const int*, Space> values, View<int*, Space> bins) {
  Kokkos::deep_copy(space, bins, 0);
  // KPZ-TODO(roughly 4 lines): count every values(i) in bins; many i share one bin.
  //   A parallel_for named "basics::histogram_atomic" over a RangePolicy<Space> on `space`.
  Kokkos::parallel_for(
      "basics::histogram_atomic", Kokkos::RangePolicy<Space>(space, 0, values.extent(0)), KOKKOS_LAMBDA(int i) {
        const int b = values(i);
        Kokkos::atomic_add(&bins(b), 1);
      });
  // KPZ-END
}

template <class Space>
void histogram_scatter(const Space& space, View<const int*, Space> values, View<int*, Space> bins) {
  Kokkos::deep_copy(space, bins, 0);
  // Per-thread copies of bins on a CPU, atomics on a GPU: the backend's choice.
  Kokkos::Experimental::ScatterView<int*, typename View<int*, Space>::array_layout, Space> scatter(bins);
  // KPZ-TODO(roughly 6 lines): count every values(i) through scatter, then add its counts to bins.
  //   A parallel_for named "basics::histogram_scatter" over a RangePolicy<Space> on `space`.
  Kokkos::parallel_for(
      "basics::histogram_scatter", Kokkos::RangePolicy<Space>(space, 0, values.extent(0)), KOKKOS_LAMBDA(int i) {
        auto access = scatter.access();
        const int b = values(i);
        access(b) += 1;
      });
  Kokkos::Experimental::contribute(bins, scatter);
  // KPZ-END
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_REDUCTION_KERNELS)

}  // namespace kpz::basics::reference

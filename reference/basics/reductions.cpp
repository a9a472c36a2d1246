// basics reference solution, steps 4-6: parallel_reduce with reducers, parallel_scan, atomics
// and ScatterView. exercises/basics/reductions.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "basics/basics.hpp"

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

KPZ_FOR_EACH_SPACE(KPZ_BASICS_INSTANTIATE_REDUCTIONS)

}  // namespace kpz::basics::reference

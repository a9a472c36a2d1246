// basics exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run basics`
// (or the tests; bug hunts: `kpuzzles trace basics --bug-...` in the trace build).
// The solution is in reference/basics/, but try first: docs/puzzles/basics.md has hints.
// This file is generated from the reference; `python3 cmake/kpz_skeletons.py --write basics`
// restores it (and discards your work).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void views(const Space& space, HostView<const float*> in, HostView<float*> out) {
  const int n = static_cast<int>(in.extent(0));
  View<float*, Space> d;                             // the data in the device's memory
  typename View<float*, Space>::host_mirror_type h;  // the same data's copy in host memory
  // TODO(roughly 4 lines): allocate d and its host mirror h, fill h from in, copy h to d.
  // The work on the device (step 2 explains RangePolicy): d(i) = 2 d(i) + 1.
  Kokkos::parallel_for(
      "basics::views", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  // TODO(roughly 3 lines): copy d back into h, wait for that copy, then copy h into out.
}

template <class Space>
void axpy(const Space& space, float alpha, View<const float*, Space> x, View<const float*, Space> y,
          View<float*, Space> z) {
  const int n = static_cast<int>(z.extent(0));
  // TODO(roughly 3 lines): z(i) = alpha * x(i) + y(i) for every i < n, on the device.
}

template <class Space>
void mdrange(const Space& space, View<const float**, Space> in, View<const float*, Space> u,
             View<const float*, Space> v, View<float**, Space> out) {
  const int rows = static_cast<int>(u.extent(0));
  const int cols = static_cast<int>(v.extent(0));
  // TODO(roughly 3 lines): out(i, j) = in(i, j) + u(i) * v(j) for every i < rows, j < cols.
}

KPZ_FOR_EACH_SPACE(KPZ_BASICS_INSTANTIATE_RANGES)

}  // namespace kpz::basics::exercise

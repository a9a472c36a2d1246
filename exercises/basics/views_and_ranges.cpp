// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void views(const Space& space, HostView<const float*> in, HostView<float*> out) {
  const int n = static_cast<int>(in.extent(0));
  View<float*, Space> d;                             // the data in the device's memory
  typename View<float*, Space>::host_mirror_type h;  // the same data's copy in host memory
  // TODO(roughly 4 lines): allocate d and its host mirror h, fill h from in, copy h to d. d
  //   holds n floats in the memory of `space` (label "d"); the copy to d runs on `space`.
  // The work on the device (step 3 explains RangePolicy): d(i) = 2 d(i) + 1.
  Kokkos::parallel_for(
      "basics::views", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  // TODO(roughly 3 lines): copy d back into h, wait for that copy, then copy h into out. The
  //   copy into h runs on `space`; the one into out on the host.
}

// --dualview: the work of --views with a DualView, which holds the data on both sides and keeps
// track of which side is newer. The framework calls these four in order and checks dv after each.
template <class Space>
void dualview_fill(HostView<const float*> in, DualView<float*, Space> dv) {
  const int n = static_cast<int>(in.extent(0));
  // TODO(roughly 3 lines): dv's host side holds in(i) for every i < n, and dv knows that its
  //   host side is now the newer one.
}

template <class Space>
void dualview_to_device(const Space& space, DualView<float*, Space> dv) {
  // TODO(roughly 1 line): dv's device side holds what its host side holds, copied on `space`.
}

template <class Space>
void dualview_compute(const Space& space, DualView<float*, Space> dv) {
  const auto d = dv.view_device();
  // The work on the device, as in --views: d(i) = 2 d(i) + 1.
  Kokkos::parallel_for(
      "basics::dualview", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  // TODO(roughly 1 line): dv knows that its device side is now the newer one.
}

template <class Space>
void dualview_to_host(const Space& space, DualView<float*, Space> dv) {
  // TODO(roughly 1 line): dv's host side holds what its device side holds, copied on `space`
  //   (the framework waits for `space` before it reads).
}

template <class Space>
void axpy(const Space& space, float alpha, View<const float*, Space> x, View<const float*, Space> y,
          View<float*, Space> z) {
  const int n = static_cast<int>(z.extent(0));
  // TODO(roughly 3 lines): z(i) becomes alpha times x(i) plus y(i) for every i < n, on the
  //   device. A parallel_for named "basics::axpy" over a RangePolicy<Space> on `space` from 0 to
  //   padded_range(n) (whole blocks, as a CUDA grid); z past n stays untouched.
}

template <class Space>
void mdrange(const Space& space, View<const float**, Space> in, View<const float*, Space> u,
             View<const float*, Space> v, View<float**, Space> out) {
  const int rows = static_cast<int>(u.extent(0));
  const int cols = static_cast<int>(v.extent(0));
  // TODO(roughly 3 lines): out(i, j) becomes in(i, j) plus u(i) times v(j), for i < rows, j <
  //   cols. A parallel_for named "basics::mdrange" over an MDRangePolicy<Space, Kokkos::Rank<2>> on
  //   `space`.
}

template <class Space>
void subviews(const Space& space, RowMajor<const float, Space> a, Corner corner, View<float*, Space> row_sums,
              View<float*, Space> col_sums, RowMajor<float, Space> block) {
  const int rows = static_cast<int>(row_sums.extent(0));
  const int cols = static_cast<int>(col_sums.extent(0));
  // TODO(roughly 4 lines): row_sums(r) for every row r < rows and col_sums(c) for every column
  //   c < cols, each by one call of the given sum_1d: its input is that row (or column) of a, its
  //   result that one element of row_sums (or col_sums), both taken as subviews.
  // TODO(roughly 3 lines): block gets the elements of a in the rows from corner.row and the
  //   columns from corner.col, as many of each as block has, in one deep_copy on `space`.
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_RANGE_KERNELS)

}  // namespace kpz::basics::exercise

// basics reference solution, steps 1-5: Views and deep_copy, DualView, RangePolicy, MDRangePolicy,
// subviews.
// exercises/basics/views_and_ranges.cpp is generated from this file by cmake/kpz-skeletons:
// each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "basics/basics.hpp"

namespace kpz::basics::reference {

template <class Space>
void views(const Space& space, HostView<const float*> in, HostView<float*> out) {
  const int n = static_cast<int>(in.extent(0));
  View<float*, Space> d;                             // the data in the device's memory
  typename View<float*, Space>::host_mirror_type h;  // the same data's copy in host memory
  // KPZ-TODO(roughly 4 lines): allocate d and its host mirror h, fill h from in, copy h to d. d
  //   holds n floats in the memory of `space` (label "d"); the copy to d runs on `space`.
  d = View<float*, Space>(Kokkos::view_alloc(space, "d"), n);
  h = Kokkos::create_mirror_view(d);
  for (int i = 0; i < n; ++i) h(i) = in(i);
  Kokkos::deep_copy(space, d, h);
  // KPZ-END
  // The work on the device (step 3 explains RangePolicy): d(i) = 2 d(i) + 1.
  Kokkos::parallel_for(
      "basics::views", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  // KPZ-TODO(roughly 3 lines): copy d back into h, wait for that copy, then copy h into out. The
  //   copy into h runs on `space`; the one into out on the host.
  Kokkos::deep_copy(space, h, d);
  space.fence();
  for (int i = 0; i < n; ++i) out(i) = h(i);
  // KPZ-END
}

// --dualview: the work of --views with a DualView, which holds the data on both sides and keeps
// track of which side is newer. The framework calls these four in order and checks dv after each.
template <class Space>
void dualview_fill(HostView<const float*> in, DualView<float*, Space> dv) {
  const int n = static_cast<int>(in.extent(0));
  // KPZ-TODO(roughly 3 lines): dv's host side holds in(i) for every i < n, and dv knows that its
  //   host side is now the newer one.
  const auto h = dv.view_host();
  for (int i = 0; i < n; ++i) h(i) = in(i);
  dv.modify_host();
  // KPZ-END
}

template <class Space>
void dualview_to_device(const Space& space, DualView<float*, Space> dv) {
  // KPZ-TODO(roughly 1 line): dv's device side holds what its host side holds, copied on `space`.
  dv.sync_device(space);
  // KPZ-END
}

template <class Space>
void dualview_compute(const Space& space, DualView<float*, Space> dv) {
  const auto d = dv.view_device();
  // The work on the device, as in --views: d(i) = 2 d(i) + 1.
  Kokkos::parallel_for(
      "basics::dualview", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  // KPZ-TODO(roughly 1 line): dv knows that its device side is now the newer one.
  dv.modify_device();
  // KPZ-END
}

template <class Space>
void dualview_to_host(const Space& space, DualView<float*, Space> dv) {
  // KPZ-TODO(roughly 1 line): dv's host side holds what its device side holds, copied on `space`
  //   (the framework waits for `space` before it reads).
  dv.sync_host(space);
  // KPZ-END
}

template <class Space>
void axpy(const Space& space, float alpha, View<const float*, Space> x, View<const float*, Space> y,
          View<float*, Space> z) {
  const int n = static_cast<int>(z.extent(0));
  // KPZ-TODO(roughly 3 lines): z(i) becomes alpha times x(i) plus y(i) for every i < n, on the
  //   device. A parallel_for named "basics::axpy" over a RangePolicy<Space> on `space` from 0 to
  //   padded_range(n) (whole blocks, as a CUDA grid); z past n stays untouched.
  Kokkos::parallel_for(
      "basics::axpy", Kokkos::RangePolicy<Space>(space, 0, padded_range(n)), KOKKOS_LAMBDA(int i) {
        if (i < n) z(i) = alpha * x(i) + y(i);
      });
  // KPZ-END
}

template <class Space>
void mdrange(const Space& space, View<const float**, Space> in, View<const float*, Space> u,
             View<const float*, Space> v, View<float**, Space> out) {
  const int rows = static_cast<int>(u.extent(0));
  const int cols = static_cast<int>(v.extent(0));
  // KPZ-TODO(roughly 3 lines): out(i, j) becomes in(i, j) plus u(i) times v(j), for i < rows, j <
  //   cols. A parallel_for named "basics::mdrange" over an MDRangePolicy<Space, Kokkos::Rank<2>> on
  //   `space`.
  Kokkos::parallel_for(
      "basics::mdrange", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>(space, {0, 0}, {rows, cols}),
      KOKKOS_LAMBDA(int i, int j) { out(i, j) = in(i, j) + u(i) * v(j); });
  // KPZ-END
}

template <class Space>
void subviews(const Space& space, RowMajor<const float, Space> a, Corner corner, View<float*, Space> row_sums,
              View<float*, Space> col_sums, RowMajor<float, Space> block) {
  const int rows = static_cast<int>(row_sums.extent(0));
  const int cols = static_cast<int>(col_sums.extent(0));
  // KPZ-TODO(roughly 4 lines): row_sums(r) for every row r < rows and col_sums(c) for every column
  //   c < cols, each by one call of the given sum_1d: its input is that row (or column) of a, its
  //   result that one element of row_sums (or col_sums), both taken as subviews.
  for (int r = 0; r < rows; ++r) sum_1d(space, Kokkos::subview(a, r, Kokkos::ALL), Kokkos::subview(row_sums, r));
  for (int c = 0; c < cols; ++c) sum_1d(space, Kokkos::subview(a, Kokkos::ALL, c), Kokkos::subview(col_sums, c));
  // KPZ-END
  // KPZ-TODO(roughly 3 lines): block gets the elements of a in the rows from corner.row and the
  //   columns from corner.col, as many of each as block has, in one deep_copy on `space`.
  const auto block_rows = Kokkos::make_pair(corner.row, corner.row + static_cast<int>(block.extent(0)));
  const auto block_cols = Kokkos::make_pair(corner.col, corner.col + static_cast<int>(block.extent(1)));
  Kokkos::deep_copy(space, block, Kokkos::subview(a, block_rows, block_cols));
  // KPZ-END
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_RANGE_KERNELS)

}  // namespace kpz::basics::reference

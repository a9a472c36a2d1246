// instances reference solution. exercises/instances/instances.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include <array>

#include "instances/instances.hpp"

namespace kpz::instances::reference {

// Given, as the model for sum_of_squares: a launch on the instance it is handed (CUDA: a kernel
// launched on a stream, kernel<<<blocks, threads, 0, stream>>>), which returns at once.
template <class Space>
void axpy(const Space& instance, float alpha, View<const float*, Space> x, View<const float*, Space> y,
          View<float*, Space> z) {
  Kokkos::parallel_for(
      kAxpyLabel, Kokkos::RangePolicy<Space>(instance, 0, z.extent(0)),
      KOKKOS_LAMBDA(int i) { z(i) = alpha * x(i) + y(i); });
}

// `sum` is a const handle (its data stays writable): the race check's build takes a reduction's
// result View by const reference.
template <class Space>
void sum_of_squares(const Space& instance, View<const float*, Space> w, const View<double, Space> sum) {
  // KPZ-TODO(roughly 3 lines): sum() becomes the sum of w(i) * w(i), in double, over every i <
  //   w.extent(0): a reduction named kSumLabel on `instance` whose launch returns before the
  //   sum is known.
  Kokkos::parallel_reduce(
      kSumLabel, Kokkos::RangePolicy<Space>(instance, 0, w.extent(0)),
      KOKKOS_LAMBDA(int i, double& partial) { partial += static_cast<double>(w(i)) * w(i); }, sum);
  // KPZ-END
}

template <class Space>
void overlap(const Space& space, float alpha, View<const float*, Space> x, View<const float*, Space> y,
             View<float*, Space> z, View<const float*, Space> w, View<double, Space> sum, HostView<float*> z_host,
             HostView<double> sum_host) {
  // The two instances; until they are made, both are `space` itself (its default instance).
  std::array<Space, 2> parts = {space, space};
  // KPZ-TODO(roughly 1 line): make `parts` two instances of `space` that run independently of
  //   each other, with equal shares of it.
  parts = Kokkos::Experimental::partition_space(space, 1, 1);
  // KPZ-END
  const Space& map_space = parts[0];
  const Space& sum_space = parts[1];
  axpy(map_space, alpha, x, y, z);
  sum_of_squares(sum_space, w, sum);
  // KPZ-TODO(roughly 4 lines): bring z to z_host and sum to sum_host, each copy on the instance
  //   that computed it; then make sure both copies are done, waiting for these two instances
  //   and for nothing else on the device.
  Kokkos::deep_copy(map_space, z_host, z);
  Kokkos::deep_copy(sum_space, sum_host, sum);
  map_space.fence();
  sum_space.fence();
  // KPZ-END
}

KPZ_INSTANTIATE_KERNELS(KPZ_INSTANCES_KERNELS)

}  // namespace kpz::instances::reference

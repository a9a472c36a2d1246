#pragma once
// Host <-> device copies of the batch (row-major std::vectors <-> BatchViews), shared by the
// runner (spec.cpp), the benchmark and the tests.
#include <string>
#include <vector>

#include "batched/batched.hpp"

namespace kpz::batched {

// A BatchView of `DataType` (float** or float***) with the given extents, holding `host`.
template <class DataType, class Space, class... Extents>
BatchView<DataType, Space> batch_to_device(const Space& space, const std::string& label, const std::vector<float>& host,
                                           Extents... extents) {
  BatchView<DataType, Space> dev(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, label), extents...);
  using Host = Kokkos::View<typename BatchView<DataType, Space>::const_data_type, Kokkos::LayoutRight,
                            Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(space, dev, Host(host.data(), extents...));
  space.fence();
  return dev;
}

// The B x M matrix `dev` as a row-major std::vector.
template <class ViewType>
std::vector<float> batch_to_host(const ViewType& dev) {
  std::vector<float> host(dev.size());
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(host.data(), dev.extent(0),
                                                                                             dev.extent(1));
  Kokkos::deep_copy(dst, dev);
  return host;
}

}  // namespace kpz::batched

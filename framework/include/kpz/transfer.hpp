#pragma once
// Host <-> device copies for the puzzle runners (inputs are generated on the host).
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kpz {

template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> to_device(const Space& space, const std::string& label,
                                                         const std::vector<T>& host) {
  Kokkos::View<T*, typename Space::memory_space> dev(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, label),
                                                     host.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> src(host.data(), host.size());
  Kokkos::deep_copy(space, dev, src);
  space.fence();
  return dev;
}

template <class ViewType>
std::vector<typename ViewType::non_const_value_type> to_host(const ViewType& dev) {
  std::vector<typename ViewType::non_const_value_type> host(dev.extent(0));
  Kokkos::View<typename ViewType::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(host.data(),
                                                                                                         host.size());
  Kokkos::deep_copy(dst, dev);
  return host;
}

}  // namespace kpz

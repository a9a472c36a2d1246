#pragma once
// instances: two independent jobs at once, each on its own execution space instance (CUDA: a
// stream each): z = alpha x + y on one, the sum of the squares of w on the other, each result
// copied back to the host on the instance that computed it, and each instance waited for alone.
// The kernels below are implemented twice, with the same text: by the learner in
// exercises/instances/ and in reference/instances/.
#include <Kokkos_Core.hpp>

#include "kpz/kernel_table.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

namespace kpz::instances {

// A View in host memory: where overlap leaves the results for the host to read.
template <class DataType>
using HostView = Kokkos::View<DataType, Kokkos::HostSpace>;

// The labels the kernels launch with: the check names a kernel by its label.
inline constexpr const char* kAxpyLabel = "instances::axpy";
inline constexpr const char* kSumLabel = "instances::sum_of_squares";

// Bytes each job moves at the least: axpy reads x and y and writes z; the sum reads w once.
inline double axpy_bytes(double n) {
  return 3.0 * sizeof(float) * n;
}
inline double sum_bytes(double m) {
  return sizeof(float) * m;
}

// The kernels, listed once (kpz/kernel_table.hpp): declarations, instantiations, the table.
#define KPZ_INSTANCES_KERNELS(KERNEL, Space)                                                                          \
  /* z(i) = alpha * x(i) + y(i) for i < z.extent(0), enqueued on `instance`: it returns at once. */                   \
  KERNEL(axpy, (const Space& instance, float alpha, ::kpz::View<const float*, Space> x,                               \
                ::kpz::View<const float*, Space> y, ::kpz::View<float*, Space> z))                                    \
                                                                                                                      \
  /* sum() = w(0)^2 + ... + w(M-1)^2 in double, M = w.extent(0), enqueued on `instance`: it returns   \
     before the sum is known (0 when M = 0). */               \
  KERNEL(sum_of_squares, (const Space& instance, ::kpz::View<const float*, Space> w, ::kpz::View<double, Space> sum)) \
                                                                                                                      \
  /* Both jobs at once, each on an instance of its own, carved out of `space`: axpy into z,           \
     sum_of_squares into sum; then z_host holds z and sum_host holds sum when it returns. It waits    \
     for its two instances only, never for the whole device. */               \
  KERNEL(overlap,                                                                                                     \
         (const Space& space, float alpha, ::kpz::View<const float*, Space> x, ::kpz::View<const float*, Space> y,    \
          ::kpz::View<float*, Space> z, ::kpz::View<const float*, Space> w, ::kpz::View<double, Space> sum,           \
          ::kpz::instances::HostView<float*> z_host, ::kpz::instances::HostView<double> sum_host))

KPZ_KERNELS(KPZ_INSTANCES_KERNELS)

}  // namespace kpz::instances

// CMake writes what it resolved into kokkos_kernels_values.hpp (framework/cli/CMakeLists.txt): this
// file alone includes it, so a reconfigure that changes it recompiles one small file.
#include "kokkos_kernels_info.hpp"
#include "kokkos_kernels_values.hpp"

namespace kpz::cli {

KokkosKernelsInfo kokkos_kernels_info() {
  return {KPZ_KOKKOSKERNELS_IN_BUILD != 0, KPZ_KOKKOSKERNELS_VERSION, KPZ_KOKKOSKERNELS_SOURCE};
}

}  // namespace kpz::cli

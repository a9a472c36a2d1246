// CMake passes what it resolved (framework/cli/CMakeLists.txt): this file alone sees those
// macros, so a reconfigure that changes them recompiles one small file.
#include "kokkos_kernels_info.hpp"

namespace kpz::cli {

KokkosKernelsInfo kokkos_kernels_info() {
  return {KPZ_KOKKOSKERNELS_IN_BUILD != 0, KPZ_KOKKOSKERNELS_VERSION, KPZ_KOKKOSKERNELS_SOURCE};
}

}  // namespace kpz::cli

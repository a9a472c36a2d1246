#pragma once
// Which Kokkos Kernels this build uses (cmake/KpzKokkosKernels.cmake), for `kpuzzles doctor`.
#include <string>

namespace kpz::cli {

struct KokkosKernelsInfo {
  bool in_build = false;
  std::string version;  // e.g. "4.7.99"; empty when not in the build
  std::string source;   // "installed (<dir>)", "built in-tree from <archive or URL>", or why it is absent
};

KokkosKernelsInfo kokkos_kernels_info();

}  // namespace kpz::cli

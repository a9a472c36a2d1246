# Kokkos Kernels, an optional dependency (segscan compares its --spmv with KokkosSparse::spmv).
# Resolution:
#   1. an installed Kokkos Kernels: find_package(KokkosKernels CONFIG) (set KokkosKernels_ROOT
#      or CMAKE_PREFIX_PATH); it must have been built against the same Kokkos;
#   2. with -DKPZ_FETCH_KOKKOSKERNELS=ON (needs the network, off by default): an in-tree build
#      of KPZ_KOKKOSKERNELS_URL with the sparse component (and the blas, batched, graph and
#      lapack components it requires), no explicit instantiations, no vendor TPLs;
#   3. otherwise none: everything builds and runs without it.
# Sets KPZ_HAS_KOKKOSKERNELS and guarantees the target Kokkos::kokkoskernels when it is ON.
include_guard(GLOBAL)

option(KPZ_FETCH_KOKKOSKERNELS "Download and build Kokkos Kernels in-tree when none is installed" OFF)
set(KPZ_KOKKOSKERNELS_URL "https://github.com/kokkos/kokkos-kernels/archive/refs/tags/5.0.0.tar.gz"
    CACHE STRING "Where KPZ_FETCH_KOKKOSKERNELS downloads Kokkos Kernels from (a URL or a local archive)")

set(KPZ_HAS_KOKKOSKERNELS OFF)
find_package(KokkosKernels CONFIG QUIET)
if(KokkosKernels_FOUND)
  set(KPZ_HAS_KOKKOSKERNELS ON)
  message(STATUS "kpz: using installed Kokkos Kernels ${KokkosKernels_VERSION} from ${KokkosKernels_DIR}")
elseif(KPZ_FETCH_KOKKOSKERNELS)
  include(FetchContent)
  message(STATUS "kpz: building Kokkos Kernels in-tree from ${KPZ_KOKKOSKERNELS_URL}")
  FetchContent_Declare(kokkoskernels URL "${KPZ_KOKKOSKERNELS_URL}" DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  foreach(_c SPARSE BLAS BATCHED GRAPH LAPACK)
    set(KokkosKernels_ENABLE_COMPONENT_${_c} ON CACHE BOOL "" FORCE)
  endforeach()
  set(KokkosKernels_ENABLE_ALL_COMPONENTS OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_INST_DOUBLE OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_INST_FLOAT OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TPL_BLAS OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TPL_LAPACK OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TPL_CUSPARSE OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TPL_CUBLAS OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TPL_CUSOLVER OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_TESTS OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(KokkosKernels_ENABLE_PERFTESTS OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(kokkoskernels)
  if(NOT TARGET Kokkos::kokkoskernels AND TARGET kokkoskernels)
    add_library(Kokkos::kokkoskernels ALIAS kokkoskernels)
  endif()
  set(KPZ_HAS_KOKKOSKERNELS ON)
else()
  message(STATUS "kpz: Kokkos Kernels not found (optional; -DKokkosKernels_ROOT=... or -DKPZ_FETCH_KOKKOSKERNELS=ON "
                 "to compare segscan --spmv with KokkosSparse::spmv)")
endif()

# Kokkos Kernels: the library baselines of every bench (KokkosBlas, KokkosBatched, KokkosSparse)
# and segscan's KokkosSparse::spmv check. On by default; -DKPZ_KOKKOSKERNELS=OFF builds without it.
# Resolution, in this order (as for Kokkos, cmake/KpzKokkos.cmake):
#   1. an installed Kokkos Kernels: find_package(KokkosKernels CONFIG) (set KokkosKernels_ROOT or
#      CMAKE_PREFIX_PATH); it must have been built against the same Kokkos;
#   2. an in-tree build through FetchContent, from
#      - a local archive when KPZ_KOKKOSKERNELS_ARCHIVE (cache or environment variable) names one
#        (.ci/run sets it to ../shared/deps/kokkos-kernels-4.7.99-2fc2af1.tar.gz),
#      - otherwise KPZ_KOKKOSKERNELS_URL: upstream `develop` at the commit that archive holds, the
#        source checked against Kokkos 5.0.2 (no release tag was checked here).
#   The in-tree build compiles only the components the project uses (sparse, which requires blas,
#   batched, graph and lapack) and no explicit instantiations: every routine is instantiated in
#   the project's own files, for the types and spaces they use. No vendor TPLs (cuBLAS,
#   cuSPARSE): the baselines are Kokkos Kernels' own kernels.
# Sets KPZ_HAS_KOKKOSKERNELS, and KPZ_KOKKOSKERNELS_VERSION and KPZ_KOKKOSKERNELS_SOURCE (what
# `kpuzzles doctor` says); guarantees the target Kokkos::kokkoskernels when KPZ_HAS_KOKKOSKERNELS is ON.
include_guard(GLOBAL)

option(KPZ_KOKKOSKERNELS "Build with Kokkos Kernels (installed, else built in-tree)" ON)
set(KPZ_KOKKOSKERNELS_COMMIT "2fc2af19fa7b74b64f3ce7a212c0728afd150c62")
set(KPZ_KOKKOSKERNELS_URL "https://github.com/kokkos/kokkos-kernels/archive/${KPZ_KOKKOSKERNELS_COMMIT}.tar.gz"
    CACHE STRING "Where the in-tree Kokkos Kernels build downloads its source from (a URL or a local archive)")
set(KPZ_KOKKOSKERNELS_ARCHIVE "$ENV{KPZ_KOKKOSKERNELS_ARCHIVE}" CACHE FILEPATH
    "Local Kokkos Kernels source archive that replaces the download (also read from the environment)")

set(KPZ_HAS_KOKKOSKERNELS OFF)
set(KPZ_KOKKOSKERNELS_VERSION "")
set(KPZ_KOKKOSKERNELS_SOURCE "not in this build (configured with -DKPZ_KOKKOSKERNELS=OFF)")
if(KPZ_KOKKOSKERNELS)
  find_package(KokkosKernels CONFIG QUIET)
endif()

if(NOT KPZ_KOKKOSKERNELS)
  message(STATUS "kpz: Kokkos Kernels off (-DKPZ_KOKKOSKERNELS=OFF): no library rows in the benches")
elseif(KokkosKernels_FOUND)
  set(KPZ_HAS_KOKKOSKERNELS ON)
  set(KPZ_KOKKOSKERNELS_VERSION "${KokkosKernels_VERSION}")
  set(KPZ_KOKKOSKERNELS_SOURCE "installed (${KokkosKernels_DIR})")
  message(STATUS "kpz: using installed Kokkos Kernels ${KokkosKernels_VERSION} from ${KokkosKernels_DIR}")
else()
  include(KpzSourceArchive)
  kpz_declare_in_tree(kokkoskernels "Kokkos Kernels" KPZ_KOKKOSKERNELS_ARCHIVE "${KPZ_KOKKOSKERNELS_URL}"
                      _kpz_kk_source)
  # SPARSE turns on BATCHED, BLAS, GRAPH and LAPACK itself (its CMake says it depends on them).
  set(KokkosKernels_ENABLE_ALL_COMPONENTS OFF CACHE BOOL "" FORCE)
  foreach(_c SPARSE BLAS BATCHED)
    set(KokkosKernels_ENABLE_COMPONENT_${_c} ON CACHE BOOL "" FORCE)
  endforeach()
  set(KokkosKernels_ADD_DEFAULT_ETI OFF CACHE BOOL "" FORCE)
  foreach(_t DOUBLE FLOAT COMPLEX_DOUBLE COMPLEX_FLOAT)
    set(KokkosKernels_INST_${_t} OFF CACHE BOOL "" FORCE)
  endforeach()
  foreach(_tpl BLAS LAPACK CUSPARSE CUBLAS CUSOLVER MKL)
    set(KokkosKernels_ENABLE_TPL_${_tpl} OFF CACHE BOOL "" FORCE)
  endforeach()
  foreach(_what TESTS EXAMPLES PERFTESTS BENCHMARK DOCS)
    set(KokkosKernels_ENABLE_${_what} OFF CACHE BOOL "" FORCE)
  endforeach()
  FetchContent_MakeAvailable(kokkoskernels)
  if(NOT TARGET Kokkos::kokkoskernels AND TARGET kokkoskernels)
    add_library(Kokkos::kokkoskernels ALIAS kokkoskernels)
  endif()
  # Its headers' warnings are not the project's (CI's clang stage builds with -Wall -Wextra).
  set_target_properties(kokkoskernels PROPERTIES SYSTEM TRUE)
  get_directory_property(KPZ_KOKKOSKERNELS_VERSION DIRECTORY "${kokkoskernels_SOURCE_DIR}"
                         DEFINITION KokkosKernels_VERSION)
  set(KPZ_HAS_KOKKOSKERNELS ON)
  set(KPZ_KOKKOSKERNELS_SOURCE "built in-tree from ${_kpz_kk_source}")
endif()

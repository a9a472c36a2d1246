# Kokkos resolution, in this order:
#   1. an installed Kokkos >= 5.0 (find_package; set Kokkos_ROOT or CMAKE_PREFIX_PATH);
#   2. an in-tree build of Kokkos 5.0.2 through FetchContent, from
#      - a local archive when KPZ_KOKKOS_ARCHIVE (cache variable or environment variable) names one,
#      - otherwise the upstream release.
# The in-tree build takes the backend options (Kokkos_ENABLE_OPENMP, Kokkos_ENABLE_CUDA,
# Kokkos_ARCH_*) from the cache, which the presets set.
include_guard(GLOBAL)

set(KPZ_KOKKOS_VERSION "5.0.2" CACHE STRING "Kokkos release built in-tree when none is installed")
set(KPZ_KOKKOS_URL
    "https://github.com/kokkos/kokkos/releases/download/${KPZ_KOKKOS_VERSION}/kokkos-${KPZ_KOKKOS_VERSION}.tar.gz"
    CACHE STRING "Where the in-tree Kokkos build downloads its source from")
set(KPZ_KOKKOS_ARCHIVE "$ENV{KPZ_KOKKOS_ARCHIVE}" CACHE FILEPATH
    "Local Kokkos source archive that replaces the download (also read from the environment)")
option(KPZ_KOKKOS_FORCE_FETCH "Ignore an installed Kokkos and build the pinned release in-tree" OFF)

if(NOT KPZ_KOKKOS_FORCE_FETCH)
  find_package(Kokkos 5.0 CONFIG QUIET)
endif()

if(Kokkos_FOUND)
  message(STATUS "kpz: using installed Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
else()
  include(KpzSourceArchive)
  kpz_declare_in_tree(kokkos "Kokkos ${KPZ_KOKKOS_VERSION}" KPZ_KOKKOS_ARCHIVE "${KPZ_KOKKOS_URL}" _kpz_kokkos_source)
  # Kokkos tests and examples are not ours to build.
  set(Kokkos_ENABLE_TESTS OFF CACHE BOOL "" FORCE)
  set(Kokkos_ENABLE_EXAMPLES OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(kokkos)
endif()

# Facts the build needs later (compute-sanitizer tests, benchmark baselines).
if(TARGET Kokkos::kokkos)
  # KPZ_HAS_<BACKEND>: which host-parallel backend the tests vary the thread count of.
  if(Kokkos_FOUND)
    kokkos_check(DEVICES CUDA RETURN_VALUE KPZ_HAS_CUDA)
    kokkos_check(DEVICES OPENMP RETURN_VALUE KPZ_HAS_OPENMP)
    kokkos_check(DEVICES THREADS RETURN_VALUE KPZ_HAS_THREADS)
    kokkos_check(DEVICES SERIAL RETURN_VALUE KPZ_HAS_SERIAL)
  else()
    set(KPZ_HAS_CUDA ${Kokkos_ENABLE_CUDA})
    set(KPZ_HAS_OPENMP ${Kokkos_ENABLE_OPENMP})
    set(KPZ_HAS_THREADS ${Kokkos_ENABLE_THREADS})
    set(KPZ_HAS_SERIAL ${Kokkos_ENABLE_SERIAL})
  endif()
else()
  message(FATAL_ERROR "kpz: Kokkos did not provide the Kokkos::kokkos target")
endif()

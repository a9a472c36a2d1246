# batched's kernels call Kokkos Kernels' team-level routines: the puzzle exists only in builds
# with Kokkos Kernels (cmake/KpzKokkosKernels.cmake). The trace build's recording views are not
# Kokkos Views, which Kokkos Kernels needs.
if(NOT KPZ_HAS_KOKKOSKERNELS)
  set(KPZ_PUZZLE_MISSING "it needs Kokkos Kernels (docs/puzzles/batched.md says how to build with it)")
elseif(KPZ_TRACE)
  set(KPZ_PUZZLE_MISSING "Kokkos Kernels' routines take Kokkos Views, not the trace build's recording views")
endif()

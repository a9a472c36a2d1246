# reduce's extra build needs: with Kokkos Kernels (cmake/KpzKokkosKernels.cmake) its bench also
# times KokkosBlas::sum and the team-level KokkosBlas::Experimental::dot
# (benchmarks/reduce/kokkos_kernels_baselines.hpp). Only the bench part links it.
if(KPZ_HAS_KOKKOSKERNELS AND TARGET kpz_bench_reduce)
  target_link_libraries(kpz_bench_reduce PUBLIC Kokkos::kokkoskernels)
  target_compile_definitions(kpz_bench_reduce PUBLIC KPZ_HAS_KOKKOSKERNELS=1)
endif()

# segscan's extra build needs: with Kokkos Kernels (cmake/KpzKokkosKernels.cmake), --spmv is
# also checked against and benchmarked with KokkosSparse::spmv (fast/kokkos_kernels.cpp).
if(KPZ_HAS_KOKKOSKERNELS)
  target_link_libraries(kpz_puzzle_segscan PUBLIC Kokkos::kokkoskernels)
  target_compile_definitions(kpz_puzzle_segscan PUBLIC KPZ_HAS_KOKKOSKERNELS=1)
endif()

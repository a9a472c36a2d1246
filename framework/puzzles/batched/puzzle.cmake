# batched's kernels (the reference's, the learner's, the benchmark's) call Kokkos Kernels'
# team-level gemv and dot; requires.cmake keeps the puzzle out of builds without it.
foreach(_part puzzle exercise reference)
  target_link_libraries(kpz_${_part}_batched PUBLIC Kokkos::kokkoskernels)
endforeach()

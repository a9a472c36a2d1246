# distributed's code (spec, reference, the learner's, the benchmark) calls MPI; the spec starts
# its ranks with this build's launcher (RanksSpec), and doctor says which MPI it is.
foreach(_part puzzle exercise reference)
  target_link_libraries(kpz_${_part}_distributed PUBLIC MPI::MPI_CXX)
endforeach()
list(JOIN KPZ_MPIEXEC_FLAGS " " _kpz_mpiexec_flags)
target_compile_definitions(kpz_puzzle_distributed PRIVATE KPZ_MPIEXEC="${KPZ_MPIEXEC}"
                           KPZ_MPIEXEC_FLAGS="${_kpz_mpiexec_flags}")
# Its tests run as ranks: tests/CMakeLists.txt starts each test executable under the launcher
# with 1 to 4 ranks instead of with 1, 2 and 8 threads.
set_property(GLOBAL APPEND PROPERTY KPZ_RANKS_PUZZLES ${name})

# distributed's cases run as several MPI ranks (cmake/KpzMPI.cmake finds the MPI); a build
# without one leaves the puzzle out and builds the rest unchanged. The trace build and the race
# check's verifier trace one process, without MPI.
if(KPZ_TRACE)
  set(KPZ_PUZZLE_MISSING "the trace build runs one process, without MPI")
elseif(NOT KPZ_HAS_MPI)
  set(KPZ_PUZZLE_MISSING "it needs MPI: ${KPZ_MPI_SOURCE}")
endif()

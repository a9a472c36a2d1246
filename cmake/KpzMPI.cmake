# MPI (optional): the distributed puzzle runs its cases as several processes, one Kokkos per MPI
# rank. KPZ_MPI=AUTO (default) uses an MPI when CMake's FindMPI finds one (Debian:
# libopenmpi-dev and openmpi-bin) and builds everything else unchanged when it does not; ON
# requires one; OFF leaves the distributed puzzle out. The trace build never has it (one process).
# Sets KPZ_HAS_MPI, KPZ_MPIEXEC (the launcher), KPZ_MPIEXEC_FLAGS (what a laptop needs to start
# more ranks than it has cores; a list) and KPZ_MPI_SOURCE (what `kpuzzles doctor` says); guarantees the
# target MPI::MPI_CXX when KPZ_HAS_MPI is ON.
include_guard(GLOBAL)

set(KPZ_MPI "AUTO" CACHE STRING "Build the distributed puzzle with MPI: AUTO (when found), ON (required) or OFF")
set_property(CACHE KPZ_MPI PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${KPZ_MPI}" _kpz_mpi)
if(NOT _kpz_mpi MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "kpz: KPZ_MPI is '${KPZ_MPI}'; allowed: AUTO, ON, OFF")
endif()

set(KPZ_HAS_MPI OFF)
set(KPZ_MPIEXEC "")
set(KPZ_MPIEXEC_FLAGS "")
set(KPZ_MPI_SOURCE "not in this build (-DKPZ_MPI=OFF)")
if(KPZ_TRACE)
  set(KPZ_MPI_SOURCE "not in the trace build (it runs one process)")
elseif(NOT _kpz_mpi STREQUAL "OFF")
  if(_kpz_mpi STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND AND MPIEXEC_EXECUTABLE)
    set(KPZ_HAS_MPI ON)
    set(KPZ_MPIEXEC "${MPIEXEC_EXECUTABLE}")
    execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version OUTPUT_VARIABLE _kpz_mpiexec_version
                    ERROR_QUIET TIMEOUT 20)
    string(REGEX MATCH "^[^\n]*" _kpz_mpiexec_version "${_kpz_mpiexec_version}")
    # Open MPI refuses more ranks than cores unless told (a workshop laptop runs 4 ranks on 2),
    # and binds each of 1 or 2 ranks to one core, where all of a rank's OpenMP threads would then
    # crowd: the ranks stay unbound (the scaling bench binds them itself, a core set per rank).
    if(_kpz_mpiexec_version MATCHES "Open MPI|OpenRTE")
      set(KPZ_MPIEXEC_FLAGS --oversubscribe --bind-to none)
    endif()
    set(KPZ_MPI_SOURCE "MPI ${MPI_CXX_VERSION} (${_kpz_mpiexec_version}), launcher ${MPIEXEC_EXECUTABLE}")
    message(STATUS "kpz: MPI: ${KPZ_MPI_SOURCE}")
  else()
    set(KPZ_MPI_SOURCE "no MPI found (Debian: apt-get install libopenmpi-dev openmpi-bin; then configure again)")
    message(STATUS "kpz: ${KPZ_MPI_SOURCE}: the distributed puzzle is left out")
  endif()
endif()

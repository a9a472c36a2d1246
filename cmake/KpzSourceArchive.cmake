# kpz_source_archive(<out_var> <name> <archive> <url>): where FetchContent takes an in-tree
# dependency's source from: the local archive when one is named (it must exist), else the
# upstream URL. Kokkos (KpzKokkos.cmake) and Kokkos Kernels (KpzKokkosKernels.cmake) share it, so
# both answer an offline machine (KPZ_*_ARCHIVE, which .ci/run sets) the same way.
include_guard(GLOBAL)

function(kpz_source_archive out_var name archive url)
  if(archive)
    if(NOT EXISTS "${archive}")
      message(FATAL_ERROR "kpz: ${name}='${archive}' does not exist")
    endif()
    set(${out_var} "${archive}" PARENT_SCOPE)
  else()
    set(${out_var} "${url}" PARENT_SCOPE)
  endif()
endfunction()

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

# kpz_declare_in_tree(<name> <label> <archive_var> <url> <source_var>): FetchContent_Declare of an
# in-tree dependency from where kpz_source_archive says (the archive named by <archive_var>, else
# <url>), with a status line naming it; <source_var> receives the archive or URL. A macro, so that
# <source_var> lands in the caller's scope.
macro(kpz_declare_in_tree name label archive_var url source_var)
  include(FetchContent)
  kpz_source_archive(${source_var} "${archive_var}" "${${archive_var}}" "${url}")
  message(STATUS "kpz: building ${label} in-tree from ${${source_var}}")
  FetchContent_Declare(${name} URL "${${source_var}}" DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
endmacro()

# Puzzles as modules, loaded by kpuzzles at start (framework/cli/puzzle_modules.cpp): kpuzzles is
# the command line and the framework; each puzzle's spec, exercise and reference are one shared
# module, <build>/puzzles/kpz-<name>.so, built the first time a command needs it. A participant's
# first build is then kpuzzles and the first puzzle of the course (target `learner`), not every
# puzzle: about half the CPU time (docs/setup.md#the-first-build).
#
# Host builds on Linux and macOS with g++ or clang. Not under CUDA (the tested path stays one
# static program), not in the trace build, and not with an installed static Kokkos (a module
# linked with its own copy of Kokkos would not share the program's Kokkos): those builds link
# every puzzle into kpuzzles, as -DKPZ_PUZZLE_MODULES=OFF does. The tests, kpuzzles-bench and
# the benchmarks link the same objects statically in every build.
include_guard(GLOBAL)

option(KPZ_PUZZLE_MODULES "Build each puzzle as a module kpuzzles loads (and builds) when first needed" ON)

# Before Kokkos and Kokkos Kernels: an in-tree Kokkos is built as shared libraries, which the
# program and the modules share.
macro(kpz_modules_before_dependencies)
  set(KPZ_MODULES_ENABLED OFF)
  if(KPZ_PUZZLE_MODULES AND UNIX AND NOT Kokkos_ENABLE_CUDA AND NOT KPZ_TRACE)
    set(KPZ_MODULES_ENABLED ON)
    set(_kpz_shared_before "${BUILD_SHARED_LIBS}")
    set(BUILD_SHARED_LIBS ON)
  endif()
endmacro()

# Between Kokkos and Kokkos Kernels: without a shared Kokkos (an installed static one, or CUDA),
# no modules, and an in-tree Kokkos Kernels is built as before (static, like that Kokkos).
macro(kpz_modules_after_kokkos)
  if(KPZ_MODULES_ENABLED)
    set(_kpz_core Kokkos::kokkoscore)
    if(NOT TARGET ${_kpz_core})
      set(_kpz_core kokkoscore)
    endif()
    get_target_property(_kpz_core_type ${_kpz_core} TYPE)
    if(KPZ_HAS_CUDA)
      set(KPZ_MODULES_ENABLED OFF)
      message(STATUS "kpz: every puzzle linked into kpuzzles (a CUDA build)")
    elseif(NOT _kpz_core_type STREQUAL "SHARED_LIBRARY")
      set(KPZ_MODULES_ENABLED OFF)
      message(STATUS "kpz: every puzzle linked into kpuzzles: the installed Kokkos is a static library "
                     "(install it with -DBUILD_SHARED_LIBS=ON and kpuzzles builds each puzzle when first used)")
    endif()
    if(NOT KPZ_MODULES_ENABLED)
      set(BUILD_SHARED_LIBS "${_kpz_shared_before}")
    endif()
  endif()
endmacro()

# After Kokkos Kernels (an in-tree one is shared too, beside a shared Kokkos).
macro(kpz_modules_after_dependencies)
  if(KPZ_MODULES_ENABLED)
    set(BUILD_SHARED_LIBS "${_kpz_shared_before}")
    set(KPZ_MODULE_DIR "${CMAKE_BINARY_DIR}/puzzles")
    message(STATUS "kpz: puzzles are modules in ${KPZ_MODULE_DIR}, built when first used (KPZ_PUZZLE_MODULES)")
  endif()
endmacro()

# kpz_add_puzzle_module(<name>): <build>/puzzles/kpz-<name>.so from the puzzle's spec, exercise
# and reference objects.
function(kpz_add_puzzle_module name)
  add_library(kpz_module_${name} MODULE)
  target_link_libraries(kpz_module_${name} PRIVATE kpz_puzzle_${name} kpz_exercise_${name} kpz_reference_${name})
  set_target_properties(kpz_module_${name} PROPERTIES PREFIX "" SUFFIX ".so" OUTPUT_NAME "kpz-${name}"
                        LIBRARY_OUTPUT_DIRECTORY "${KPZ_MODULE_DIR}")
endfunction()

# kpz_depend_on_puzzle_modules(<target>...): the targets run kpuzzles on every puzzle (the CLI
# tests, run-references), so every module is built first.
function(kpz_depend_on_puzzle_modules)
  if(NOT KPZ_MODULES_ENABLED)
    return()
  endif()
  get_property(_names GLOBAL PROPERTY KPZ_PUZZLES)
  foreach(_t IN LISTS ARGN)
    foreach(_n IN LISTS _names)
      add_dependencies(${_t} kpz_module_${_n})
    endforeach()
  endforeach()
endfunction()

# The race check of every pass (docs/how-to-work.md#what-a-pass-means). A host build compiles
# each puzzle's spec, exercise and reference a second time with the tracer (KPZ_TRACE: recording
# views, the deterministic team executor on Serial; docs/tracing.md) into one small program,
# <build>/verify/kpz-verify-<name>. `kpuzzles check` (and so run, watch, list and the learner
# suites) runs it on the variant's trace configuration before the real backend: a race, a read of
# scratch nobody wrote, a scratch view beyond the launch's request or an index past a View's end
# fails the exercise on every run, whatever the thread timing. The verifier is built with the
# puzzle's module (or with kpuzzles where puzzles are linked in), so a save rebuilds both.
#
# Not in CUDA builds (the GPU run and compute-sanitizer judge there) nor in the trace build
# (which traces everything already). -DKPZ_VERIFY=OFF leaves it out; `kpuzzles check` then says
# that its passes were not race-checked.
include_guard(GLOBAL)

option(KPZ_VERIFY "Host builds: judge every pass with the tracer too (kpz-verify-<puzzle>)" ON)

# After Kokkos: KPZ_VERIFY_ENABLED and KPZ_VERIFY_DIR.
macro(kpz_verify_after_kokkos)
  set(KPZ_VERIFY_ENABLED OFF)
  if(KPZ_VERIFY AND NOT KPZ_TRACE AND NOT KPZ_HAS_CUDA AND KPZ_HAS_SERIAL)
    set(KPZ_VERIFY_ENABLED ON)
    set(KPZ_VERIFY_DIR "${CMAKE_BINARY_DIR}/verify")
    message(STATUS "kpz: every pass is race-checked by ${KPZ_VERIFY_DIR}/kpz-verify-<puzzle> (KPZ_VERIFY)")
  elseif(KPZ_VERIFY AND NOT KPZ_TRACE AND NOT KPZ_HAS_CUDA)
    message(STATUS "kpz: no race check of passes: the verifier needs Kokkos' Serial backend (Kokkos_ENABLE_SERIAL)")
  endif()
endmacro()

# kpz_add_puzzle_verifier(<name> [EXERCISE_DIR <dir>] [TARGET <target>] [OUTPUT_DIR <dir>]):
# <build>/verify/kpz-verify-<name> (target kpz_verify_<name>), unless the puzzle needs what the
# traced build cannot have (its requires.cmake, read with KPZ_TRACE on). EXERCISE_DIR, TARGET and
# OUTPUT_DIR build a second verifier of the same puzzle from another copy of its exercise (the
# watch end-to-end test's sandbox): a check must trace the code it runs.
function(kpz_add_puzzle_verifier name)
  cmake_parse_arguments(ARG "" "EXERCISE_DIR;TARGET;OUTPUT_DIR" "" ${ARGN})
  set(_root "${PROJECT_SOURCE_DIR}")
  set(_exercise_dir "${_root}/exercises/${name}")
  set(_target kpz_verify_${name})
  set(_output_dir "${KPZ_VERIFY_DIR}")
  foreach(_arg EXERCISE_DIR TARGET OUTPUT_DIR)
    string(TOLOWER "_${_arg}" _var)
    if(ARG_${_arg})
      set(${_var} "${ARG_${_arg}}")
    endif()
  endforeach()
  set(KPZ_TRACE ON)
  kpz_puzzle_missing(${name} _missing)
  if(_missing)
    message(STATUS "kpz: ${name}'s passes are not race-checked: ${_missing}")
    return()
  endif()
  kpz_puzzle_sources(${name} _sources)
  file(GLOB _learner CONFIGURE_DEPENDS "${_exercise_dir}/*.cpp" "${_root}/reference/${name}/*.cpp")
  list(APPEND _sources ${_learner})
  # The objects apart from the program: compiled as a library's (position independent, as the
  # precompiled Kokkos_Core.hpp they reuse), linked into it.
  add_library(${_target}_objects OBJECT "${_root}/framework/cli/verify_main.cpp" ${_sources})
  target_link_libraries(${_target}_objects PUBLIC kpz_framework_traced)
  target_include_directories(${_target}_objects PRIVATE "${_root}/framework/puzzles")
  kpz_use_pch(${_target}_objects)
  add_executable(${_target})
  target_link_libraries(${_target} PRIVATE ${_target}_objects kpz_framework_traced)
  set_target_properties(${_target} PROPERTIES OUTPUT_NAME "kpz-verify-${name}" RUNTIME_OUTPUT_DIRECTORY "${_output_dir}")
  if(NOT ARG_TARGET)
    set_property(GLOBAL APPEND PROPERTY KPZ_VERIFIED_PUZZLES ${name})
  endif()
endfunction()

# kpz_depend_on_verifiers(<target>...): the targets run kpuzzles check (or are kpuzzles with every
# puzzle linked in), so every verifier is built with them.
function(kpz_depend_on_verifiers)
  get_property(_names GLOBAL PROPERTY KPZ_VERIFIED_PUZZLES)
  foreach(_t IN LISTS ARGN)
    foreach(_n IN LISTS _names)
      add_dependencies(${_t} kpz_verify_${_n})
    endforeach()
  endforeach()
endfunction()

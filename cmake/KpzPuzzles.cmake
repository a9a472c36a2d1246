# Puzzle discovery. A puzzle is a folder framework/puzzles/<name>/ (its contract: kernel
# signatures, input generator, oracle, registration). Its other parts sit in the same places
# for every puzzle:
#   exercises/<name>/*.cpp   learner skeleton       -> OBJECT library kpz_exercise_<name>
#   reference/<name>/*.cpp   solution               -> OBJECT library kpz_reference_<name>
#   benchmarks/<name>/*.cpp  benchmark registration -> OBJECT library kpz_bench_<name>
#   tests/<name>/*.cpp       GoogleTest suites      (tests/CMakeLists.txt)
#   docs/puzzles/<name>.md   the learner's page
# A puzzle that needs what not every build has (an optional library) says so in
# framework/puzzles/<name>/requires.cmake (see kpz_add_puzzle): without it, the build leaves the
# puzzle out, with a status line saying why.
# Each part is its own small target so that saving one exercise rebuilds one object.
include_guard(GLOBAL)

function(kpz_discover_puzzles out_var)
  file(GLOB _dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS
       "${PROJECT_SOURCE_DIR}/framework/puzzles/*")
  set(_names "")
  foreach(_d IN LISTS _dirs)
    if(IS_DIRECTORY "${_d}")
      get_filename_component(_n "${_d}" NAME)
      list(APPEND _names "${_n}")
    endif()
  endforeach()
  list(SORT _names)
  set(${out_var} "${_names}" PARENT_SCOPE)
endfunction()

function(_kpz_puzzle_part target)
  add_library(${target} OBJECT ${ARGN})
  target_link_libraries(${target} PUBLIC kpz_framework)
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}/framework/puzzles")
  if(KPZ_MODULES_ENABLED)  # its objects may go into a module
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  kpz_use_pch(${target})
endfunction()

# kpz_puzzle_missing(<name> <out_var>): what this build lacks for the puzzle, as its
# framework/puzzles/<name>/requires.cmake says (empty: nothing). The caller's variables (KPZ_TRACE,
# KPZ_HAS_KOKKOSKERNELS) are what requires.cmake reads.
function(kpz_puzzle_missing name out_var)
  set(KPZ_PUZZLE_MISSING "")
  if(EXISTS "${PROJECT_SOURCE_DIR}/framework/puzzles/${name}/requires.cmake")
    include("${PROJECT_SOURCE_DIR}/framework/puzzles/${name}/requires.cmake")
  endif()
  set(${out_var} "${KPZ_PUZZLE_MISSING}" PARENT_SCOPE)
endfunction()

# kpz_puzzle_sources(<name> <out>): the puzzle's own sources, framework/puzzles/<name>/*.cpp and its
# fast/ kernels (cmake/kpz_puzzle_shape.py says what each file is for). The build and the race
# check's verifier (KpzVerify.cmake) both take them from here.
function(kpz_puzzle_sources name out)
  file(GLOB _sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/framework/puzzles/${name}/*.cpp"
       "${PROJECT_SOURCE_DIR}/framework/puzzles/${name}/fast/*.cpp")
  set(${out} ${_sources} PARENT_SCOPE)
endfunction()

function(kpz_add_puzzle name)
  set(_root "${PROJECT_SOURCE_DIR}")
  foreach(_part exercises reference)
    if(NOT EXISTS "${_root}/${_part}/${name}")
      message(FATAL_ERROR "kpz: puzzle '${name}' has no ${_part}/${name}/ folder")
    endif()
  endforeach()
  kpz_puzzle_missing(${name} _missing)
  if(_missing)
    message(STATUS "kpz: puzzle '${name}' left out of this build: ${_missing}")
    return()
  endif()
  kpz_puzzle_sources(${name} _spec)
  file(GLOB _exercise CONFIGURE_DEPENDS "${_root}/exercises/${name}/*.cpp")
  file(GLOB _reference CONFIGURE_DEPENDS "${_root}/reference/${name}/*.cpp")
  set(_bench "")
  if(KPZ_BUILD_BENCHMARKS)
    file(GLOB _bench CONFIGURE_DEPENDS "${_root}/benchmarks/${name}/*.cpp")
  endif()
  _kpz_puzzle_part(kpz_puzzle_${name} ${_spec})
  _kpz_puzzle_part(kpz_exercise_${name} ${_exercise})
  if(KPZ_WARNINGS AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    # A skeleton leaves its parameters and variables unused on purpose: its TODOs use them.
    target_compile_options(kpz_exercise_${name} PRIVATE -Wno-unused-parameter -Wno-unused-variable
                                                        -Wno-unused-local-typedefs)
  endif()
  _kpz_puzzle_part(kpz_reference_${name} ${_reference})
  # The benchmark is a part of its own: kpuzzles (what the learner target builds) leaves it out,
  # kpuzzles-bench and the tests link it (framework/cli/CMakeLists.txt).
  if(_bench)
    _kpz_puzzle_part(kpz_bench_${name} ${_bench})
    # Usage requirements of the puzzle part (segscan's Kokkos Kernels macro) reach the benchmark.
    target_link_libraries(kpz_bench_${name} PUBLIC kpz_puzzle_${name})
    # Library baselines written in plain CUDA (CUB) live in benchmarks/<name>/cuda/*.cu.cpp
    # and are compiled only when Kokkos targets CUDA.
    if(KPZ_HAS_CUDA)
      file(GLOB _cuda_bench CONFIGURE_DEPENDS "${_root}/benchmarks/${name}/cuda/*.cpp")
      if(_cuda_bench)
        target_sources(kpz_bench_${name} PRIVATE ${_cuda_bench})
      endif()
    endif()
  endif()
  # What a puzzle needs beyond the framework (an optional library, say) goes in
  # framework/puzzles/<name>/puzzle.cmake, included here with the targets above defined.
  if(EXISTS "${_root}/framework/puzzles/${name}/puzzle.cmake")
    include("${_root}/framework/puzzles/${name}/puzzle.cmake")
  endif()
  if(KPZ_MODULES_ENABLED)
    kpz_add_puzzle_module(${name})
  endif()
  if(KPZ_VERIFY_ENABLED)
    kpz_add_puzzle_verifier(${name})
    # A save rebuilds the module and, with it, the verifier that judges it.
    if(KPZ_MODULES_ENABLED AND TARGET kpz_verify_${name})
      add_dependencies(kpz_module_${name} kpz_verify_${name})
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY KPZ_PUZZLES ${name})
endfunction()

function(kpz_add_all_puzzles)
  kpz_discover_puzzles(_names)
  foreach(_n IN LISTS _names)
    kpz_add_puzzle(${_n})
  endforeach()
  get_property(_added GLOBAL PROPERTY KPZ_PUZZLES)
  message(STATUS "kpz: puzzles: ${_added}")
endfunction()

# kpz_link_puzzles(<target> [NO_BENCHMARKS] [<puzzle>...]): link every part of the given puzzles
# (all of them when none is named) into a target; NO_BENCHMARKS leaves the benchmarks out.
function(kpz_link_puzzles target)
  cmake_parse_arguments(ARG "NO_BENCHMARKS" "" "" ${ARGN})
  set(_names ${ARG_UNPARSED_ARGUMENTS})
  if(NOT _names)
    get_property(_names GLOBAL PROPERTY KPZ_PUZZLES)
  endif()
  foreach(_n IN LISTS _names)
    target_link_libraries(${target} PRIVATE kpz_puzzle_${_n} kpz_exercise_${_n} kpz_reference_${_n})
    if(TARGET kpz_bench_${_n} AND NOT ARG_NO_BENCHMARKS)
      target_link_libraries(${target} PRIVATE kpz_bench_${_n})
    endif()
  endforeach()
endfunction()

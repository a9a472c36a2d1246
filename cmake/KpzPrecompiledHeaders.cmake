# Kokkos_Core.hpp, precompiled once per build folder and reused by the targets of the first build
# (the framework, each puzzle part, the command line): parsing it costs about 2 s of CPU per
# file, more than half of a small kernel file's compile.
#
# Host compilers only (g++, clang): never under nvcc / nvcc_wrapper. The precompiled header is
# built by kpz_pch, whose compile flags and macros are exactly those that kpz_framework passes on
# (PUBLIC), so every user of the framework compiles with the flags it was built with; a user
# that adds its own macros is fine (Kokkos' headers do not read them). The option KPZ_PCH is
# defined at the top level (the ccache launcher depends on it).
include_guard(GLOBAL)

set(KPZ_PCH_ENABLED OFF)
if(KPZ_PCH AND NOT KPZ_HAS_CUDA AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang)$")
  set(KPZ_PCH_ENABLED ON)
  # A target needs a source of its own besides the precompiled header.
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/kpz_pch.cpp"
       CONTENT "// kpz_pch: see cmake/KpzPrecompiledHeaders.cmake\n")
  add_library(kpz_pch OBJECT "${CMAKE_BINARY_DIR}/kpz_pch.cpp")
  # kpz_framework's usage requirements without a dependency on it (kpz_framework reuses the header).
  target_link_libraries(kpz_pch PRIVATE Kokkos::kokkos)
  foreach(_p IN ITEMS INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS)
    set_property(TARGET kpz_pch APPEND PROPERTY ${_p}
                 "$<TARGET_PROPERTY:kpz_framework,INTERFACE_${_p}>")
  endforeach()
  target_compile_features(kpz_pch PRIVATE cxx_std_20)
  target_precompile_headers(kpz_pch PRIVATE <Kokkos_Core.hpp>)
  # Where puzzles are modules, the header's users are position independent: so is the header.
  if(KPZ_MODULES_ENABLED)
    set_target_properties(kpz_pch PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  message(STATUS "kpz: Kokkos_Core.hpp precompiled once (KPZ_PCH)")
endif()

# kpz_use_pch(<target>...): the targets compile with the shared precompiled header.
# g++ 12 at -O3 warns -Wstringop-overflow inside libstdc++'s std::string code (char_traits.h,
# reached from operator+) in two of the project's files when Kokkos_Core.hpp comes precompiled,
# and not when the same header is included as text first: a false positive that only the
# precompiled header brings out. The warning is off for the targets that use it.
function(kpz_use_pch)
  if(KPZ_PCH_ENABLED)
    foreach(_t IN LISTS ARGN)
      target_precompile_headers(${_t} REUSE_FROM kpz_pch)
      if(KPZ_MODULES_ENABLED)
        set_target_properties(${_t} PROPERTIES POSITION_INDEPENDENT_CODE ON)
      endif()
      target_compile_options(${_t} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow>)
    endforeach()
  endif()
endfunction()

# kpz_use_test_pch(<target>...): the test sources compile with a second precompiled header,
# GoogleTest's and Kokkos' headers and the standard headers the tests use, built by
# kpz_test_pch with kpz_test_main's usage requirements (kpz_framework's, GoogleTest's, and
# tests/support; every test target links kpz_test_main, so the flags match; a target's own
# macros are fine, the headers do not read them). Parsing these headers is about 3 s of the 8 to
# 16 s a test source takes at -O3 (2-core VM).
function(kpz_use_test_pch)
  if(NOT KPZ_PCH_ENABLED)
    return()
  endif()
  if(NOT TARGET kpz_test_pch)
    file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/kpz_test_pch.cpp"
         CONTENT "// kpz_test_pch: see cmake/KpzPrecompiledHeaders.cmake\n")
    add_library(kpz_test_pch OBJECT "${CMAKE_BINARY_DIR}/kpz_test_pch.cpp")
    # Not kpz_test_main itself: it compiles with this header too.
    target_link_libraries(kpz_test_pch PRIVATE kpz_framework GTest::gtest)
    target_include_directories(kpz_test_pch PRIVATE "${PROJECT_SOURCE_DIR}/tests/support")
    target_compile_features(kpz_test_pch PRIVATE cxx_std_20)
    target_compile_options(kpz_test_pch PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow>)
    target_precompile_headers(kpz_test_pch PRIVATE
      <gtest/gtest.h> <Kokkos_Core.hpp> <algorithm> <cstdint> <filesystem> <fstream> <functional>
      <map> <memory> <regex> <set> <sstream> <string> <thread> <utility> <vector>)
  endif()
  foreach(_t IN LISTS ARGN)
    target_precompile_headers(${_t} REUSE_FROM kpz_test_pch)
    target_compile_options(${_t} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow>)
  endforeach()
endfunction()

# kpz_host_only_tests(<target>...): test targets that launch no kernel of their own (they run
# kpuzzles, parse files, drive the learner loop) compile at -O1 in optimised builds: -O3 spent
# about half of their compile time on GoogleTest's and <regex>'s templates, for tests whose run
# time is the kpuzzles processes they start. The kernels they reach are built at the build's own
# level in the puzzle libraries.
function(kpz_host_only_tests)
  foreach(_t IN LISTS ARGN)
    target_compile_options(${_t} PRIVATE
      $<$<AND:$<CONFIG:Release,RelWithDebInfo,MinSizeRel>,$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>>:-O1>)
  endforeach()
endfunction()

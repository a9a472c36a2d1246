# GoogleTest: an installed package, else Debian's source tree (package `googletest`), else
# FetchContent from upstream.
include_guard(GLOBAL)

set(KPZ_GTEST_SOURCE_DIR "/usr/src/googletest" CACHE PATH
    "GoogleTest source tree used when no installed GoogleTest is found")

# Under nvcc_wrapper the tests must be compiled by the same compiler as Kokkos, and a
# prebuilt libgtest from the host compiler links fine (same ABI), so the installed one is used.
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  find_package(GTest MODULE QUIET)
endif()

if(GTest_FOUND AND TARGET GTest::gtest_main)
  message(STATUS "kpz: using installed GoogleTest")
elseif(EXISTS "${KPZ_GTEST_SOURCE_DIR}/CMakeLists.txt")
  message(STATUS "kpz: building GoogleTest from ${KPZ_GTEST_SOURCE_DIR}")
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  add_subdirectory("${KPZ_GTEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/_deps/googletest-build" EXCLUDE_FROM_ALL)
else()
  message(STATUS "kpz: fetching GoogleTest from upstream")
  include(FetchContent)
  FetchContent_Declare(googletest
    URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(googletest)
endif()

if(NOT TARGET GTest::gtest_main AND TARGET gtest_main)
  add_library(GTest::gtest_main ALIAS gtest_main)
  add_library(GTest::gtest ALIAS gtest)
endif()
include(GoogleTest)

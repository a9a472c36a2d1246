// Compiled once per executable: CMake passes this target's source and build trees.
#include "paths.hpp"

#ifndef KPZ_SOURCE_DIR
#define KPZ_SOURCE_DIR ""
#endif
#ifndef KPZ_BUILD_DIR
#define KPZ_BUILD_DIR ""
#endif
#ifndef KPZ_BUILD_TARGET
#define KPZ_BUILD_TARGET "kpuzzles"
#endif
#ifndef KPZ_STATE_FILE
#define KPZ_STATE_FILE ""
#endif
#ifndef KPZ_BUILD_BINARY
#define KPZ_BUILD_BINARY ""
#endif
#ifndef KPZ_CMAKE_COMMAND
#define KPZ_CMAKE_COMMAND "cmake"
#endif
#ifndef KPZ_BENCH_BINARY
#define KPZ_BENCH_BINARY ""
#endif
#ifndef KPZ_MODULE_DIR
#define KPZ_MODULE_DIR ""
#endif
#ifndef KPZ_MODULE_PUZZLES
#define KPZ_MODULE_PUZZLES ""
#endif
#ifndef KPZ_COURSE_START
#define KPZ_COURSE_START ""
#endif
#ifndef KPZ_PROGRAM_TARGET
#define KPZ_PROGRAM_TARGET KPZ_BUILD_TARGET
#endif

namespace kpz::cli {

BuildDefaults build_defaults() {
  return {KPZ_SOURCE_DIR,   KPZ_BUILD_DIR,  KPZ_BUILD_TARGET,   KPZ_STATE_FILE,   KPZ_CMAKE_COMMAND, KPZ_BUILD_BINARY,
          KPZ_BENCH_BINARY, KPZ_MODULE_DIR, KPZ_MODULE_PUZZLES, KPZ_COURSE_START, KPZ_PROGRAM_TARGET};
}

}  // namespace kpz::cli

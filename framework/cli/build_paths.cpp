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
#ifndef KPZ_VERIFY_DIR
#define KPZ_VERIFY_DIR ""
#endif
#ifndef KPZ_VERIFY_PUZZLES
#define KPZ_VERIFY_PUZZLES ""
#endif
#ifndef KPZ_PROGRAM_TARGET
#define KPZ_PROGRAM_TARGET KPZ_BUILD_TARGET
#endif

namespace kpz::cli {

BuildDefaults build_defaults() {
  return {.source_dir = KPZ_SOURCE_DIR,
          .build_dir = KPZ_BUILD_DIR,
          .build_target = KPZ_BUILD_TARGET,
          .state_file = KPZ_STATE_FILE,
          .cmake = KPZ_CMAKE_COMMAND,
          .build_binary = KPZ_BUILD_BINARY,
          .bench_binary = KPZ_BENCH_BINARY,
          .module_dir = KPZ_MODULE_DIR,
          .module_puzzles = KPZ_MODULE_PUZZLES,
          .course_start = KPZ_COURSE_START,
          .program_target = KPZ_PROGRAM_TARGET,
          .verify_dir = KPZ_VERIFY_DIR,
          .verify_puzzles = KPZ_VERIFY_PUZZLES};
}

}  // namespace kpz::cli

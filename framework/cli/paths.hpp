#pragma once
// Where the learner's files are: the source tree (exercises/, reference/, docs/), the build
// tree that `kpuzzles watch` rebuilds, and the progress file. The defaults are baked in by
// CMake for each executable (build_paths.cpp); environment variables override them:
//   KPZ_SOURCE_DIR, KPZ_BUILD_DIR, KPZ_STATE_FILE, KPZ_CMAKE, KPZ_MODULE_DIR.
#include <string>

namespace kpz::cli {

// Compiled into each executable from build_paths.cpp with that target's definitions.
struct BuildDefaults {
  const char* source_dir;
  const char* build_dir;
  const char* build_target;  // the CMake target that is this program (kpuzzles)
  const char* state_file;
  const char* cmake;           // the cmake that configured the build tree
  const char* build_binary;    // this program as the build tree makes it (`watch` rebuilds that file)
  const char* bench_binary;    // the program that runs `bench` for this one ("": this one does)
  const char* module_dir;      // where the puzzles' modules are ("": every puzzle is linked in)
  const char* module_puzzles;  // the puzzles that are modules, comma-separated
  const char* course_start;    // the course's first puzzle (the one `learner` builds with kpuzzles)
  const char* program_target;  // the CMake target of this program alone (build_target may be more)
  const char* verify_dir;      // where the puzzles' verifiers are (cmake/KpzVerify.cmake; "": none)
  const char* verify_puzzles;  // the puzzles that have a verifier, comma-separated
};
BuildDefaults build_defaults();

struct LearnerPaths {
  std::string source_dir;
  std::string build_dir;
  std::string build_target;
  std::string state_file;
  std::string cmake;
  std::string self;  // this program's path, resolved when first asked (before any rebuild)
  // The build tree's copy of this program (in KPZ_BUILD_DIR when that is set); empty: unknown.
  std::string build_binary;
  // kpuzzles-bench, which `bench` hands over to (in KPZ_BUILD_DIR when that is set); empty: this
  // program runs the benchmarks itself, or was built without them.
  std::string bench_binary;
  // The puzzles' modules (framework/cli/puzzle_modules.hpp): those of the build tree this program
  // was built in (KPZ_MODULE_DIR overrides it, KPZ_BUILD_DIR does not); empty: every puzzle is
  // linked into this program.
  std::string module_dir;
  // The puzzles' race-check programs, kpz-verify-<puzzle> (cmake/KpzVerify.cmake), of the build
  // tree this program was built in (KPZ_VERIFY_DIR overrides it); empty: this build has none.
  std::string verify_dir;

  std::string exercises_dir() const { return source_dir + "/exercises"; }
  std::string exercise_dir(const std::string& puzzle) const { return exercises_dir() + "/" + puzzle; }
  std::string reference_dir(const std::string& puzzle) const { return source_dir + "/reference/" + puzzle; }
  std::string docs_file(const std::string& doc) const { return source_dir + "/docs/" + doc; }
};

// The defaults with the environment's overrides applied (read once).
const LearnerPaths& learner_paths();

// `path` relative to the source tree when it lies inside it (for messages), else unchanged.
std::string relative_to_source(const std::string& path);

}  // namespace kpz::cli

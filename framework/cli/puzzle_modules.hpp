#pragma once
// Puzzles as modules (builds with KPZ_PUZZLE_MODULES, cmake/KpzPuzzleModules.cmake): kpuzzles is
// the command line and the framework, and each puzzle's spec, exercise and reference are one
// shared module, <build>/puzzles/kpz-<name>.so, whose static registration adds the puzzle to the
// registry when it is loaded. A command loads the modules that exist and builds, with the build's
// output on stderr, those it needs that do not: the first build is kpuzzles and the first puzzle.
#include <memory>
#include <string>
#include <vector>

#include "file_lock.hpp"

namespace kpz::cli {

// The puzzles of this build that are modules, in name order; empty where every puzzle is linked
// into this program (CUDA and trace builds, kpuzzles-bench, -DKPZ_PUZZLE_MODULES=OFF).
const std::vector<std::string>& module_puzzles();

// The build tree this program and its modules were built in, where missing modules are built
// (KPZ_BUILD_DIR does not move it: a module from another tree may not match this program).
std::string module_build_dir();

// The module file of `puzzle` ("" when it is not a module).
std::string module_file(const std::string& puzzle);

// The modules a command builds when they are missing: the puzzle it names; none for a word that
// names no puzzle (the command says it is unknown) and for `list` (it shows what is built); the
// puzzle of the exercise you are on for `hint` without a puzzle; the named or the course's first
// puzzle for `watch` (which builds the others in the background); every puzzle for `check` of
// all and for `doctor`.
std::vector<std::string> puzzles_needed(const std::string& command, const std::vector<std::string>& args);

// The module puzzles this program has not loaded (not built yet), in name order.
std::vector<std::string> unbuilt_puzzles();

// What a puzzle's spec declares, read from its source (framework/puzzles/<name>/*.cpp) without
// building it: where it sits in the course and how many exercises (variants) it has. A module
// registers its puzzle only once loaded, so this is how `list` and `watch` count the whole
// course from the first command on. `variants` counts the entries of `.variants = {...}` (each a
// `{...}` or a call that makes one); 0 when the source cannot be read or has no such list.
// tests/learner checks the count of every puzzle against the registry.
struct DeclaredPuzzle {
  std::string name;
  int course_position = 100;  // PuzzleSpec's default
  int variants = 0;
};
DeclaredPuzzle declared_puzzle(const std::string& name);
// The same from the text of one spec file.
DeclaredPuzzle declared_in(const std::string& name, const std::string& spec_source);

// Held while a kpuzzles builds in its build tree (an on-demand build, watch's builds): a flock on
// <module dir>/.build.lock, so that two kpuzzles (watch, and `run` in another terminal) never
// run make or ninja in one tree at once. `wait`: block until the other build ends (saying so on
// stderr); else busy() says another holds it. Nothing is locked where puzzles are not modules,
// or where the lock file cannot be made (a read-only tree) or locked.
class ModuleBuildLock {
 public:
  explicit ModuleBuildLock(bool wait);
  bool busy() const { return lock_ && lock_->busy(); }

 private:
  std::unique_ptr<FileLock> lock_;
};

// What `kpuzzles watch` rebuilds after a save: this program and the modules it loaded (those not
// built yet have a job of their own), or `program_target` where no puzzle is a module.
std::vector<std::string> watch_build_targets(const std::string& program_target);

// Loads every module that exists, and builds and loads those of `needed` that do not (a lock in
// the module folder keeps two kpuzzles from building at once). Throws std::runtime_error when a
// module cannot be built or loaded, saying which and why.
void load_puzzle_modules(const std::vector<std::string>& needed);

// The builds kpuzzles starts (first use, watch's rebuilds) compile on every core: a save
// recompiles the exercise twice (for the backend and for the race check, race_check.hpp), and
// make alone would take them one after the other. Sets CMAKE_BUILD_PARALLEL_LEVEL for the
// children unless it or MAKEFLAGS is set already (the user's choice wins).
void use_every_core_for_builds();

}  // namespace kpz::cli

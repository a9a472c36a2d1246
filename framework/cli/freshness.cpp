#include "freshness.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "puzzle_modules.hpp"

namespace kpz::cli {

namespace fs = std::filesystem;

namespace {

bool modified(const std::string& path, fs::file_time_type& when) {
  std::error_code ec;
  when = fs::last_write_time(path, ec);
  return !ec;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const bool same = fs::equivalent(a, b, ec);
  return !ec && same;
}

// One line ("" when fresh): what announce_stale_binary prints.
std::string stale_binary_note(const std::vector<std::string>& puzzles) {
  const LearnerPaths& paths = learner_paths();
  fs::file_time_type built;
  if (!modified(paths.self, built)) return "";
  // A copy older than the build tree's kpuzzles.
  fs::file_time_type tree;
  if (!paths.build_binary.empty() && !same_file(paths.self, paths.build_binary) && modified(paths.build_binary, tree) &&
      tree > built)
    return "this kpuzzles (" + paths.self + ") is older than the build tree's " + paths.build_binary +
           ": your latest build is in that one, run it instead";
  // An exercise saved after the build: the build failed, or has not run since. Where the puzzle
  // is a module, its module is what holds the exercise.
  std::vector<std::string> names = puzzles;
  if (names.empty()) names = Registry::instance().names();
  std::string newest, newest_target = paths.build_target;
  fs::file_time_type newest_by = built;
  for (const auto& p : names) {
    fs::file_time_type holder = built;
    if (const std::string module = module_file(p); !module.empty() && !modified(module, holder)) continue;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(paths.exercise_dir(p), ec)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".inc") continue;
      fs::file_time_type t;
      if (modified(entry.path().string(), t) && t > holder && (newest.empty() || t > newest_by)) {
        newest_by = t;
        newest = entry.path().string();
        // A puzzle built as a module needs only its module rebuilt, not every puzzle.
        newest_target = module_file(p).empty() ? paths.build_target : "kpz_module_" + p;
      }
    }
  }
  if (newest.empty()) return "";
  return relative_to_source(newest) +
         " was saved after this kpuzzles was built (the last build failed, or has not run): " +
         "these results are for your code as last built; rebuild with `cmake --build " + paths.build_dir +
         " --target " + newest_target + "`, or use `kpuzzles watch`";
}

}  // namespace

void announce_stale_binary(const std::vector<std::string>& puzzles) {
  // A child this kpuzzles started (a check, a rank) would say it again, once per process.
  if (const char* given = std::getenv(kStaleNoteGiven); given && *given) return;
  const std::string note = stale_binary_note(puzzles);
  if (!note.empty()) std::cerr << "kpuzzles: note: " << printable(note) << '\n';
}

void run_watch_from_build_tree(const std::vector<std::string>& watch_args) {
  const LearnerPaths& paths = learner_paths();
  if (paths.build_binary.empty() || same_file(paths.self, paths.build_binary)) return;
  // A build tree not configured yet: watch itself says what to do (cmake --preset openmp).
  if (!fs::exists(paths.build_dir + "/CMakeCache.txt")) return;
  if (!fs::exists(paths.build_binary))
    throw UsageError("'kpuzzles watch' rebuilds and re-checks with " + paths.build_binary +
                     ", which does not exist: build it first (cmake --build " + paths.build_dir + " --target " +
                     paths.build_target + "), or set KPZ_BUILD_DIR");
  // A second hop would mean the build tree's program is not the one it names: refuse, never loop.
  if (const char* hop = std::getenv("KPZ_WATCH_FROM_BUILD_TREE"); hop && *hop)
    throw UsageError("'kpuzzles watch' was handed on to " + paths.build_binary +
                     ", which hands it on again: run that one directly");
  std::cerr << "kpuzzles: watch runs the build tree's kpuzzles, which it rebuilds: " << paths.build_binary << '\n';
  setenv("KPZ_WATCH_FROM_BUILD_TREE", "1", 1);
  std::vector<std::string> words{paths.build_binary, "watch"};
  words.insert(words.end(), watch_args.begin(), watch_args.end());
  replace_process(words);
}

}  // namespace kpz::cli

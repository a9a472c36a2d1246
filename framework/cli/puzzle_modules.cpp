#include "puzzle_modules.hpp"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include "docs_text.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "learner.hpp"
#include "paths.hpp"
#include "race_check.hpp"
#include "text.hpp"

extern char** environ;

namespace kpz::cli {
namespace fs = std::filesystem;
namespace {

std::set<std::string>& loaded_modules() {
  static std::set<std::string> names;
  return names;
}

// Whether the module file carries this framework's registry stamp (kRegistryLayout), read
// before it is loaded: one built with another version of the registry's types, or before modules
// had a stamp, would crash kpuzzles when it registers.
// A file that is no shared object at all (damaged, empty) counts as built here: loading it then
// says what is wrong with it.
bool built_for_this_framework(const std::string& file) {
  static const std::string mine = registry_stamp(kRegistryLayout).text;
  const std::string bytes = read_text_file(file);
  if (bytes.compare(0, 4,
                    "\x7f"
                    "ELF") != 0)
    return true;
  const std::size_t at = bytes.find(kRegistryStampPrefix);
  return at != std::string::npos && bytes.compare(at, mine.size(), mine) == 0;
}

// "" when loaded, else why not. RTLD_NOW: a symbol the module lacks fails here, with its name,
// not in the middle of a run. Never closed: the registry keeps what its registration made.
std::string load_module(const std::string& puzzle) {
  if (loaded_modules().count(puzzle)) return "";
  const std::string file = module_file(puzzle);
  if (!dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char* why = dlerror();
    return "the puzzle '" + puzzle + "' (" + file + ") could not be loaded: " + (why ? why : "unknown reason") +
           "; rebuild it: cmake --build " + module_build_dir() + " --target kpz_module_" + puzzle;
  }
  loaded_modules().insert(puzzle);
  return "";
}

// cmake --build for the missing modules, its output on our stderr (stdout may be --json's).
// Not run_process: that one captures the output through a pipe and puts the child in a process
// group of its own (for watch, which kills it). Here the build writes to the terminal itself, so
// Ninja keeps its one-line progress, and stays in our group, so Ctrl-C stops it with us instead
// of leaving it to write into the tree.
int build_modules(const std::vector<std::string>& puzzles) {
  const LearnerPaths& paths = learner_paths();
  std::vector<std::string> words{paths.cmake, "--build", module_build_dir(), "--target"};
  for (const auto& p : puzzles) words.push_back("kpz_module_" + p);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

ModuleBuildLock::ModuleBuildLock(bool wait) {
  if (module_puzzles().empty()) return;
  const std::string dir = learner_paths().module_dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  lock_ = std::make_unique<FileLock>(dir + "/.build.lock", wait ? -1.0 : 0.0, [] {
    std::cerr << "kpuzzles: waiting for the build another kpuzzles runs in " << module_build_dir() << std::endl;
  });
}

std::string module_build_dir() {
  return build_defaults().build_dir ? build_defaults().build_dir : "";
}

const std::vector<std::string>& module_puzzles() {
  static const std::vector<std::string> names = [] {
    if (learner_paths().module_dir.empty()) return std::vector<std::string>{};
    std::vector<std::string> out = split_list(build_defaults().module_puzzles ? build_defaults().module_puzzles : "");
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

std::string module_file(const std::string& puzzle) {
  const auto& names = module_puzzles();
  if (std::find(names.begin(), names.end(), puzzle) == names.end()) return "";
  return learner_paths().module_dir + "/kpz-" + puzzle + ".so";
}

std::vector<std::string> puzzles_needed(const std::string& command, const std::vector<std::string>& args) {
  const auto& names = module_puzzles();
  if (names.empty()) return {};  // every puzzle is linked in
  const bool named = !args.empty() && args[0].rfind("-", 0) != 0;
  const bool known = named && std::find(names.begin(), names.end(), args[0]) != names.end();
  // `list` shows what is built. (`doctor` builds every puzzle: whether the course needs the
  // trace build depends on all of them.)
  if (command == "list") return {};
  // `hint` without a puzzle: the exercise you are on (the progress file's), whose puzzle may
  // have been built by a watch that has not started again yet.
  if (command == "hint" && !named) {
    const std::string current = load_state().current();
    const std::string puzzle = current.substr(0, current.find('/'));
    if (std::find(names.begin(), names.end(), puzzle) != names.end()) return {puzzle};
    return {};
  }
  // `watch` starts with its puzzle, or the course's first, and builds the others while you work.
  if (command == "watch") {
    if (known) return {args[0]};
    const std::string start = build_defaults().course_start ? build_defaults().course_start : "";
    if (std::find(names.begin(), names.end(), start) != names.end()) return {start};
    return names;
  }
  if (named) return known ? std::vector<std::string>{args[0]} : std::vector<std::string>{};
  return names;  // `check` of every puzzle
}

std::vector<std::string> unbuilt_puzzles() {
  std::vector<std::string> out;
  for (const auto& p : module_puzzles())
    if (!loaded_modules().count(p)) out.push_back(p);
  return out;
}

DeclaredPuzzle declared_in(const std::string& name, const std::string& spec_source) {
  DeclaredPuzzle d{.name = name};
  // Code only: comments and literals blanked, so that a brace or a word in them does not count.
  std::string code = spec_source;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code.compare(i, 2, "//") == 0) {
      while (i < code.size() && code[i] != '\n') code[i++] = ' ';
    } else if (code.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(code.find("*/", i + 2), code.size() - 2) + 2;
      std::fill(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(end), ' ');
      i = end - 1;
    } else if (code[i] == '"' || code[i] == '\'') {
      const char quote = code[i];
      for (++i; i < code.size() && code[i] != quote; ++i) {
        if (code[i] == '\\' && i + 1 < code.size()) code[i++] = ' ';
        code[i] = ' ';
      }
    }
  }
  static const std::regex position_re(R"(\.course_position\s*=\s*(-?\d+))");
  if (std::smatch m; std::regex_search(code, m, position_re)) d.course_position = std::stoi(m[1]);
  static const std::regex variants_re(R"(\.variants\s*=\s*\{)");
  std::smatch m;
  if (!std::regex_search(code, m, variants_re)) return d;
  // Each variant is one entry of the list `.variants = {...}`: a `{...}` or a call that makes one,
  // separated by commas outside any bracket.
  int depth = 1;
  bool entry = false;  // the current entry has code
  for (auto at = m[0].second; at != code.cend() && depth > 0; ++at) {
    const char c = *at;
    if (c == '{' || c == '(' || c == '[') ++depth;
    if (c == '}' || c == ')' || c == ']') --depth;
    if (depth == 0 || (depth == 1 && c == ',')) {
      d.variants += entry;
      entry = false;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      entry = true;
    }
  }
  return depth == 0 ? d : DeclaredPuzzle{.name = name, .course_position = d.course_position};
}

DeclaredPuzzle declared_puzzle(const std::string& name) {
  const fs::path dir = fs::path(learner_paths().source_dir) / "framework" / "puzzles" / name;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".cpp") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  // spec.cpp first: the scaffold's (cmake/puzzle-template) and every puzzle's.
  std::stable_partition(files.begin(), files.end(), [](const fs::path& f) { return f.filename() == "spec.cpp"; });
  for (const auto& f : files)
    if (const DeclaredPuzzle d = declared_in(name, read_text_file(f.string())); d.variants > 0) return d;
  return {.name = name};
}

std::vector<std::string> watch_build_targets(const std::string& program_target) {
  if (module_puzzles().empty()) return {program_target};
  std::vector<std::string> targets{build_defaults().program_target};
  for (const auto& p : module_puzzles())
    if (loaded_modules().count(p)) targets.push_back("kpz_module_" + p);
  return targets;
}

void use_every_core_for_builds() {
  if (std::getenv("CMAKE_BUILD_PARALLEL_LEVEL") || std::getenv("MAKEFLAGS")) return;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  setenv("CMAKE_BUILD_PARALLEL_LEVEL", std::to_string(cores).c_str(), 0);
}

void load_puzzle_modules(const std::vector<std::string>& needed) {
  if (module_puzzles().empty()) return;
  std::vector<std::string> missing, older;
  for (const auto& p : module_puzzles()) {
    const bool wanted = std::find(needed.begin(), needed.end(), p) != needed.end();
    std::error_code ec;
    if (!fs::exists(module_file(p), ec)) {
      if (wanted) missing.push_back(p);
      continue;
    }
    // The module's race check (race_check.hpp) is built with it: a tree built before it existed
    // builds it on first use.
    if (const std::string verifier = verifier_file(p); wanted && !verifier.empty() && !fs::exists(verifier, ec))
      missing.push_back(p);
    // Built before the framework changed (a new field in PuzzleSpec, say): rebuilt when a command
    // needs it, left unloaded until then.
    if (!built_for_this_framework(module_file(p))) {
      if (!wanted)
        older.push_back(p);
      else if (std::find(missing.begin(), missing.end(), p) == missing.end())
        missing.push_back(p);
      continue;
    }
    // A module that cannot be loaded (damaged, or half written by a build under way) stops only
    // the commands that need it; the others say so and go on without it.
    if (const std::string why = load_module(p); !why.empty()) {
      if (wanted) throw std::runtime_error(why);
      std::cerr << "kpuzzles: note: " << why << '\n';
    }
  }
  if (!older.empty())
    std::cerr << "kpuzzles: note: " << join(older, ", ") << (older.size() == 1 ? " was" : " were")
              << " built with another version of kpuzzles' framework: rebuilt when a command needs "
              << (older.size() == 1 ? "it" : "each") << " (all now: cmake --build " << module_build_dir()
              << " --target puzzles)\n";
  if (missing.empty()) return;
  const ModuleBuildLock lock(true);
  std::cerr << "kpuzzles: building " << (missing.size() == 1 ? "the puzzle " : "the puzzles ") << join(missing, ", ")
            << " (first use; the build's progress follows)" << std::endl;
  if (build_modules(missing) != 0)
    throw std::runtime_error("the build of " + join(missing, ", ") + " failed (its output is above); fix what it " +
                             "names and run the command again, or build it yourself: cmake --build " +
                             module_build_dir() + " --target puzzles");
  for (const auto& p : missing)
    if (const std::string why = load_module(p); !why.empty()) throw std::runtime_error(why);
}

}  // namespace kpz::cli

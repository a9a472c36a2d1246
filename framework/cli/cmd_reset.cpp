#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "docs_text.hpp"
#include "kpz/errors.hpp"
#include "learner.hpp"
#include "puzzle_flags.hpp"
#include "skeleton.hpp"
#include "terminal.hpp"
#include "text.hpp"

namespace kpz::cli {
namespace {

namespace fs = std::filesystem;

// exercises/<p>/<file>.bak-<stamp>: ignored by git (.gitignore), by CMake (which compiles
// *.cpp) and by the skeleton check (which compares *.cpp).
std::string backup_name(const std::string& file) {
  const std::string base = file + ".bak-" + time_now("%Y%m%d-%H%M%S", Zone::local);
  std::string name = base;
  for (int k = 2; fs::exists(name); ++k) name = base + "-" + std::to_string(k);
  return name;
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".kpz-tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  fs::rename(tmp, path);
}

}  // namespace

// kpuzzles reset <puzzle> [--yes] [--json]: puts the skeleton back in exercises/<puzzle>/ after
// asking, keeping the learner's version as a backup next to it.
int cmd_reset(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "reset");
  const ParsedFlags flags = parse_flags({args.begin() + 1, args.end()}, {{"yes", false}, {"json", false}},
                                        "'kpuzzles reset " + spec.name + "'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles reset' takes one puzzle");
  const LearnerPaths& paths = learner_paths();
  require_source_tree(paths, "reset");
  const auto pairs = skeleton_pairs(paths.source_dir, spec.name);
  if (pairs.empty()) throw std::runtime_error("no reference files in " + paths.reference_dir(spec.name));

  struct Change {
    std::string file, skeleton, backup;
  };
  std::vector<Change> changes;
  std::vector<std::string> unchanged;
  for (const auto& p : pairs) {
    std::string skeleton = skeleton_from_reference(read_text_file(p.reference), spec.name, p.reference);
    if (fs::exists(p.exercise) && read_text_file(p.exercise) == skeleton)
      unchanged.push_back(p.exercise);
    else
      changes.push_back({p.exercise, std::move(skeleton), ""});
  }
  const bool json = flags.has("json");
  if (!changes.empty() && !flags.has("yes")) {
    if (json || !stdin_is_terminal())
      throw UsageError(
          "'kpuzzles reset' overwrites your work and asks first; add --yes when it cannot ask (no terminal, --json)");
    std::cout << "Put the skeleton back in:\n";
    for (const auto& c : changes) std::cout << "  " << relative_to_source(c.file) << '\n';
    std::cout << "Your version is kept as a backup next to it. Continue? [y/N] " << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (answer != "y" && answer != "Y" && answer != "yes") {
      std::cout << "Nothing changed.\n";
      return 0;
    }
  }
  for (auto& c : changes) {
    if (fs::exists(c.file)) {
      c.backup = backup_name(c.file);
      fs::copy_file(c.file, c.backup);
    }
    fs::create_directories(fs::path(c.file).parent_path());
    write_file(c.file, c.skeleton);
  }
  if (json) {
    Json reset = Json::array(), same = Json::array();
    for (const auto& c : changes) {
      Json j = Json::object();
      j.set("file", relative_to_source(c.file))
          .set("backup", c.backup.empty() ? Json() : Json(relative_to_source(c.backup)));
      reset.push(std::move(j));
    }
    for (const auto& u : unchanged) same.push(relative_to_source(u));
    Json j = Json::object();
    j.set("puzzle", spec.name).set("reset", std::move(reset)).set("unchanged", std::move(same));
    std::cout << j.dump() << '\n';
    return 0;
  }
  if (changes.empty()) {
    std::cout << "exercises/" << spec.name << "/ already holds the skeleton: nothing to reset.\n";
    return 0;
  }
  for (const auto& c : changes) {
    std::cout << "restored " << relative_to_source(c.file);
    if (!c.backup.empty()) std::cout << " (your version: " << relative_to_source(c.backup) << ")";
    std::cout << '\n';
  }
  std::cout << "Rebuild to use it (`kpuzzles watch` does that by itself).\n";
  return 0;
}

}  // namespace kpz::cli

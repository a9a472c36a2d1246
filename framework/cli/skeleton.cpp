#include "skeleton.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>

#include "text.hpp"

namespace kpz::cli {
namespace {

std::string ns_of(const std::string& puzzle) {
  std::string ns = puzzle;
  std::replace(ns.begin(), ns.end(), '-', '_');
  return ns;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

}  // namespace

std::string skeleton_header(const std::string& puzzle, bool has_bug_hunt, bool race_checked) {
  return "// " + puzzle + " exercise: fill in every TODO" + (has_bug_hunt ? " and fix the bug hunts" : "") +
         ", then run `kpuzzles run " + puzzle + "`\n// (or the tests)." +
         (race_checked ? " Host builds race-check every pass; `kpuzzles trace " + puzzle +
                             " --<variant>`\n// draws the accesses."
                       : "") +
         " The solution is in reference/" + puzzle + "/, but try first: the hints are in\n// docs/puzzles/" + puzzle +
         ".md. Generated from the reference: `kpuzzles reset " + puzzle +
         "` restores it\n// (your work is kept as a backup).\n";
}

namespace {

// Whether the race check traces the puzzle of `source` (reference/<puzzle>/<file>): not when its
// requires.cmake leaves it out of the trace build (batched: Kokkos Kernels takes Kokkos Views;
// distributed: its ranks are several processes).
bool race_checked(const std::string& puzzle, const std::string& source) {
  const std::filesystem::path root = std::filesystem::path(source).parent_path().parent_path().parent_path();
  std::ifstream in(root / "framework" / "puzzles" / puzzle / "requires.cmake");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return text.find("KPZ_TRACE") == std::string::npos;
}

}  // namespace

std::string skeleton_from_reference(const std::string& text, const std::string& puzzle, const std::string& source) {
  static const std::regex todo_re(R"(^(\s*)// KPZ-TODO\((roughly \d+ lines?)\): (.+)$)");
  static const std::regex bug_re(R"(^(\s*)// KPZ-BUG\((.+)\)\s*$)");
  static const std::regex buggy_re(R"(^\s*// KPZ-BUGGY:\s*$)");
  static const std::regex end_re(R"(^\s*// KPZ-END\s*$)");
  static const std::regex commented_re(R"(^(\s*)// ?(.*)$)");
  static const std::regex more_re(R"(^(\s*)//   \S.*$)");  // a continuation line of a KPZ-TODO's text
  const std::vector<std::string> lines = split_lines(text);
  std::size_t i = 0;
  while (i < lines.size() && lines[i].rfind("//", 0) == 0) ++i;
  std::string header =
      skeleton_header(puzzle, text.find("// KPZ-BUG(") != std::string::npos, race_checked(puzzle, source));
  header.pop_back();
  std::vector<std::string> out{header};
  const std::string from = "kpz::" + ns_of(puzzle) + "::reference", to = "kpz::" + ns_of(puzzle) + "::exercise";
  // A KPZ-BUG block (a bug hunt) keeps no marker in the skeleton: its correct lines are dropped
  // and its commented-out buggy lines (after KPZ-BUGGY:) are uncommented.
  enum class Block { none, todo, bug, buggy } block = Block::none;
  int todos = 0;
  std::optional<std::string> todo_indent;  // while the KPZ-TODO's text goes on: its indentation
  for (; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string where = source + ":" + std::to_string(i + 1) + ": ";
    std::smatch m;
    const bool is_todo = std::regex_match(line, m, todo_re);
    if (is_todo || std::regex_match(line, bug_re)) {
      if (block != Block::none) throw SkeletonError(where + "a KPZ-TODO or KPZ-BUG block inside another block");
      block = is_todo ? Block::todo : Block::bug;
      ++todos;
      if (is_todo) {
        out.push_back(m[1].str() + "// TODO(" + m[2].str() + "): " + m[3].str());
        todo_indent = m[1].str();
      }
      continue;
    }
    if (todo_indent && std::regex_match(line, m, more_re) && m[1].str() == *todo_indent) {
      out.push_back(rstrip(line));
      continue;
    }
    todo_indent.reset();
    if (std::regex_match(line, buggy_re)) {
      if (block != Block::bug) throw SkeletonError(where + "KPZ-BUGGY outside a KPZ-BUG block");
      block = Block::buggy;
      continue;
    }
    if (std::regex_match(line, end_re)) {
      if (block == Block::none) throw SkeletonError(where + "KPZ-END without KPZ-TODO or KPZ-BUG");
      block = Block::none;
      continue;
    }
    if (block == Block::buggy) {
      if (!std::regex_match(line, m, commented_re))
        throw SkeletonError(where + "the buggy lines of a KPZ-BUG block must be commented out (// ...)");
      out.push_back(m[2].str().empty() ? "" : m[1].str() + m[2].str());
      continue;
    }
    if (block != Block::none) continue;
    out.push_back(replace_all(line, from, to));
  }
  if (block != Block::none) throw SkeletonError(source + ": unterminated KPZ-TODO or KPZ-BUG block");
  if (todos == 0) throw SkeletonError(source + ": no KPZ-TODO or KPZ-BUG block: a skeleton must leave work to do");
  std::string result;
  for (std::size_t k = 0; k < out.size(); ++k) result += (k ? "\n" : "") + out[k];
  return result + "\n";
}

std::string solved_exercise_from_reference(const std::string& text, const std::string& puzzle) {
  return replace_all(text, "kpz::" + ns_of(puzzle) + "::reference", "kpz::" + ns_of(puzzle) + "::exercise");
}

std::string function_section(const std::string& text, const std::string& name) {
  if (name.empty()) return "";
  const std::regex decl("\\b" + name + "\\s*\\(");
  const std::vector<std::string> lines = split_lines(text);
  std::string out;
  bool inside = false;
  for (const auto& line : lines) {
    if (!inside) {
      if (line.empty() || std::isspace(static_cast<unsigned char>(line[0])) || line[0] == '/' || line[0] == '#' ||
          line[0] == '}')
        continue;
      if (!std::regex_search(line, decl)) continue;
      inside = true;
    }
    out += rstrip(line) + "\n";
    if (line[0] == '}') return out;
  }
  return inside ? out : "";
}

bool function_untouched(const std::string& learner, const std::string& skeleton, const std::string& function) {
  const std::string mine = function_section(learner, function), theirs = function_section(skeleton, function);
  if (!mine.empty() && !theirs.empty()) return mine == theirs;
  std::string a, b;
  for (const auto& l : split_lines(learner)) a += rstrip(l) + "\n";
  for (const auto& l : split_lines(skeleton)) b += rstrip(l) + "\n";
  return a == b;
}

std::vector<SkeletonPair> skeleton_pairs(const std::string& source_dir, const std::string& puzzle) {
  namespace fs = std::filesystem;
  std::vector<SkeletonPair> pairs;
  std::error_code ec;
  const fs::path ref_dir = fs::path(source_dir) / "reference" / puzzle;
  for (const auto& entry : fs::directory_iterator(ref_dir, ec)) {
    // Headers too: a learner's helper that several files of the puzzle call (segscan's combine).
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    pairs.push_back(
        {entry.path().string(), (fs::path(source_dir) / "exercises" / puzzle / entry.path().filename()).string()});
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const SkeletonPair& a, const SkeletonPair& b) { return a.reference < b.reference; });
  return pairs;
}

}  // namespace kpz::cli

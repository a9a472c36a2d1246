// Every `kpuzzles` sample the book prints is what kpuzzles prints, in full.
//
// A sample is a line `$ [VAR=value ...] kpuzzles <command> ...` in a ```text block of any page
// under docs/; its output is the block's lines after it, up to the next `$ ` line or the block's
// end. Each sample is either
//   (a) run again (through /bin/sh, with the line's VAR=value settings) and its output, stdout
//       then stderr, compared with the page's lines in full; or
//   (b) marked on the page as not run again, by an HTML comment right before its block (blank
//       lines and other one-line HTML comments, such as `<!-- course:list -->`, may stand
//       between), with the reason in parentheses:
//           <!-- sample: not re-run (needs a GPU) -->
//       A marker marks every sample of its block. A marker without a reason, a `<!-- sample:`
//       comment of another form, and a marker whose block has no sample fail the test.
// The test prints how many samples it compared and how many are marked, by reason.
//
// The comparison, after this normalisation and nothing else:
//   - trailing whitespace of every line, and blank lines at the end, are dropped (both sides);
//   - a page line `...` alone (indentation allowed) stands for zero or more printed lines: a
//     page abridges a long output so, and every line it does show is still compared in order;
//   - the machine: every sample runs with its own new progress file (KPZ_STATE_FILE: nothing
//     solved, as for a new learner) and with OMP_NUM_THREADS=2 unless its line sets it (the
//     pages show a two-core machine; teams of two). A sample whose output depends on the machine
//     otherwise (free memory, core count, paths, tool versions, timings) is marked, not matched.
//   - the pages show the unsolved skeletons of exercises/ and the default build (OpenMP, with
//     Kokkos Kernels): a run of an exercise that now passes where its page shows a FAIL (the
//     learner solved it) is skipped and counted; on another build (the Threads build of CI, a
//     build without Kokkos Kernels) only the lines that no build changes are compared: each
//     sample's `expected:` lines and, for a `--reference` run, its `out:` lines.
// A sample of a puzzle this build leaves out (framework/puzzles/<p>/requires.cmake) is counted, not
// run. A mismatch fails with the page, the line of the first difference, and a diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "shell.hpp"

namespace {

namespace fs = std::filesystem;

struct Sample {
  std::string page;                // relative to the source tree, e.g. docs/puzzles/reduce.md
  int line = 0;                    // the `$ ` line
  std::string command;             // the line after "$ "
  std::string env;                 // its VAR=value settings, each followed by a space
  std::string args;                // after "kpuzzles "
  std::vector<std::string> shown;  // the page's output lines
  std::vector<int> shown_line;     // and their line numbers
  bool runnable = true;            // no shell operators: run as it stands
};

struct Block {
  std::string page;
  int fence_line = 0;
  std::string reason;  // the marker's reason; empty: re-run
  std::vector<Sample> samples;
};

struct Page {
  std::vector<Block> blocks;        // the ```text blocks holding at least one sample
  std::vector<std::string> errors;  // malformed or stray markers
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string trim_right(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : trim_right(s.substr(b));
}

bool is_ellipsis(const std::string& line) {
  return trim(line) == "...";
}

// "$ OMP_NUM_THREADS=2 kpuzzles run x" -> env "OMP_NUM_THREADS=2 ", args "run x". False: no kpuzzles command.
bool parse_command(const std::string& command, Sample& s) {
  static const std::regex assignment("[A-Za-z_][A-Za-z0-9_]*=[^ ]*");
  std::istringstream words(command);
  std::string word;
  std::string env;
  while (words >> word) {
    if (std::regex_match(word, assignment)) {
      env += word + " ";
      continue;
    }
    if (word != "kpuzzles" && !(word.size() > 9 && word.compare(word.size() - 9, 9, "/kpuzzles") == 0)) return false;
    std::string rest;
    std::getline(words, rest);
    s.env = env;
    s.args = trim(rest);
    s.runnable =
        s.args.find_first_of("|&;<>$`()\\\"'") == std::string::npos && env.find_first_of("$`") == std::string::npos;
    return true;
  }
  return false;
}

Page read_page(const fs::path& file, const std::string& name) {
  static const std::regex marker(R"(<!-- sample: not re-run(?: \((.*)\))? -->)");
  Page page;
  std::vector<std::string> lines;
  {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) lines.push_back(trim_right(line));
  }
  std::vector<int> markers_seen;  // lines of `<!-- sample:` comments, to find those no block takes
  std::vector<int> markers_taken;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (starts_with(t, "<!-- sample:")) markers_seen.push_back(static_cast<int>(i) + 1);
    if (!starts_with(t, "```")) continue;
    const std::size_t indent = lines[i].find('`');
    const bool text = trim(t.substr(3)) == "text";
    std::size_t end = i + 1;
    while (end < lines.size() && !starts_with(trim(lines[end]), "```")) ++end;
    if (text) {
      Block block{name, static_cast<int>(i) + 1, "", {}};
      Sample* open = nullptr;
      for (std::size_t k = i + 1; k < end; ++k) {
        std::size_t strip = 0;  // the fence's indentation, as far as the line has it
        while (strip < indent && strip < lines[k].size() && lines[k][strip] == ' ') ++strip;
        const std::string body = lines[k].substr(strip);
        if (starts_with(body, "$ ")) {
          Sample s;
          s.page = name;
          s.line = static_cast<int>(k) + 1;
          s.command = body.substr(2);
          open = nullptr;
          if (parse_command(s.command, s)) {
            block.samples.push_back(s);
            open = &block.samples.back();
          }
        } else if (open) {
          open->shown.push_back(body);
          open->shown_line.push_back(static_cast<int>(k) + 1);
        }
      }
      // The comments right before the fence, blank lines between.
      int marker_line = 0;
      for (int k = static_cast<int>(i) - 1; k >= 0; --k) {
        const std::string c = trim(lines[k]);
        if (c.empty()) continue;
        if (!starts_with(c, "<!--") || c.size() < 7 || c.compare(c.size() - 3, 3, "-->") != 0) break;
        if (!starts_with(c, "<!-- sample:")) continue;
        marker_line = k + 1;
        std::smatch m;
        if (!std::regex_match(c, m, marker))
          page.errors.push_back(name + ":" + std::to_string(k + 1) +
                                ": a sample marker reads `<!-- sample: not re-run (the reason) -->`, not `" + c + "`");
        else if (trim(m[1].str()).empty())
          page.errors.push_back(name + ":" + std::to_string(k + 1) + ": the sample marker gives no reason");
        block.reason = m.size() > 1 && !trim(m[1].str()).empty() ? trim(m[1].str()) : "no reason given";
        break;
      }
      if (marker_line != 0) {
        markers_taken.push_back(marker_line);
        if (block.samples.empty())
          page.errors.push_back(name + ":" + std::to_string(marker_line) +
                                ": a sample marker, but the block after it has no `$ kpuzzles` sample");
      }
      if (!block.samples.empty()) page.blocks.push_back(std::move(block));
    }
    i = end;
  }
  for (int m : markers_seen)
    if (std::find(markers_taken.begin(), markers_taken.end(), m) == markers_taken.end())
      page.errors.push_back(name + ":" + std::to_string(m) + ": a sample marker that stands before no ```text block");
  return page;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(trim_right(line));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Whether the page's lines (with `...` lines) match the printed ones.
bool matches(const std::vector<std::string>& page, const std::vector<std::string>& printed) {
  const std::size_t P = page.size(), Q = printed.size();
  // ok[i][j]: page[i..] matches printed[j..]
  std::vector<std::vector<char>> ok(P + 1, std::vector<char>(Q + 1, 0));
  ok[P][Q] = 1;
  for (std::size_t i = P; i-- > 0;)
    for (std::size_t j = Q + 1; j-- > 0;)
      ok[i][j] = is_ellipsis(page[i]) ? (ok[i + 1][j] || (j < Q && ok[i][j + 1]))
                                      : (j < Q && page[i] == printed[j] && ok[i + 1][j + 1]);
  return ok[0][0];
}

// A line diff (- page, + printed; the printed lines a page's `...` stands for are collapsed),
// and the index of the page line where the first difference is.
std::string diff(const std::vector<std::string>& page, const std::vector<std::string>& printed, std::size_t& first) {
  const std::size_t P = page.size(), Q = printed.size();
  std::vector<std::vector<int>> lcs(P + 1, std::vector<int>(Q + 1, 0));
  for (std::size_t i = P; i-- > 0;)
    for (std::size_t j = Q; j-- > 0;)
      lcs[i][j] = !is_ellipsis(page[i]) && page[i] == printed[j] ? lcs[i + 1][j + 1] + 1
                                                                 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Op {
    char kind;  // ' ', '-', '+', '.' (a page's `...`)
    std::size_t page_index;
    std::string text;
  };
  std::vector<Op> ops;
  std::size_t i = 0, j = 0;
  while (i < P || j < Q) {
    if (i < P && j < Q && !is_ellipsis(page[i]) && page[i] == printed[j]) {
      ops.push_back({' ', i, page[i]}), ++i, ++j;
    } else if (i < P && (j == Q || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push_back({is_ellipsis(page[i]) ? '.' : '-', i, page[i]}), ++i;
    } else {
      ops.push_back({'+', i, printed[j]}), ++j;
    }
  }
  // In each stretch between two common lines that holds a page `...`, the printed lines are the
  // ones the `...` stands for: one line says how many.
  std::string out;
  first = P;
  for (std::size_t a = 0; a < ops.size();) {
    if (ops[a].kind == ' ') {
      out += "  " + ops[a].text + "\n";
      ++a;
      continue;
    }
    std::size_t b = a;
    bool elided = false;
    while (b < ops.size() && ops[b].kind != ' ') elided |= ops[b++].kind == '.';
    int hidden = 0;
    for (std::size_t k = a; k < b; ++k) {
      if (ops[k].kind == '.') {
        out += "  " + ops[k].text + "\n";
      } else if (ops[k].kind == '+' && elided) {
        ++hidden;
      } else {
        if (first == P) first = ops[k].page_index;
        out += std::string(1, ops[k].kind) + " " + ops[k].text + "\n";
      }
    }
    if (hidden) out += "  (" + std::to_string(hidden) + " printed line(s) that a page `...` stands for)\n";
    a = b;
  }
  return out;
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<Page> book() {
  std::vector<fs::path> files;
  const fs::path root(KPZ_SOURCE_DIR);
  for (const auto& e : fs::recursive_directory_iterator(root / "docs"))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Page> pages;
  for (const fs::path& f : files) pages.push_back(read_page(f, fs::relative(f, root).string()));
  return pages;
}

TEST(DocsExamples, ComparisonRules) {
  EXPECT_TRUE(matches({"a", "...", "d"}, {"a", "b", "c", "d"}));
  EXPECT_TRUE(matches({"a", "  ...", "d"}, {"a", "d"}));
  EXPECT_TRUE(matches({"a", "..."}, {"a", "b"}));
  EXPECT_FALSE(matches({"a", "...", "d"}, {"a", "b", "c"}));
  EXPECT_FALSE(matches({"a", "b"}, {"a", "b", "c"}));  // in full: no line may be left out silently
  EXPECT_FALSE(matches({"a", "x", "c"}, {"a", "b", "c"}));
  std::size_t first = 0;
  const std::string d = diff({"a", "x", "...", "e"}, {"a", "b", "c", "d", "e"}, first);
  EXPECT_EQ(first, 1u) << d;
  EXPECT_NE(d.find("- x\n"), std::string::npos) << d;
  EXPECT_EQ(d.find("+ b\n"), std::string::npos) << d;  // under the `...`

  Sample s;
  ASSERT_TRUE(parse_command("OMP_NUM_THREADS=2 kpuzzles run reduce --reference", s));
  EXPECT_EQ(s.env, "OMP_NUM_THREADS=2 ");
  EXPECT_EQ(s.args, "run reduce --reference");
  EXPECT_TRUE(s.runnable);
  ASSERT_TRUE(parse_command("kpuzzles list | head -3", s));
  EXPECT_FALSE(s.runnable);
  EXPECT_FALSE(parse_command("cmake --build --preset openmp", s));

  const fs::path dir = fs::path(testing::TempDir()) / ("kpz-docs-rules-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "page.md") << "<!-- sample: not re-run -->\n```text\n$ kpuzzles bench\n```\n"
                                 << "<!-- sample: not re-run (needs a GPU) -->\n\n<!-- course:x -->\n"
                                 << "```text\n$ kpuzzles bench conv1d\nline\n```\n"
                                 << "<!-- sample: not re-run (nothing) -->\n```text\nplain\n```\n"
                                 << "<!-- sample: skip -->\n\nprose\n";
  const Page page = read_page(dir / "page.md", "page.md");
  ASSERT_EQ(page.blocks.size(), 2u);
  EXPECT_EQ(page.blocks[0].reason, "no reason given");
  EXPECT_EQ(page.blocks[1].reason, "needs a GPU");
  EXPECT_EQ(page.blocks[1].samples.at(0).shown, std::vector<std::string>{"line"});
  ASSERT_EQ(page.errors.size(), 3u) << ::testing::PrintToString(page.errors);
  EXPECT_NE(page.errors[0].find("page.md:1: the sample marker gives no reason"), std::string::npos);
  EXPECT_NE(page.errors[1].find("page.md:12: a sample marker, but the block"), std::string::npos);
  EXPECT_NE(page.errors[2].find("page.md:16: a sample marker that stands before no"), std::string::npos);
  fs::remove_all(dir);
}

TEST(DocsExamples, SamplesAreWhatKpuzzlesPrints) {
  const auto started = std::chrono::steady_clock::now();
  const fs::path state_dir = fs::path(testing::TempDir()) / ("kpz-docs-samples-" + std::to_string(getpid()));
  fs::create_directories(state_dir);
  const std::string kpuzzles(KPZ_KPUZZLES);
  int state_files = 0;
  auto run = [&](const std::string& env, const std::string& args) {
    const fs::path state = state_dir / ("state-" + std::to_string(++state_files) + ".json");
    return kpz::test::shell("env OMP_NUM_THREADS=2 KPZ_STATE_FILE=" + quoted(state.string()) + " " + env +
                            quoted(kpuzzles) + " " + args + " </dev/null");
  };
  // The pages show the default build: another backend changes the header lines (and team
  // sizes), a build without Kokkos Kernels the library's lines and the course (no `batched`).
  const kpz::test::ShellResult probe = run("", "run basics --views --reference");
  const bool full = KPZ_HAS_KOKKOSKERNELS && probe.out.find("(reference, openmp)") != std::string::npos;
  if (!full)
    std::printf(
        "DocsExamples: not the OpenMP build with Kokkos Kernels that the pages show: only the `expected:` "
        "and reference `out:` lines compared\n");

  int compared = 0, solved = 0, absent = 0;
  // A puzzle this build leaves out (its requires.cmake: distributed without MPI, batched without
  // Kokkos Kernels) cannot run its samples here; they are counted, not compared.
  const auto left_out = [](const std::string& args) {
    std::istringstream words(args);
    std::string command, puzzle;
    words >> command >> puzzle;
    const std::string all = "," KPZ_ALL_PUZZLES ",", built = "," KPZ_BUILT_PUZZLES ",";
    return all.find("," + puzzle + ",") != std::string::npos && built.find("," + puzzle + ",") == std::string::npos;
  };
  std::map<std::string, int> marked;
  for (const Page& page : book()) {
    for (const std::string& e : page.errors) ADD_FAILURE() << e;
    for (const Block& block : page.blocks) {
      for (const Sample& s : block.samples) {
        if (!block.reason.empty()) {
          ++marked[block.reason];
          continue;
        }
        if (left_out(s.args)) {
          ++absent;
          continue;
        }
        if (!s.runnable) {
          ADD_FAILURE() << s.page << ":" << s.line << ": `" << s.command
                        << "` is not a plain command that this test can run again; simplify it, or mark "
                           "its block <!-- sample: not re-run (why) -->";
          continue;
        }
        const kpz::test::ShellResult r = run(s.env, s.args);
        std::vector<std::string> printed = split_lines(r.out + r.err);
        std::vector<std::string> shown = s.shown;
        while (!shown.empty() && shown.back().empty()) shown.pop_back();
        const bool reference = s.args.find(" --reference") != std::string::npos;
        if (!full) {
          for (std::size_t k = 0; k < shown.size(); ++k) {
            if (starts_with(shown[k], "expected: ") || (reference && starts_with(shown[k], "out: "))) {
              EXPECT_NE(std::find(printed.begin(), printed.end(), shown[k]), printed.end())
                  << s.page << ":" << s.shown_line[k] << ": `kpuzzles " << s.args << "` no longer prints\n  "
                  << shown[k] << "\nit prints:\n"
                  << r.out << r.err;
            }
          }
          ++compared;
          continue;
        }
        if (matches(shown, printed)) {
          ++compared;
          continue;
        }
        const auto verdict = [](const std::vector<std::string>& lines, const char* word) {
          return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return starts_with(l, word); });
        };
        if (starts_with(s.args, "run ") && !reference && verdict(shown, "FAIL: ") && verdict(printed, "PASS: ")) {
          ++solved;
          continue;
        }
        std::size_t first = 0;
        const std::string d = diff(shown, printed, first);
        const int where =
            first < shown.size() ? s.shown_line[first] : (shown.empty() ? s.line : s.shown_line.back() + 1);
        ADD_FAILURE() << s.page << ":" << where << ": `" << s.command << "` (line " << s.line
                      << ") prints otherwise than the page (exit " << r.code << "); - page, + kpuzzles:\n"
                      << d;
        ++compared;
      }
    }
  }
  fs::remove_all(state_dir);
  int marked_total = 0;
  for (const auto& [reason, n] : marked) marked_total += n;
  std::printf(
      "DocsExamples: %d samples compared%s, %d marked not re-run, %d skipped (solved in exercises/), %d of puzzles "
      "this build leaves out; %.1f s\n",
      compared, full ? " in full" : " (backend-free lines)", marked_total, solved, absent,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  for (const auto& [reason, n] : marked) std::printf("  marked (%s): %d\n", reason.c_str(), n);
  EXPECT_GE(compared, 40) << "fewer samples than the book prints: is the format still ```text and `$ kpuzzles`?";
}

}  // namespace

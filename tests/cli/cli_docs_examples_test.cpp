// The worked examples the puzzle pages print are what kpuzzles prints: every `$ kpuzzles run ...`
// line of a page's text blocks followed by an `expected:` line (the oracle's answer, whichever
// implementation runs) or, for a `--reference` run, an `out:` line, is run again and compared.
// So a page cannot drift from the code, and a puzzle needs no hand-written test of its worked
// examples' values.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "shell.hpp"

namespace {

struct PrintedRun {
  std::string page;
  int line = 0;
  std::string env;                          // e.g. "OMP_NUM_THREADS=2 "
  std::string args;                         // after "kpuzzles "
  std::vector<std::string> expected_lines;  // the page's "out: " and "expected: " lines
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<PrintedRun> printed_runs(const std::filesystem::path& page) {
  std::vector<PrintedRun> runs;
  std::ifstream in(page);
  std::string line;
  bool in_text = false;
  PrintedRun* open = nullptr;
  for (int number = 1; std::getline(in, line); ++number) {
    if (starts_with(line, "```")) {
      in_text = !in_text && starts_with(line, "```text");
      open = nullptr;
      continue;
    }
    if (!in_text) continue;
    if (starts_with(line, "$ ")) {
      open = nullptr;
      const std::size_t at = line.find("kpuzzles run ");
      if (at == std::string::npos || line.find_first_of("|><;&") != std::string::npos) continue;
      runs.push_back({page.filename().string(), number, line.substr(2, at - 2), line.substr(at + 9), {}});
      open = &runs.back();
    } else if (open && (starts_with(line, "expected: ") ||
                        (starts_with(line, "out: ") && open->args.find(" --reference") != std::string::npos))) {
      open->expected_lines.push_back(line);
    }
  }
  std::erase_if(runs, [](const PrintedRun& r) { return r.expected_lines.empty(); });
  return runs;
}

TEST(DocsExamples, PrintedRunsAreWhatKpuzzlesPrints) {
  int compared = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(KPZ_SOURCE_DIR) / "docs/puzzles")) {
    if (entry.path().extension() != ".md") continue;
    for (const PrintedRun& run : printed_runs(entry.path())) {
      const kpz::test::ShellResult r = kpz::test::shell("env " + run.env + std::string(KPZ_KPUZZLES) + " " + run.args);
      for (const std::string& want : run.expected_lines) {
        EXPECT_NE(r.out.find("\n" + want + "\n"), std::string::npos)
            << run.page << ":" << run.line << ": `kpuzzles " << run.args << "` no longer prints\n  " << want
            << "\nit prints:\n"
            << r.out << r.err;
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 4) << "the pages print fewer worked examples than expected: is the format still `out: `?";
}

}  // namespace

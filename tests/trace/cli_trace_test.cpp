// `kpuzzles trace` end to end in the trace build: exit codes (0 clean, 1 race or budget, 2 bad
// usage), the report, the SVG file, and determinism.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "shell.hpp"

namespace {

using Result = kpz::test::ShellResult;

Result kpuzzles(const std::string& args) {
  return kpz::test::shell(std::string(KPZ_KPUZZLES) + " " + args);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TraceCli, ReferenceIsCleanAndDrawsItsDiagram) {
  const std::string svg = testing::TempDir() + "kpz_trace_simple.svg";
  const Result r = kpuzzles("trace conv1d --simple --reference --svg " + svg);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("epoch 0: start -> team_barrier (reference/conv1d/conv1d.cpp:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global  a   read   012301"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global  out write  012301"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("conv1d --simple (reference): race-free and within budget"), std::string::npos) << r.out;
  const std::string s = slurp(svg);
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_NE(s.find("</svg>"), std::string::npos);
  // Deterministic: the same diagram again.
  const Result again = kpuzzles("trace conv1d --simple --reference --svg " + svg + "2");
  EXPECT_EQ(again.out.substr(0, again.out.rfind("diagram:")), r.out.substr(0, r.out.rfind("diagram:")));
  EXPECT_EQ(slurp(svg + "2"), s);
}

TEST(TraceCli, DistributionAndOptions) {
  const Result r = kpuzzles("trace butterfly --pair-swap --reference --no-svg --distribution blockwise --team-size 2");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("TeamThreadRange blockwise (as on OpenMP and Serial)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("TeamThreadRange cyclic:"), std::string::npos) << r.out;
}

TEST(TraceCli, AllReferencesAreClean) {
  const Result r = kpuzzles("trace --all --reference");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 failed"), std::string::npos) << r.out;
}

TEST(TraceCli, BadUsageIsExitTwoOnOneLine) {
  for (const char* args :
       {"trace", "trace nosuch", "trace conv1d --simple --distribution diagonal", "trace conv1d --simple --tile 3",
        "trace conv1d --simple --team-size 0", "trace conv1d --simple --size 100000 --reference --no-svg"}) {
    const Result r = kpuzzles(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
}

// Variants that cannot be traced by design say so on one line and exit 2, never crash; so does a
// team size given to a variant of flat kernels only.
TEST(TraceCli, UntraceableVariantsExitTwoWithTheReason) {
  for (const char* args : {"trace reduce --persistent --reference --no-svg", "trace reduce --persistent --no-svg"}) {
    const Result r = kpuzzles(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find("cannot be traced: "), std::string::npos) << args << ": " << r.err;
  }
  const Result r = kpuzzles("trace basics --axpy --reference --team-size 4 --no-svg");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--team-size does not apply to basics --axpy"), std::string::npos) << r.err;
}

// basics --histogram's reference is traced: the report draws its flat kernels and is clean (the
// same kernel with a plain `+=` races: flat_test.cpp).
TEST(TraceCli, AFlatVariantIsTracedWithItsKernels) {
  const Result r = kpuzzles("trace basics --histogram --reference --no-svg");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("flat kernel \"basics::histogram_atomic\", RangePolicy [0, 12): 12 iterations"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("flat kernels: 0 racing elements"), std::string::npos) << r.out;
}

// Every puzzle, every reference variant: clean, and within the time limit (5 s on two
// cores) for the whole puzzle, both distributions.
TEST(TraceCli, EveryPuzzleTracesCleanlyInUnderFiveSeconds) {
  for (const char* puzzle : {"basics", "conv1d", "butterfly", "bin-extract", "reduce", "segscan"}) {
    const Result list = kpuzzles(std::string("run ") + puzzle + " --help");
    std::istringstream lines(list.out);
    int variants = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::string line; std::getline(lines, line);) {
      // Variant lines of `run <puzzle> --help` start with "  --<variant>".
      if (line.rfind("  --", 0) != 0) continue;
      const std::string variant = line.substr(2, line.find(' ', 2) - 2);
      const Result r = kpuzzles(std::string("trace ") + puzzle + " " + variant + " --reference --no-svg");
      const bool untraceable = r.code == 2 && r.err.find("cannot be traced: ") != std::string::npos;
      EXPECT_TRUE(r.code == 0 || untraceable) << puzzle << " " << variant << "\n" << r.out << r.err;
      ++variants;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(variants, 3) << puzzle << ": no variants found in\n" << list.out;
    EXPECT_LT(seconds, 5.0) << puzzle;
  }
}

// The diagram goes under the build tree by default (the working directory may
// be read-only: /proc is, even for root), and its path is printed.
TEST(TraceCli, TheDefaultDiagramGoesUnderTheBuildTree) {
  const Result ro = kpz::test::shell("cd /proc && " + std::string(KPZ_KPUZZLES) + " trace conv1d --simple --reference");
  EXPECT_EQ(ro.code, 0) << ro.out << ro.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(ro.out, m, std::regex("diagram: (/[^\n]+)\n"))) << ro.out;
  const std::string path = m[1];
  EXPECT_NE(path.find("/trace-diagrams/conv1d-simple.trace.svg"), std::string::npos) << path;
  EXPECT_EQ(slurp(path).rfind("<svg", 0), 0u) << path;
}

// `doctor` in the trace build traced each reference small, listed the ones the
// tracer cannot record, and finished; it used to run them at full size for 272 s and fail (exit 3)
// at reduce's View::data().
TEST(TraceCli, DoctorRunsInTheTraceBuild) {
  const auto start = std::chrono::steady_clock::now();
  const Result r = kpuzzles("doctor");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("puzzles on this build"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--persistent: not in the trace build: reduce --persistent cannot be traced: "),
            std::string::npos)
      << r.out;
  EXPECT_LT(seconds, 60.0);
  const Result json = kpuzzles("doctor --json");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"traced\":true"), std::string::npos);
}

}  // namespace

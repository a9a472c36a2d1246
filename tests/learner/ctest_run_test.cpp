// `t` in `kpuzzles watch` runs a puzzle's learner suite through ctest: the
// command line, and the test's own output read back from ctest's verbose output, so that the
// tests block shows what it showed when the test program ran directly. The last test runs a
// real ctest on a two-test project.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ctest_run.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "terminal.hpp"
#include "text.hpp"
#include "watch_render.hpp"

namespace {

namespace fs = std::filesystem;
using namespace kpz::cli;

const std::string kGtestOutput =
    "[==========] Running 2 tests from 1 test suite.\n"
    "conv1d_test.cpp:40: Failure\n"
    "Expected equality of these values:\n"
    "[  FAILED  ] Conv1d.Tiled (3 ms)\n"
    "[==========] 2 tests from 1 test suite ran. (5 ms total)\n"
    "[  PASSED  ] 1 test.\n"
    "[  FAILED  ] 1 test, listed below:\n"
    "[  FAILED  ] Conv1d.Tiled\n";

// What `ctest -V` printed around kGtestOutput (CMake 3.25).
std::string verbose_ctest(const std::string& test_output) {
  std::string out =
      "UpdateCTestConfiguration  from :/b/tests/DartConfiguration.tcl\n"
      "Test project /b/tests\n"
      "Constructing a list of tests\n"
      "test 12\n"
      "    Start 12: conv1d/learner\n"
      "\n"
      "12: Test command: /b/tests/kpz_test_conv1d_exercise \"--gtest_brief=1\" "
      "\"--kpz_first_failures=1\"\n"
      "12: Working Directory: /b/tests\n"
      "12: Environment variables: \n"
      "12:  OMP_NUM_THREADS=2\n"
      "12: Test timeout computed to be: 10000000\n";
  for (const auto& line : split_lines(test_output)) out += "12: " + line + "\n";
  out +=
      "1/1 Test #12: conv1d/learner ...................***Failed    0.05 sec\n"
      "\n"
      "0% tests passed, 1 tests failed out of 1\n"
      "\n"
      "The following tests FAILED:\n"
      "\t 12 - conv1d/learner (Failed)\n";
  return out;
}

TEST(CtestRun, CommandLineSelectsExactlyTheLearnerTest) {
  EXPECT_EQ(learner_test_name("bin-extract"), "bin-extract/learner");
  EXPECT_EQ(ctest_exact_regex("bin-extract/learner"), "^bin-extract/learner$");
  EXPECT_EQ(ctest_exact_regex("a.b+(c)"), "^a\\.b\\+\\(c\\)$");
  EXPECT_EQ(ctest_beside("/opt/cmake-3.28/bin/cmake"), "/opt/cmake-3.28/bin/ctest");
  EXPECT_EQ(ctest_beside("cmake"), "ctest");
  const std::vector<std::string> want = {"/usr/bin/ctest",   "--test-dir", "/b/tests",        "-R",
                                         "^conv1d/learner$", "-V",         "--no-tests=error"};
  EXPECT_EQ(ctest_command("/usr/bin/ctest", "/b/tests", "conv1d/learner"), want);
}

TEST(CtestRun, TestOutputIsTheTestsOwnLines) {
  EXPECT_EQ(ctest_test_output(verbose_ctest(kGtestOutput)), kGtestOutput);
  // Without the header (another ctest version): every numbered line.
  EXPECT_EQ(ctest_test_output("test 3\n3: [  PASSED  ] 4 tests.\n1/1 Test #3: x ... Passed\n"),
            "[  PASSED  ] 4 tests.\n");
  EXPECT_FALSE(ctest_found_no_test(verbose_ctest(kGtestOutput)));
  EXPECT_TRUE(ctest_found_no_test("Test project /b/tests\nNo tests were found!!!\n"));
}

// The tests block is the same as when the test program's output was read directly.
TEST(CtestRun, TheTestsBlockIsUnchanged) {
  const Style plain{false};
  EXPECT_EQ(render_test_run(plain, "conv1d", ctest_test_output(verbose_ctest(kGtestOutput)), false),
            render_test_run(plain, "conv1d", kGtestOutput, false));
}

// A real ctest: a passing test's output shows, a failing one fails, a regex that matches no
// test says so.
TEST(CtestRun, RealCtest) {
  const std::string cmake = learner_paths().cmake;
  const fs::path dir = fs::temp_directory_path() / ("kpz-ctest-run-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "src");
  std::ofstream(dir / "src" / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.20)\nproject(t NONE)\nenable_testing()\n"
         "add_test(NAME p/learner COMMAND sh -c \"echo '[  PASSED  ] 3 tests.'; echo "
         "\\\"v=$KPZ_V\\\"\")\n"
         "set_tests_properties(p/learner PROPERTIES ENVIRONMENT KPZ_V=7)\n"
         "add_test(NAME q/learner COMMAND sh -c \"echo 'x.cpp:1: Failure'; exit 1\")\n";
  const ProcessResult conf = run_process({cmake, "-S", (dir / "src").string(), "-B", (dir / "b").string()}, {}, 120);
  if (!conf.ok()) GTEST_SKIP() << "cmake cannot configure a test project here:\n" << conf.output;
  const std::string ctest = ctest_beside(cmake), build = (dir / "b").string();

  const ProcessResult pass = run_process(ctest_command(ctest, build, "p/learner"), {}, 120);
  EXPECT_TRUE(pass.ok()) << pass.output;
  EXPECT_EQ(ctest_test_output(pass.output), "[  PASSED  ] 3 tests.\nv=7\n") << pass.output;

  const ProcessResult fail = run_process(ctest_command(ctest, build, "q/learner"), {}, 120);
  EXPECT_FALSE(fail.ok()) << fail.output;
  EXPECT_FALSE(ctest_found_no_test(fail.output));
  EXPECT_EQ(ctest_test_output(fail.output), "x.cpp:1: Failure\n") << fail.output;

  const ProcessResult none = run_process(ctest_command(ctest, build, "p/learn"), {}, 120);
  EXPECT_FALSE(none.ok()) << none.output;
  EXPECT_TRUE(ctest_found_no_test(none.output)) << none.output;
  fs::remove_all(dir);
}

}  // namespace

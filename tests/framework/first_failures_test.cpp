// `ctest --preset learner` printed ~19,000 lines on a fresh checkout. The
// learner's suites run with --kpz_first_failures=1: each failing test shows its first failed
// check and one line counting the rest.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "shell.hpp"

namespace {

struct Output {
  int code;
  std::string text;  // stdout, then stderr
};

Output run_with(const std::string& env, const std::string& args) {
  const kpz::test::ShellResult r = kpz::test::shell(env + " " + std::string(KPZ_FAILURES_DEMO) + " " + args);
  return {r.code, r.out + r.err};
}

Output run(const std::string& args) {
  return run_with("", args);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(FirstFailures, OnlyTheFirstFailedChecksOfEachTestArePrinted) {
  const Output all = run("--gtest_brief=1");
  EXPECT_EQ(all.code, 1);
  EXPECT_EQ(count(all.text, ": Failure\n"), 40) << all.text;
  const Output first = run("--gtest_brief=1 --kpz_first_failures=2");
  EXPECT_EQ(first.code, 1) << "still a failure";
  EXPECT_EQ(count(first.text, ": Failure\n"), 2) << first.text;
  EXPECT_NE(first.text.find("check 1\n"), std::string::npos) << first.text;
  EXPECT_EQ(first.text.find("check 2\n"), std::string::npos) << first.text;
  EXPECT_NE(first.text.find("... and 38 more failed checks in this test (all of them: "
                            "--gtest_filter='FirstFailuresDemo.FortyFailedChecks'"),
            std::string::npos)
      << first.text;
  EXPECT_NE(first.text.find("[  FAILED  ] FirstFailuresDemo.FortyFailedChecks"), std::string::npos) << first.text;
  EXPECT_LT(count(first.text, "\n"), 20) << first.text;
  EXPECT_EQ(run("--kpz_first_failures=0").code, 2);
}

// A crash names the test that was running, even in brief mode, which prints nothing for a test
// that has not failed yet (a skeleton's illegal memory access on a GPU left a bare backtrace).
TEST(FirstFailures, ACrashNamesItsTest) {
  const Output crash = run_with("KPZ_DEMO_CRASH=1", "--gtest_brief=1 --kpz_first_failures=1");
  EXPECT_EQ(crash.code, 3) << crash.text;
  EXPECT_NE(crash.text.find("kpuzzles: CRASHED: test FirstFailuresDemo.CrashesWhenAsked ended with signal 11"),
            std::string::npos)
      << crash.text;
  EXPECT_NE(crash.text.find("likely causes: an index past the end of a View"), std::string::npos) << crash.text;
  EXPECT_NE(crash.text.find("--gtest_filter='FirstFailuresDemo.CrashesWhenAsked'"), std::string::npos) << crash.text;
}

// Every learner suite is registered with the flag (CTest's own file of this build tree).
TEST(FirstFailures, TheLearnerSuitesUseIt) {
  std::ifstream in(std::string(KPZ_BUILD_DIR) + "/tests/CTestTestfile.cmake");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  // CMake 3.25 writes the test's name as [=[name]=], CMake 4 as "name".
  const std::regex learner(R"re(add_test\((?:\[=\[|")?([a-z0-9-]+/learner)(?:\]=\]|")? ([^\n]*))re");
  int seen = 0;
  for (std::sregex_iterator it(s.begin(), s.end(), learner), end; it != end; ++it, ++seen)
    EXPECT_NE((*it)[2].str().find("--kpz_first_failures=1"), std::string::npos) << (*it)[1];
  EXPECT_GE(seen, 5) << s.substr(0, 2000);
}

}  // namespace

// GoogleTest main with Kokkos initialised once for the whole run.
//
// --kpz_first_failures=N (the learner's tests): print only the first N failed
// assertions of each test, then one line saying how many more there were and how to see them.
// A skeleton fails every case of every test; all of them made ~19,000 lines of output.
//
// A crash names the test that was running (with --gtest_brief=1 nothing else would: a GPU's
// "illegal memory access" abort or a segfault in a skeleton left only a backtrace), the signal,
// its likely causes and the command that runs that test alone: kpuzzles' crash report.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "crash_report.hpp"

namespace {

// Forwards every event to GoogleTest's own printer, less the failures past the first N of a test.
class FirstFailures : public testing::TestEventListener {
 public:
  FirstFailures(testing::TestEventListener* printer, int shown) : printer_(printer), shown_(shown) {}

  void OnTestProgramStart(const testing::UnitTest& u) override { printer_->OnTestProgramStart(u); }
  void OnTestIterationStart(const testing::UnitTest& u, int i) override { printer_->OnTestIterationStart(u, i); }
  void OnEnvironmentsSetUpStart(const testing::UnitTest& u) override { printer_->OnEnvironmentsSetUpStart(u); }
  void OnEnvironmentsSetUpEnd(const testing::UnitTest& u) override { printer_->OnEnvironmentsSetUpEnd(u); }
  void OnTestSuiteStart(const testing::TestSuite& s) override { printer_->OnTestSuiteStart(s); }
#ifndef GTEST_REMOVE_LEGACY_TEST_CASEAPI_
  void OnTestCaseStart(const testing::TestCase& c) override {
    printer_->OnTestCaseStart(c);
  }
  void OnTestCaseEnd(const testing::TestCase& c) override {
    printer_->OnTestCaseEnd(c);
  }
#endif
  void OnTestStart(const testing::TestInfo& t) override {
    failures_ = 0;
    printer_->OnTestStart(t);
  }
  void OnTestDisabled(const testing::TestInfo& t) override {
    printer_->OnTestDisabled(t);
  }
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.skipped()) return;  // "framework primitive, not an exercise": noise among the failures
    if (r.failed() && ++failures_ > shown_) return;
    printer_->OnTestPartResult(r);
  }
  void OnTestEnd(const testing::TestInfo& t) override {
    if (failures_ > shown_) {
      std::printf(
          "... and %d more failed checks in this test (all of them: --gtest_filter='%s.%s' without "
          "--kpz_first_failures)\n",
          failures_ - shown_, t.test_suite_name(), t.name());
      std::fflush(stdout);
    }
    printer_->OnTestEnd(t);
  }
  void OnTestSuiteEnd(const testing::TestSuite& s) override {
    printer_->OnTestSuiteEnd(s);
  }
  void OnEnvironmentsTearDownStart(const testing::UnitTest& u) override {
    printer_->OnEnvironmentsTearDownStart(u);
  }
  void OnEnvironmentsTearDownEnd(const testing::UnitTest& u) override {
    printer_->OnEnvironmentsTearDownEnd(u);
  }
  void OnTestIterationEnd(const testing::UnitTest& u, int i) override {
    printer_->OnTestIterationEnd(u, i);
  }
  void OnTestProgramEnd(const testing::UnitTest& u) override {
    printer_->OnTestProgramEnd(u);
  }

 private:
  std::unique_ptr<testing::TestEventListener> printer_;
  int shown_;
  int failures_ = 0;
};

// Keeps a crash report's context naming the test that runs.
class CrashNamesTest : public testing::EmptyTestEventListener {
 public:
  explicit CrashNamesTest(std::string program) : program_(std::move(program)) {}
  void OnTestStart(const testing::TestInfo& t) override {
    const std::string name = std::string(t.test_suite_name()) + "." + t.name();
    context_.reset();
    context_ = std::make_unique<kpz::cli::CrashContext>("test " + name,
                                                        "run it alone: " + program_ + " --gtest_filter='" + name + "'");
  }
  void OnTestEnd(const testing::TestInfo&) override { context_.reset(); }

 private:
  std::string program_;
  std::unique_ptr<kpz::cli::CrashContext> context_;
};

// Removes --kpz_first_failures=N from the arguments; -1 when absent.
int take_first_failures(int& argc, char** argv) {
  const std::string flag = "--kpz_first_failures=";
  int shown = -1;
  int kept = 0;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i > 0 && a.rfind(flag, 0) == 0) {
      char* end = nullptr;
      const long n = std::strtol(a.c_str() + flag.size(), &end, 10);
      if (end == a.c_str() + flag.size() || *end || n < 1) {
        std::fprintf(stderr, "%s expects a whole number of at least 1, got '%s'\n", flag.c_str(), a.c_str());
        std::exit(2);
      }
      shown = static_cast<int>(n);
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  return shown;
}

}  // namespace

int main(int argc, char** argv) {
  const int shown = take_first_failures(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (shown > 0) {
    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    if (testing::TestEventListener* printer = listeners.Release(listeners.default_result_printer()))
      listeners.Append(new FirstFailures(printer, shown));
  }
  testing::UnitTest::GetInstance()->listeners().Append(new CrashNamesTest(argv[0]));
  kpz::cli::install_crash_report();
  Kokkos::ScopeGuard kokkos(Kokkos::InitializationSettings().set_disable_warnings(true));
  return RUN_ALL_TESTS();
}

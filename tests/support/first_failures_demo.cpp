// A test that fails 40 checks on purpose, for tests/framework/first_failures_test.cpp (the
// --kpz_first_failures=N flag of support/test_main.cpp), and one that crashes when asked to (the
// test main's crash report). Not registered with CTest.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

TEST(FirstFailuresDemo, FortyFailedChecks) {
  for (int i = 0; i < 40; ++i) EXPECT_EQ(i, -1) << "check " << i;
}

TEST(FirstFailuresDemo, Passes) {
  EXPECT_EQ(1, 1);
}

TEST(FirstFailuresDemo, CrashesWhenAsked) {
  if (std::getenv("KPZ_DEMO_CRASH")) std::raise(SIGSEGV);
}

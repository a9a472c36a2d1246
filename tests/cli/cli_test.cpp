// kpuzzles end to end: exit codes (0 pass, 1 wrong, 2 bad usage), one-line errors, JSON.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct Result {
  int code;
  std::string out;  // stdout
  std::string err;  // stderr
};

Result kpuzzles(const std::string& args) {
  const std::string err_file = testing::TempDir() + "kpz_cli_stderr.txt";
  const std::string cmd = std::string(KPZ_KPUZZLES) + " " + args + " 2>" + err_file;
  Result r{-1, "", ""};
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (FILE* e = std::fopen(err_file.c_str(), "r")) {
    while (std::fgets(buf.data(), buf.size(), e)) r.err += buf.data();
    std::fclose(e);
  }
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

void expect_usage_error(const std::string& args, const std::string& mentions) {
  const Result r = kpuzzles(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << ": expected one line, got:\n" << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << args << ": " << r.err;
}

TEST(Cli, ReferenceWorkedExamplesPass) {
  const Result s = kpuzzles("run conv1d --simple --reference");
  EXPECT_EQ(s.code, 0) << s.out << s.err;
  EXPECT_NE(s.out.find("out: [5,8,11,14,5,0]"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("expected: [5,8,11,14,5,0]"), std::string::npos) << s.out;
  const Result b = kpuzzles("run conv1d --block-boundary --reference");
  EXPECT_EQ(b.code, 0) << b.out << b.err;
  EXPECT_NE(b.out.find("[14,20,26,32,38,44,50,56,62,68,74,80,41,14,0]"), std::string::npos);
}

TEST(Cli, SkeletonFailsWithOwners) {
  const Result r = kpuzzles("run conv1d --block-boundary");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos);
  EXPECT_NE(r.out.find("never written"), std::string::npos);
  EXPECT_NE(r.out.find("team 0, member"), std::string::npos) << r.out;
}

TEST(Cli, JsonHasTheContractFields) {
  const Result r = kpuzzles("run conv1d --simple --reference --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1);
  for (const char* key : {"\"puzzle\":\"conv1d\"", "\"variant\":\"simple\"", "\"impl\":\"reference\"",
                          "\"pass\":true", "\"config\":", "\"inputs\":{\"a\":[0,1,2,3,4,5]",
                          "\"output\":[5,8,11,14,5,0]", "\"expected\":[5,8,11,14,5,0]"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
}

TEST(Cli, DefaultVariantIsGeneralAndSpacesWork) {
  const Result r = kpuzzles("run conv1d --reference --size 5000 --kernel-size 9 --seed 3 --space serial");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("conv1d --general"), std::string::npos);
}

TEST(Cli, BadUsageExitsTwoWithOneLine) {
  expect_usage_error("run nosuch", "unknown puzzle 'nosuch'");
  expect_usage_error("run conv1d --bogus", "unknown flag '--bogus'");
  expect_usage_error("run conv1d --size 0", "--size must be in [1,");
  expect_usage_error("run conv1d --size -4", "--size must be in [1,");
  expect_usage_error("run conv1d --size 99999999999", "--size must be in [1,");
  expect_usage_error("run conv1d --size ten", "--size expects an integer");
  expect_usage_error("run conv1d --simple --size 20000", "team scratch");
  expect_usage_error("run conv1d --kernel-size 1048576 --size 1048576", "team scratch");
  expect_usage_error("run conv1d --simple --block-boundary", "choose one variant");
  expect_usage_error("run conv1d --simple --tile 4", "--tile does not apply");
  expect_usage_error("run conv1d --team-size 2000", "--team-size");
  expect_usage_error("run conv1d --space opencl", "--space 'opencl'");
  expect_usage_error("frobnicate", "unknown command 'frobnicate'");
  expect_usage_error("run", "needs a puzzle name");
  expect_usage_error("bench conv1d --runs 0", "--runs must be in");
  expect_usage_error("run butterfly --group-size 3", "--group-size 3 is not allowed");
  expect_usage_error("run butterfly --size 33", "must be a multiple of --group-size 32");
  expect_usage_error("run butterfly --group-size 64", "--group-size must be in [2, 32]");
  expect_usage_error("run butterfly --tile 12 --group-size 8 --size 64", "--tile 12 must be a multiple");
}

TEST(Cli, TeamSizeOverBackendLimitIsRejected) {
  // Serial teams have exactly one member.
  expect_usage_error("run conv1d --space serial --team-size 2", "use 1..1");
}

TEST(Cli, ButterflyTraceAndJson) {
  const Result t = kpuzzles("run butterfly --parallel-max --reference --group-size 8 --trace");
  EXPECT_EQ(t.code, 0) << t.out << t.err;
  EXPECT_NE(t.out.find("after mask 4:"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("after mask 1:  1000 1000 1000 1000 1000 1000 1000 1000"), std::string::npos) << t.out;
  const Result j = kpuzzles("run butterfly --pair-swap --reference --json");
  EXPECT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"group_size\":32"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"inputs\":{\"in\":[0,1,2,3"), std::string::npos) << j.out;
}

TEST(Cli, ListAndDoctor) {
  const Result l = kpuzzles("list --json");
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"puzzle\":\"conv1d\""), std::string::npos);
  EXPECT_NE(l.out.find("\"status\":\"pending\""), std::string::npos);
  const Result d = kpuzzles("doctor");
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("Kokkos 5."), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("team_size_max"), std::string::npos);
}

TEST(Cli, TraceNeedsTheTraceBuild) {
  expect_usage_error("trace conv1d --simple", "cmake --preset trace");
  expect_usage_error("trace", "cmake --preset trace");
}

TEST(Cli, BugHuntsAreListedAsBugHunts) {
  const Result l = kpuzzles("list --json");
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"variant\":\"bug-missing-barrier\""), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("\"status\":\"bug-hunt\",\"bug_hunt\":true"), std::string::npos) << l.out;
}

TEST(Cli, BenchRunsAndReportsCopyRatio) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "timed on the GPU machine, not in unit tests";
  const Result r = kpuzzles("bench conv1d --size 4096 --kernel-size 3 --runs 3 --warmup 1 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"fraction_of_copy\""), std::string::npos) << r.out;
}

}  // namespace

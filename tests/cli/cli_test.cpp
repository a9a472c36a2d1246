// kpuzzles end to end: exit codes (0 pass, 1 wrong, 2 bad usage), one-line errors, JSON.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "shell.hpp"

namespace {

using kpz::test::expect_output;
using Result = kpz::test::ShellResult;

Result kpuzzles(const std::string& args) {
  return kpz::test::shell(std::string(KPZ_KPUZZLES) + " " + args);
}

// The same with environment variables ("A=1 B=2") set for kpuzzles.
Result kpuzzles_env(const std::string& env, const std::string& args) {
  return kpz::test::shell("env " + env + " " + std::string(KPZ_KPUZZLES) + " " + args);
}

int lines(const std::string& s) {
  return kpz::test::count_lines(s);
}

void expect_usage_error(const std::string& args, const std::string& mentions) {
  const Result r = kpuzzles(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << ": expected one line, got:\n" << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << args << ": " << r.err;
}

TEST(Cli, ReferenceWorkedExamplesPass) {
  expect_output(kpuzzles("run conv1d --simple --reference"), 0, {"out: [5,8,11,14,5,0]", "expected: [5,8,11,14,5,0]"});
  expect_output(kpuzzles("run conv1d --block-boundary --reference"), 0,
                {"[14,20,26,32,38,44,50,56,62,68,74,80,41,14,0]"});
}

TEST(Cli, SkeletonFailsWithOwners) {
  expect_output(kpuzzles("run conv1d --block-boundary"), 1, {"FAIL", "never written", "team 0, member"});
}

TEST(Cli, JsonHasTheContractFields) {
  const Result r = kpuzzles("run conv1d --simple --reference --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1);
  for (const char* key :
       {"\"puzzle\":\"conv1d\"", "\"variant\":\"simple\"", "\"impl\":\"reference\"", "\"pass\":true",
        "\"config\":", "\"inputs\":{\"a\":[0,1,2,3,4,5]", "\"output\":[5,8,11,14,5,0]", "\"expected\":[5,8,11,14,5,0]"})
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
  expect_usage_error("bench bin-extract --framework-only 2", "--framework-only must be in [0, 1]");
  expect_usage_error("bench segscan --framework-only -1", "--framework-only must be in [0, 1]");
  expect_usage_error("run butterfly --group-size 3", "--group-size 3 is not allowed");
  expect_usage_error("run butterfly --size 33", "must be a multiple of --group-size 32");
  expect_usage_error("run butterfly --group-size 64", "--group-size must be in [2, 32]");
  expect_usage_error("run butterfly --tile 12 --group-size 8 --size 64", "--tile 12 must be a multiple");
}

// A size over the scratch limit is refused with the largest size that fits, computed for this
// backend: that size runs, one more is refused.
TEST(Cli, ScratchRefusalOffersTheLargestSizeThatFits) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run segscan --simple --reference --size", "65536"},
      {"run bin-extract --histogram --reference --size", "16384"},
      {"run basics --scratch --reference --tile", "60000"},
      {"run transpose --tiled --reference --tile", "200"}};
  for (const auto& [base, too_big] : cases) {
    const std::string flag = base.substr(base.rfind(' ') + 1);
    const Result refused = kpuzzles(base + " " + too_big);
    ASSERT_EQ(refused.code, 2) << base << refused.err;
    const auto at = refused.err.find(flag + " up to ");
    ASSERT_NE(at, std::string::npos) << refused.err;
    const int fits = std::stoi(refused.err.substr(at + flag.size() + 7));
    ASSERT_GT(fits, 0) << refused.err;
    const Result ok = kpuzzles(base + " " + std::to_string(fits));
    EXPECT_EQ(ok.code, 0) << base << " " << fits << ": " << ok.out << ok.err;
    const Result over = kpuzzles(base + " " + std::to_string(fits + 1));
    EXPECT_EQ(over.code, 2) << base << " " << fits + 1 << ": " << over.err;
  }
}

TEST(Cli, TeamSizeOverBackendLimitIsRejected) {
  // Serial teams have exactly one member.
  expect_usage_error("run conv1d --space serial --team-size 2", "use 1..1");
}

TEST(Cli, ButterflyTraceAndJson) {
  expect_output(kpuzzles("run butterfly --parallel-max --reference --group-size 8 --steps"), 0,
                {"after mask 4:", "after mask 1:  1000 1000 1000 1000 1000 1000 1000 1000"});
  expect_output(kpuzzles("run butterfly --pair-swap --reference --json"), 0,
                {"\"group_size\":32", "\"inputs\":{\"in\":[0,1,2,3"});
}

TEST(Cli, ReduceWorkedExampleJsonAndUsageErrors) {
  const Result r = kpuzzles("run reduce --interleaved --reference");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("out: [131328,369172,500500]"), std::string::npos) << r.out;
  const Result j = kpuzzles("run reduce --builtin --reference --size 8 --json");
  EXPECT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"inputs\":{\"in\":["), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"results\":{\"sum\":"), std::string::npos) << j.out;
  const Result skeleton = kpuzzles("run reduce --interleaved");
  EXPECT_EQ(skeleton.code, 1) << skeleton.out << skeleton.err;
  expect_usage_error("run reduce --interleaved --lanes 100", "needs a power of two");
  expect_usage_error("run reduce --template --lanes 2048", "64, 128, 256, 512 and 1024 only");
  expect_usage_error("run reduce --unroll-warps8 --lanes 32", "the warp finish takes the last 64 values");
  expect_usage_error("run reduce --lanes 8", "--lanes does not apply to reduce --persistent");
}

TEST(Cli, ReduceBenchHasTheLadderColumns) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "timed on the GPU machine, not in unit tests";
  const Result r = kpuzzles("bench reduce --size 40000 --runs 2 --warmup 1 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* key : {"\"step\":", "\"cumulative\":", "\"--template, 40000 ints\"", "\"kind\":\"builtin\""})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
  const Result t = kpuzzles("bench reduce --size 40000 --runs 2 --warmup 1");
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("step x"), std::string::npos) << t.out;
}

TEST(Cli, BinExtractBenchFrameworkOnlySkipsTheOtherRows) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "timed on the GPU machine, not in unit tests";
  const Result all = kpuzzles("bench bin-extract --size 5000 --runs 2 --warmup 1");
  const Result fw = kpuzzles("bench bin-extract --size 5000 --runs 2 --warmup 1 --framework-only 1");
  ASSERT_EQ(all.code, 0) << all.err;
  ASSERT_EQ(fw.code, 0) << fw.err;
  for (const char* row : {"partition pass 2 (ballot rank)", "extract: compact per chunk"}) {
    EXPECT_NE(all.out.find(row), std::string::npos) << row << " in " << all.out;
    EXPECT_NE(fw.out.find(row), std::string::npos) << row << " in " << fw.out;
  }
  for (const char* row : {"Kokkos::BinSort", "Kokkos::Experimental::copy_if", "(reference)"}) {
    EXPECT_NE(all.out.find(row), std::string::npos) << row << " in " << all.out;
    EXPECT_EQ(fw.out.find(row), std::string::npos) << row << " in " << fw.out;
  }
}

TEST(Cli, ListAndDoctor) {
  const Result l = kpuzzles("list --json");
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"puzzle\":\"conv1d\""), std::string::npos);
  EXPECT_NE(l.out.find("\"status\":\""), std::string::npos);
  const Result d = kpuzzles("doctor");
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("Kokkos 5."), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("team_size_max"), std::string::npos);
}

// doctor names the Kokkos Kernels of the build: its version and where it came from, or that the
// build has none (-DKPZ_KOKKOSKERNELS=OFF).
TEST(Cli, DoctorNamesKokkosKernels) {
  const Result d = kpuzzles("doctor");
  EXPECT_EQ(d.code, 0) << d.err;
  const Result j = kpuzzles("doctor --json");
  EXPECT_EQ(j.code, 0) << j.err;
  std::smatch m;
  if (KPZ_HAS_KOKKOSKERNELS) {
    EXPECT_TRUE(std::regex_search(
        d.out, std::regex(R"(\nKokkos Kernels [0-9]+\.[0-9]+\.[0-9]+, (installed \(|built in-tree from ))")))
        << d.out;
    ASSERT_TRUE(std::regex_search(
        j.out, m, std::regex(R"re("kokkos_kernels":\{"in_build":true,"source":"([^"]+)","version":"([0-9.]+)"\})re")))
        << j.out;
    EXPECT_NE(d.out.find("Kokkos Kernels " + m[2].str() + ", " + m[1].str() + "\n"), std::string::npos) << d.out;
  } else {
    EXPECT_NE(d.out.find("\nKokkos Kernels not in this build"), std::string::npos) << d.out;
    EXPECT_NE(j.out.find(R"("kokkos_kernels":{"in_build":false,"source":"not in this build)"), std::string::npos)
        << j.out;
  }
}

// A host build traces with the puzzle's race check: the variant's own configuration and its whole
// report (exit 0 clean, 1 a bug); what needs other configurations or files needs the trace build.
TEST(Cli, TraceRunsTheRaceCheckOrNeedsTheTraceBuild) {
  if (!KPZ_HAS_VERIFY) {
    expect_usage_error("trace conv1d --simple", "cmake --preset trace");
    expect_usage_error("trace", "cmake --preset trace");
    return;
  }
  const Result ref = kpuzzles("trace conv1d --simple --reference");
  EXPECT_EQ(ref.code, 0) << ref.out << ref.err;
  EXPECT_NE(ref.out.find("conv1d --simple (reference): race-free"), std::string::npos) << ref.out;
  const Result hunt = kpuzzles("trace conv1d --bug-missing-barrier");
  EXPECT_EQ(hunt.code, 1) << hunt.out << hunt.err;
  EXPECT_NE(hunt.out.find("RACE on scratch s_b"), std::string::npos) << hunt.out;
  expect_usage_error("trace conv1d --simple --size 9", "needs the trace build");
  expect_usage_error("trace conv1d --simple --team-size 3", "needs the trace build");
  expect_usage_error("trace conv1d --simple --no-svg", "needs the trace build");
  expect_usage_error("trace --all", "needs the trace build");
  expect_usage_error("trace", "puzzle");
}

TEST(Cli, BugHuntsAreListedAsBugHunts) {
  const Result l = kpuzzles("list --json");
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"variant\":\"bug-missing-barrier\""), std::string::npos) << l.out;
  // Outside the trace build a bug hunt's pass proves nothing: "bug hunt" when its checks pass by
  // luck, "not attempted" when the race shows (OpenMP, from run to run); never "solved".
  EXPECT_NE(l.out.find("\"bug_hunt\":true"), std::string::npos) << l.out;
  EXPECT_EQ(l.out.find("\"status\":\"solved\",\"bug_hunt\":true"), std::string::npos) << l.out;
}

TEST(Cli, BenchRunsAndReportsCopyRatio) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "timed on the GPU machine, not in unit tests";
  const Result r = kpuzzles("bench conv1d --size 4096 --kernel-size 3 --runs 3 --warmup 1 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"fraction_of_copy\""), std::string::npos) << r.out;
}

TEST(Cli, BenchJsonFileKeepsTheTableAndRejectsAnUnwritablePath) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "timed on the GPU machine, not in unit tests";
  const std::string path = testing::TempDir() + "kpz_bench_reduce.json";
  std::filesystem::remove(path);
  const Result r = kpuzzles("bench reduce --size 5000 --runs 2 --warmup 1 --sweep 1 --json-file " + path);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("--persistent --team-size 1 --teams"), std::string::npos) << r.out;  // the table
  std::ifstream in(path);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"persistent sweep, 5000 ints\""), std::string::npos) << json;
  const Result bad = kpuzzles("bench reduce --size 5000 --json-file /nonexistent-dir/x.json");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--json-file: cannot write"), std::string::npos) << bad.err;
}

// ---- the learner loop's commands (each test has its own progress file) ----

std::string fresh_state(const std::string& name) {
  const std::string path = testing::TempDir() + "kpz_cli_state_" + name + ".json";
  std::filesystem::remove(path);
  return path;
}

Result with_state(const std::string& state, const std::string& args) {
  return kpuzzles_env("KPZ_STATE_FILE=" + state, args);
}

TEST(CliLearner, HintsComeOneTierPerCallAndAreRemembered) {
  const std::string state = fresh_state("hints");
  const Result h1 = with_state(state, "hint conv1d --variant simple");
  EXPECT_EQ(h1.code, 0) << h1.err;
  EXPECT_NE(h1.out.find("hint 1 of 3: a nudge"), std::string::npos) << h1.out;
  EXPECT_NE(h1.out.find("TODO 1: the launch and its scratch request"), std::string::npos) << h1.out;
  EXPECT_NE(h1.out.find("TODO 2: stage `a` and `b`"), std::string::npos) << h1.out;
  EXPECT_EQ(h1.out.find("TODO 4"), std::string::npos) << "only the TODOs of simple";
  EXPECT_NE(with_state(state, "hint conv1d --variant simple").out.find("hint 2 of 3: the concept"), std::string::npos);
  const Result h3 = with_state(state, "hint conv1d --variant simple --json");
  EXPECT_NE(h3.out.find("\"tier\":3"), std::string::npos) << h3.out;
  EXPECT_NE(h3.out.find("\"new\":true"), std::string::npos) << h3.out;
  const Result again = with_state(state, "hint conv1d --variant simple");
  EXPECT_NE(again.out.find("That was the last hint"), std::string::npos) << again.out;
  const Result seen = with_state(state, "hint conv1d --variant simple --seen");
  EXPECT_NE(seen.out.find("hint 1 of 3"), std::string::npos);
  EXPECT_NE(seen.out.find("hint 3 of 3"), std::string::npos);
  // Variants that run the same function share their hints.
  const Result sum = with_state(state, "hint butterfly --variant parallel-sum");
  EXPECT_NE(sum.out.find("hint 1 of 3"), std::string::npos);
  EXPECT_NE(with_state(state, "hint butterfly --variant parallel-min").out.find("hint 2 of 3"), std::string::npos);
  // The list counts a hint as an attempt.
  const Result l = with_state(state, "list --json");
  EXPECT_NE(l.out.find("\"variant\":\"simple\",\"summary\""), std::string::npos);
  EXPECT_NE(l.out.find("\"hints_shown\":3"), std::string::npos) << l.out;
  expect_usage_error("hint conv1d --variant nosuch", "unknown variant 'nosuch'");
  // `hint` without a puzzle is for the current exercise: cli_hardening_test.cpp.
}

TEST(CliLearner, SolutionOnlyAfterPassingOrWithARecordedForce) {
  const std::string state = fresh_state("solution");
  // These tests run against exercises/, which a learner may have solved by now.
  if (with_state(fresh_state("solution-probe"), "check conv1d").code == 0)
    GTEST_SKIP() << "conv1d is solved in exercises/";
  const Result shut = with_state(state, "solution conv1d");
  EXPECT_EQ(shut.code, 1) << shut.out << shut.err;
  EXPECT_NE(shut.out.find("opens once every variant passes"), std::string::npos) << shut.out;
  EXPECT_EQ(shut.out.find("KPZ-TODO"), std::string::npos) << "no reference before passing";
  const Result json = with_state(state, "solution conv1d --json");
  EXPECT_NE(json.out.find("\"allowed\":false"), std::string::npos) << json.out;
  const Result forced = with_state(state, "solution conv1d --force");
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_NE(forced.out.find("--force"), std::string::npos);
  EXPECT_NE(forced.out.find("== reference/conv1d/conv1d.cpp =="), std::string::npos);
  EXPECT_NE(forced.out.find("The solution explained"), std::string::npos);
  std::ifstream in(state);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"forced\":true"), std::string::npos) << text.str();
}

TEST(CliLearner, CheckRunsEveryCaseAndSpeaksJson) {
  const Result r = with_state(fresh_state("check"), "check conv1d --variant simple --reference --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1);
  EXPECT_NE(r.out.find("\"args\":\"--simple --size 1 --kernel-size 1\""), std::string::npos) << r.out;
  const Result ex = with_state(fresh_state("check2"), "check conv1d --variant simple");
  EXPECT_TRUE(ex.code == 0 || ex.code == 1) << ex.out;  // exercises/ may be solved by now
  EXPECT_NE(ex.out.find("passed,"), std::string::npos) << ex.out;
  expect_usage_error("check --variant simple", "needs a puzzle");
}

TEST(CliLearner, ResetAsksKeepsABackupAndRestoresTheSkeleton) {
  // A scratch source tree: exercises/ copied, reference/ linked. Never the real exercises/.
  namespace fs = std::filesystem;
  const std::string src = testing::TempDir() + "kpz_cli_reset_src";
  fs::remove_all(src);
  fs::create_directories(src + "/exercises/conv1d");
  fs::create_directory_symlink(std::string(KPZ_SOURCE_DIR) + "/reference", src + "/reference");
  const std::string skeleton_path = std::string(KPZ_SOURCE_DIR) + "/exercises/conv1d/conv1d.cpp";
  const std::string mine = src + "/exercises/conv1d/conv1d.cpp";
  std::ofstream(mine) << "// my own work\n";
  const std::string env = "KPZ_SOURCE_DIR=" + src + " KPZ_STATE_FILE=" + fresh_state("reset");
  const Result ask = kpuzzles_env(env, "reset conv1d </dev/null");
  EXPECT_EQ(ask.code, 2) << ask.out << ask.err;
  EXPECT_NE(ask.err.find("--yes"), std::string::npos) << ask.err;
  const Result done = kpuzzles_env(env, "reset conv1d --yes --json");
  EXPECT_EQ(done.code, 0) << done.err;
  EXPECT_NE(done.out.find("\"backup\":\"exercises/conv1d/conv1d.cpp.bak-"), std::string::npos) << done.out;
  std::ifstream restored(mine);
  std::stringstream text;
  text << restored.rdbuf();
  EXPECT_NE(text.str().find("// TODO(roughly"), std::string::npos);
  EXPECT_EQ(text.str().find("my own work"), std::string::npos);
  int backups = 0;
  for (const auto& e : fs::directory_iterator(src + "/exercises/conv1d"))
    if (e.path().filename().string().rfind("conv1d.cpp.bak-", 0) == 0) {
      ++backups;
      std::ifstream b(e.path());
      std::string first;
      std::getline(b, first);
      EXPECT_EQ(first, "// my own work");
    }
  EXPECT_EQ(backups, 1);
  const Result again = kpuzzles_env(env, "reset conv1d --yes");
  EXPECT_NE(again.out.find("nothing to reset"), std::string::npos) << again.out;
  (void)skeleton_path;
}

TEST(CliLearner, DoctorSaysWhatRunsAndHowToFixTheSetup) {
  const Result d = kpuzzles("doctor --json");
  EXPECT_EQ(d.code, 0) << d.err;
  for (const char* key : {"\"setup\":[", "\"check\":\"cmake\"", "\"check\":\"source tree\"", "\"puzzles\":[",
                          "\"puzzle\":\"conv1d\"", "\"variants_run\":", "\"advice\":["})
    EXPECT_NE(d.out.find(key), std::string::npos) << key << " missing in " << d.out;
  // One thread of the host-parallel backend: the advice names that backend's variable. A
  // Serial-only build advises a parallel preset instead.
  const std::string spaces = kpuzzles("doctor --json").out;
  const bool omp = spaces.find(R"("name":"openmp")") != std::string::npos;
  const bool threads = spaces.find(R"("name":"threads")") != std::string::npos;
  const Result one = kpuzzles_env(omp ? "OMP_NUM_THREADS=1" : "KOKKOS_NUM_THREADS=1", "doctor");
  if (!KPZ_HAS_CUDA) {
    // Threads on one core has nothing better to advise (its barriers spin: no more threads than cores).
    const bool one_core = std::thread::hardware_concurrency() <= 1;
    // With the race check (teams of four, traced) few threads hide nothing: doctor says why.
    const char* advice = (omp || threads) && KPZ_HAS_VERIFY ? "the race check traces teams of 4"
                         : omp                              ? "export OMP_NUM_THREADS=8"
                         : threads                          ? "export KOKKOS_NUM_THREADS="
                                                            : "cmake --preset threads";
    if (!(threads && one_core)) EXPECT_NE(one.out.find(advice), std::string::npos) << one.out;
    if (threads) EXPECT_EQ(one.out.find("OMP_NUM_THREADS"), std::string::npos) << one.out;
  }
  EXPECT_NE(one.out.find("puzzles on this build"), std::string::npos);
}

TEST(CliLearner, WatchNeedsABuildTree) {
  const Result r = kpuzzles_env("KPZ_BUILD_DIR=/nonexistent-kpz-build", "watch conv1d --no-tty </dev/null");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("cmake --preset openmp"), std::string::npos) << r.err;
  expect_usage_error("watch conv1d --variant nosuch --no-tty", "unknown variant");
}

}  // namespace

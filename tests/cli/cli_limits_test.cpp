// kpuzzles end to end: a run that cannot fit in memory is refused
// before anything is allocated (exit 2, one line with the estimate and the machine's memory),
// the estimates are close to what runs really take, and `bench` takes the sizes `run` takes.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "shell.hpp"

namespace {

using Result = kpz::test::ShellResult;

std::string exe() {
  const char* other = std::getenv("KPZ_TEST_KPUZZLES");
  return other && *other ? other : KPZ_KPUZZLES;
}

// `env` (VAR=value ...) + kpuzzles + `args` through /bin/sh; at most 120 s.
Result kpuzzles(const std::string& env, const std::string& args) {
  return kpz::test::shell("timeout 120 env " + env + " " + exe() + " " + args);
}

int lines(const std::string& s) {
  return kpz::test::count_lines(s);
}

// The estimate of `run args` in bytes, read off the refusal under a 1-byte machine.
double estimate(const std::string& args) {
  const Result r = kpuzzles("KPZ_MEMORY_BYTES=1", "run " + args);
  std::smatch m;
  if (r.code != 2 || !std::regex_search(r.err, m, std::regex(R"(needs about ([0-9.]+) (bytes|kB|MB|GB|TB))"))) {
    ADD_FAILURE() << args << " was not refused with an estimate: " << r.code << " " << r.err;
    return 0;
  }
  const std::string unit = m[2];
  const double scale = unit == "kB" ? 1e3 : unit == "MB" ? 1e6 : unit == "GB" ? 1e9 : unit == "TB" ? 1e12 : 1;
  return std::stod(m[1]) * scale;
}

// Peak resident bytes of one `kpuzzles run args` (its own rusage, through wait4).
double peak_bytes(const std::string& args) {
  std::vector<std::string> words{exe(), "run"};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (!std::freopen("/dev/null", "w", stdout)) _exit(127);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << args;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

// Item 7: the issue's case, on a machine of 8 GB: refused at once, before any allocation.
TEST(CliMemory, ARunThatCannotFitIsRefusedBeforeAllocating) {
  const Result r = kpuzzles("KPZ_MEMORY_BYTES=8000000000", "run segscan --spmv --size 268435456 --mean-length 1");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("segscan --spmv --mean-length 1 --size 268435456 needs about 19."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("this machine has 8.0 GB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("use --size 1"), std::string::npos) << r.err;  // 111 million rows fit
  EXPECT_LT(r.seconds, 10.0) << "refused before the matrix was generated";
}

TEST(CliMemory, EveryPuzzleEstimatesItsRuns) {
  for (const char* puzzle : {"conv1d", "butterfly", "reduce", "bin-extract", "segscan"}) {
    const Result r = kpuzzles("KPZ_MEMORY_BYTES=1000", std::string("run ") + puzzle + " --reference");
    EXPECT_EQ(r.code, 2) << puzzle << ": " << r.err;
    EXPECT_NE(r.err.find("needs about"), std::string::npos) << puzzle << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  }
  // What fits runs as before; KPZ_MEMORY_BYTES must be a number of bytes.
  EXPECT_EQ(kpuzzles("KPZ_MEMORY_BYTES=1000000000", "run conv1d --reference").code, 0);
  const Result bad = kpuzzles("KPZ_MEMORY_BYTES=lots", "run conv1d --reference");
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("KPZ_MEMORY_BYTES"), std::string::npos) << bad.err;
}

// The size the refusal suggests fits, and runs.
TEST(CliMemory, TheSuggestedSizeRuns) {
  const Result r = kpuzzles("KPZ_MEMORY_BYTES=100000000", "run conv1d --reference --size 4000000");
  ASSERT_EQ(r.code, 2) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(use --size ([0-9]+) or less)"))) << r.err;
  EXPECT_GT(std::stoll(m[1]), 2000000) << r.err;
  EXPECT_EQ(kpuzzles("KPZ_MEMORY_BYTES=100000000", "run conv1d --reference --size " + m[1].str()).code, 0);
}

// The estimates against the peak resident memory of real runs at 2^22 elements: within 0.6x to
// 1.6x (an estimate far off either way refuses runs that fit, or lets through runs that do not).
// On Serial, so that the arrays are host memory in every build, and less the peak of the same run
// at 1024 elements: a CUDA build's process holds about 100 MB of driver state before it
// allocates anything, which no estimate of the run's arrays includes.
TEST(CliMemory, EstimatesAreCloseToWhatRunsTake) {
  for (const std::string args : {"conv1d --reference --size 4194304", "butterfly --reference --size 4194304",
                                 "reduce --reference --size 4194304", "bin-extract --reference --size 4194304",
                                 "segscan --reference --size 4194304", "segscan --reduce --reference --size 4194304",
                                 "segscan --spmv --reference --size 2097152 --mean-length 1"}) {
    const std::string big = args + " --space serial";
    const std::string small = std::regex_replace(big, std::regex("--size [0-9]+"), "--size 1024");
    const double want = estimate(big), got = peak_bytes(big) - peak_bytes(small);
    EXPECT_GT(want, 0.6 * got) << args << ": estimate " << want << ", peak " << got;
    EXPECT_LT(want, 1.6 * got) << args << ": estimate " << want << ", peak " << got;
  }
}

// Item 13: `bench butterfly --size 33` was timed at 32 while `run` refused 33.
TEST(CliSizes, BenchTakesTheSizesRunTakes) {
  const Result run = kpuzzles("", "run butterfly --reference --size 33");
  const Result bench = kpuzzles("", "bench butterfly --size 33 --runs 1 --warmup 0");
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_EQ(bench.code, 2) << bench.out << bench.err;
  EXPECT_EQ(lines(bench.err), 1) << bench.err;
  EXPECT_NE(bench.err.find("--size 33 must be a multiple of --group-size 32"), std::string::npos) << bench.err;
  EXPECT_EQ(bench.err, run.err);
  const Result fine = kpuzzles("", "bench butterfly --size 64 --runs 1 --warmup 0 --json");
  EXPECT_EQ(fine.code, 0) << fine.err;
  EXPECT_NE(fine.out.find("\"size\":64"), std::string::npos) << fine.out.substr(0, 300);
}

// A variant without --size is told which of its options to shrink; a matrix past 16384 rows is
// refused by the option's range.
TEST(CliLimits, RefusalsNameTheOptionsOfAVariantWithoutSize) {
  const Result r = kpuzzles("KPZ_MEMORY_BYTES=1000000", "run transpose --rows 1000 --cols 1000");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("use a smaller --cols or --rows"), std::string::npos) << r.err;
  const Result rows = kpuzzles("", "run transpose --rows 20000");
  EXPECT_EQ(rows.code, 2) << rows.err;
  EXPECT_NE(rows.err.find("--rows must be in [1, 16384], got 20000"), std::string::npos) << rows.err;
}

}  // namespace

// One size flag sweeps every bench: each takes --size (transpose: a square matrix of about N
// elements; batched: the entries of all its matrices), and the table says whether a row's bytes
// fit in the machine's last-level cache (where the row may time the cache, not memory).
TEST(CliSizes, EveryBenchTakesSizeAndSaysWhatFitsInTheCache) {
  const Result t = kpuzzles("", "bench transpose --size 4096 --runs 1 --warmup 0 --json");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("\"rows\":64,\"cols\":64"), std::string::npos) << t.out.substr(0, 400);
  // A system that does not say its cache size (no Linux sysfs) gets no cache claims at all.
  const bool known = t.out.find("\"cache_bytes\":0") == std::string::npos;
  EXPECT_NE(t.out.find(known ? "\"fits_in_cache\":true" : "\"fits_in_cache\":false"), std::string::npos)
      << t.out.substr(0, 400);
  const Result table = kpuzzles("", "bench transpose --size 4096 --runs 1 --warmup 0");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_EQ(table.out.find("may time the cache") != std::string::npos, known) << table.out;
  if (KPZ_HAS_KOKKOSKERNELS) {  // batched is built with Kokkos Kernels only
    const Result b = kpuzzles("", "bench batched --size 4096 --rows 8 --cols 8 --runs 1 --warmup 0 --json");
    EXPECT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("\"entries\":4096"), std::string::npos) << b.out.substr(0, 400);
  }
}

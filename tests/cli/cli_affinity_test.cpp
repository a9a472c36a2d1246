// `kpuzzles bench` hands over to kpuzzles-bench. With OMP_PROC_BIND set, OpenMP binds the
// starting thread to one CPU, and a child inherited that one CPU: all its threads ran on it.
// The bench reports threads that outnumber their CPUs; a handed-over run must not.
#include <gtest/gtest.h>
#include <sched.h>

#include <string>

#include "shell.hpp"

namespace {

using Result = kpz::test::ShellResult;

int cpus_of_this_process() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

Result bench_with(const std::string& env) {
  return kpz::test::shell("timeout 120 env " + env + " " + std::string(KPZ_KPUZZLES) +
                          " bench basics --space openmp --size 4096 --runs 1 --warmup 0 --json");
}

bool crowded(const Result& r) {
  return r.out.find("host threads share") != std::string::npos;
}

TEST(CliAffinity, BoundThreadsKeepEveryCpuAcrossTheHandOver) {
  const int cpus = cpus_of_this_process();
  if (cpus < 2) GTEST_SKIP() << "needs two CPUs to tell one CPU from all";
  const std::string threads = "OMP_NUM_THREADS=" + std::to_string(cpus);
  const Result bound = bench_with(threads + " OMP_PROC_BIND=spread OMP_PLACES=cores");
  if (bound.code == 2 && bound.err.find("space") != std::string::npos) GTEST_SKIP() << "no OpenMP here";
  ASSERT_EQ(bound.code, 0) << bound.err;
  EXPECT_FALSE(crowded(bound)) << bound.out;
  // The same check reports crowding where there is some: twice the threads, unbound.
  const Result crowd = bench_with("OMP_NUM_THREADS=" + std::to_string(2 * cpus) + " OMP_PROC_BIND=false");
  ASSERT_EQ(crowd.code, 0) << crowd.err;
  EXPECT_TRUE(crowded(crowd)) << crowd.out;
}

}  // namespace

// How kpuzzles runs a case of a puzzle that spans ranks (framework/cli/rank_launch.hpp), with a
// stand-in launcher (a shell script) instead of mpiexec: what the ranks print becomes the
// report, their refusal a UsageError with their line, their crash a RanksFailed naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "rank_launch.hpp"

namespace {

// A puzzle whose "launcher" is `sh -c script sh -n R kpuzzles run ...`: the script sees the
// count as $2 and the case's words after it.
kpz::PuzzleSpec puzzle_launched_by(const std::string& script) {
  kpz::PuzzleSpec spec;
  spec.name = "zz-ranks";
  spec.variants = {{.name = "only", .summary = "one variant"}};
  spec.run = [](const kpz::RunRequest&) -> kpz::RunReport {
    ADD_FAILURE() << "the case ran in the launching process";
    return {};
  };
  spec.ranks = {.launcher = {"/bin/sh", "-c", script, "sh"}, .fallback = 2, .max = 4};
  return spec;
}

kpz::RunRequest request_for(const kpz::PuzzleSpec& spec, int ranks) {
  kpz::RunRequest req;
  req.variant = &spec.variants.front();
  req.space = "serial";
  req.ranks = ranks;
  req.params.set("size", 10, true);
  return req;
}

TEST(RankLaunch, TheFirstRanksReportComesBack) {
  // The words the ranks get: the count, then `kpuzzles run <puzzle> --<variant> --size 10 ...`.
  const auto spec = puzzle_launched_by(
      R"(test "$1" = -n && test "$2" = 3 && test "$4" = run && test "$5" = zz-ranks && test "$6" = --only || exit 9
         case " $* " in *" --size 10 "*" --json --no-race-check "*) ;; *) exit 8 ;; esac
         test "$KPZ_RANK_PROCESS" = 1 || exit 7
         echo 'a note from rank 1 on stderr' >&2
         echo '{"pass":false,"checked":10,"mismatch_count":1,"mismatches":[{"index":7,"expected":"3","actual":"-1","owner":"rank 2, element 1 of its slice 6..9"}],"notes":["halo: host memory"],"output":[],"expected":[]}'
         exit 1)");
  const kpz::RunReport r = kpz::cli::run_case(spec, request_for(spec, 3), 30);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.checked, 10u);
  EXPECT_EQ(r.mismatch_count, 1u);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].index, 7u);
  EXPECT_EQ(r.mismatches[0].owner, "rank 2, element 1 of its slice 6..9");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "halo: host memory");
}

TEST(RankLaunch, TheRanksRefusalIsAUsageErrorWithTheirLine) {
  const auto spec = puzzle_launched_by(
      R"(echo 'kpuzzles: --size 3 is smaller than --ranks 4: every rank needs an element' >&2; exit 2)");
  try {
    kpz::cli::run_case(spec, request_for(spec, 4), 30);
    FAIL() << "no UsageError";
  } catch (const kpz::UsageError& e) {
    EXPECT_STREQ(e.what(), "--size 3 is smaller than --ranks 4: every rank needs an element");
  }
}

TEST(RankLaunch, ARefusalCutByAnotherRanksLineIsStillOneLine) {
  // Two ranks refusing at once: one wrote its prefix, the other its whole line, then the first
  // the rest of its own.
  const auto spec = puzzle_launched_by(
      R"(printf 'kpuzzles: kpuzzles: --size 2 is smaller than the 3 ranks\n--size 2 is smaller than the 3 ranks\n' >&2
         exit 2)");
  try {
    kpz::cli::run_case(spec, request_for(spec, 3), 30);
    FAIL() << "no UsageError";
  } catch (const kpz::UsageError& e) {
    EXPECT_STREQ(e.what(), "--size 2 is smaller than the 3 ranks");
  }
}

TEST(RankLaunch, ACrashNamesTheLaunchAndTheCrashLine) {
  const auto spec = puzzle_launched_by(
      R"(echo 'kpuzzles: CRASHED: zz-ranks --only (exercise, serial): signal 11 (segmentation fault)'; kill -SEGV $$)");
  try {
    kpz::cli::run_case(spec, request_for(spec, 2), 30);
    FAIL() << "no RanksFailed";
  } catch (const kpz::cli::RanksFailed& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the 2 ranks of zz-ranks --only (/bin/sh -n 2)"), std::string::npos) << what;
    EXPECT_NE(what.find("signal 11"), std::string::npos) << what;
    EXPECT_NE(what.find("CRASHED: zz-ranks --only"), std::string::npos) << what;
  }
}

TEST(RankLaunch, ALauncherThatRefusesItsOptionsSaysWhichOne) {
  const auto spec = puzzle_launched_by(
      R"(echo 'mpiexec: Error: unknown option "--bogus"'; echo "Type 'mpiexec --help' for usage."; exit 1)");
  try {
    kpz::cli::run_case(spec, request_for(spec, 2), 30);
    FAIL() << "no RanksFailed";
  } catch (const kpz::cli::RanksFailed& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(R"(unknown option "--bogus")"), std::string::npos) << what;
    EXPECT_NE(what.find("for usage"), std::string::npos) << what;
  }
}

TEST(RankLaunch, AHangIsStoppedAtTheLimit) {
  const auto spec = puzzle_launched_by("sleep 60");
  EXPECT_THROW(kpz::cli::run_case(spec, request_for(spec, 2), 0.2), kpz::cli::RanksFailed);
}

// The environment of one test, put back afterwards.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name);
      saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
      setenv(name, value, 1);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, old] : saved_)
      old ? (void)setenv(name.c_str(), old->c_str(), 1) : (void)unsetenv(name.c_str());
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(RankLaunch, AOneTaskShellOfTheSchedulerIsNotARank) {
  // kpuzzles' own test runs may be ranks themselves (ctest under mpiexec): only the variables set here count.
  const ScopedEnv clean(
      {{"KPZ_RANK_PROCESS", ""}, {"OMPI_COMM_WORLD_SIZE", ""}, {"PMI_SIZE", ""}, {"SLURM_STEP_NUM_TASKS", ""}});
  {
    const ScopedEnv srun_pty({{"SLURM_STEP_NUM_TASKS", "1"}, {"PMIX_RANK", "0"}, {"SLURM_PROCID", "0"}});
    EXPECT_FALSE(kpz::cli::in_rank_process());
  }
  {
    const ScopedEnv srun_n4({{"SLURM_STEP_NUM_TASKS", "4"}, {"PMIX_RANK", "2"}, {"SLURM_PROCID", "2"}});
    EXPECT_TRUE(kpz::cli::in_rank_process());
    EXPECT_EQ(kpz::cli::launcher_rank(), 2);
  }
  {
    const ScopedEnv hydra({{"PMI_SIZE", "3"}, {"PMI_RANK", "1"}});
    EXPECT_TRUE(kpz::cli::in_rank_process());
  }
  {
    const ScopedEnv open_mpi({{"OMPI_COMM_WORLD_SIZE", "1"}, {"OMPI_COMM_WORLD_RANK", "0"}});
    EXPECT_TRUE(kpz::cli::in_rank_process());
  }
  {
    const ScopedEnv ours({{"KPZ_RANK_PROCESS", "1"}});
    EXPECT_TRUE(kpz::cli::in_rank_process());
  }
}

TEST(RankLaunch, EachRankGetsItsShareOfTheCoresUnlessTheUserChose) {
  const auto spec = puzzle_launched_by("exit 0");
  const auto threads = [&](int count) -> std::optional<std::string> {
    for (const auto& [name, value] : kpz::cli::rank_environment(spec.ranks, count))
      if (name == "KOKKOS_NUM_THREADS") return value;
    return std::nullopt;
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  {
    const ScopedEnv unset({{"OMP_NUM_THREADS", ""}, {"KOKKOS_NUM_THREADS", ""}});
    EXPECT_EQ(threads(1), std::to_string(cores));
    EXPECT_EQ(threads(2), std::to_string(std::max(1u, cores / 2)));
    EXPECT_EQ(threads(static_cast<int>(cores) + 1), "1") << "more ranks than cores: one thread each";
  }
  {
    const ScopedEnv omp({{"OMP_NUM_THREADS", "3"}, {"KOKKOS_NUM_THREADS", ""}});
    EXPECT_EQ(threads(2), std::nullopt) << "the user's OMP_NUM_THREADS reaches the ranks as it is";
  }
  {
    const ScopedEnv kokkos({{"OMP_NUM_THREADS", ""}, {"KOKKOS_NUM_THREADS", "5"}});
    EXPECT_EQ(threads(2), std::nullopt) << "the user's KOKKOS_NUM_THREADS reaches the ranks as it is";
  }
}

TEST(RankLaunch, RanksFlagOnlyForPuzzlesThatSpanRanks) {
  const auto spec = puzzle_launched_by("exit 0");
  EXPECT_EQ(kpz::cli::ranks_from(spec, nullptr), 2);
  const std::string three = "3", five = "5", zero = "0";
  EXPECT_EQ(kpz::cli::ranks_from(spec, &three), 3);
  EXPECT_THROW(kpz::cli::ranks_from(spec, &five), kpz::UsageError);
  EXPECT_THROW(kpz::cli::ranks_from(spec, &zero), kpz::UsageError);
  kpz::PuzzleSpec one_process;
  one_process.name = "zz-one";
  EXPECT_EQ(kpz::cli::ranks_from(one_process, nullptr), 1);
  EXPECT_THROW(kpz::cli::ranks_from(one_process, &three), kpz::UsageError);
}

// A batched check (run_cases_on_ranks): the stand-in launcher sees `-n R kpuzzles run zz-ranks
// --cases "<case>;<case>;..."` as $1 .. $7, logs its rank count, and answers each case with the
// line the script's `answer` function prints for it (its index and --size are $1 and $2).
kpz::PuzzleSpec batch_launched_by(const std::string& log, const std::string& answer) {
  return puzzle_launched_by("answer() { " + answer + "\n}\n" +
                            R"sh(test "$6" = --cases || exit 9
                               echo "$2" >> ')sh" +
                            log + R"sh('
                               k=0
                               printf '%s\n' "$7" | tr ';' '\n' | while read -r c; do
                                 test -n "$c" || continue
                                 answer $k "$(printf '%s\n' "$c" | sed -n 's/.*--size \([0-9]*\).*/\1/p')"
                                 k=$((k + 1))
                               done)sh");
}

std::string report_line(const char* pass) {
  return std::string(R"(echo "{\"case\":$1,\"pass\":)") + pass +
         R"(,\"checked\":$2,\"mismatch_count\":0,\"mismatches\":[],\"notes\":[],\"output\":[],\"expected\":[]}")";
}

std::string launches_logged(const std::string& log) {
  std::ifstream in(log);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

std::vector<kpz::RunRequest> requests_for(const kpz::PuzzleSpec& spec, const std::vector<std::pair<int, int>>& cases) {
  std::vector<kpz::RunRequest> out;
  for (const auto& [ranks, size] : cases) {
    out.push_back(request_for(spec, ranks));
    out.back().params.set("size", size, true);
  }
  return out;
}

TEST(RankLaunch, BatchedCasesComeBackInOrderFromOneLaunchPerRankCount) {
  const std::string log = testing::TempDir() + "kpz-batch-order.log";
  std::remove(log.c_str());
  const auto spec = batch_launched_by(log, report_line("true"));
  const auto out = kpz::cli::run_cases_on_ranks(spec, requests_for(spec, {{2, 10}, {3, 11}, {2, 12}}), 30);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].report.checked, 10u);
  EXPECT_EQ(out[1].report.checked, 11u);
  EXPECT_EQ(out[2].report.checked, 12u);
  for (const auto& o : out) EXPECT_TRUE(o.report.pass && o.usage_error.empty() && o.crash.empty());
  EXPECT_EQ(launches_logged(log), "2\n3\n");
}

TEST(RankLaunch, ABatchKeepsEachRefusalAndNamesTheCaseACrashEnded) {
  const std::string log = testing::TempDir() + "kpz-batch-crash.log";
  // Case 0 is refused by both ranks, case 1 passes, case 2 crashes the launch, case 3 never runs.
  const auto spec = batch_launched_by(log, R"(case $1 in
      0) echo '{"case":0,"usage_error":"--size 3 is smaller than --ranks 4"}'
         echo '{"case":0,"usage_error":"--size 3 is smaller than --ranks 4"}' ;;
      1) )" + report_line("true") + R"( ;;
      *) echo 'kpuzzles: CRASHED: zz-ranks --only (exercise, serial): signal 11 (segmentation fault)'
         kill -SEGV $$ ;;
    esac)");
  const auto out = kpz::cli::run_cases_on_ranks(spec, requests_for(spec, {{2, 3}, {2, 5}, {2, 7}, {2, 9}}), 30);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].usage_error, "--size 3 is smaller than --ranks 4");
  EXPECT_TRUE(out[1].report.pass);
  EXPECT_EQ(out[1].report.checked, 5u);
  EXPECT_NE(out[2].crash.find("the 2 ranks of zz-ranks --only (/bin/sh -n 2)"), std::string::npos) << out[2].crash;
  EXPECT_NE(out[2].crash.find("signal 11"), std::string::npos) << out[2].crash;
  EXPECT_TRUE(out[3].crash.empty() && out[3].usage_error.empty() && !out[3].report.pass);
}

TEST(RankLaunch, ABatchThatHangsIsStoppedAndLaterLaunchesAreSkipped) {
  const std::string log = testing::TempDir() + "kpz-batch-hang.log";
  std::remove(log.c_str());
  // The 2-rank launch answers its first case and hangs in its second; the 3-rank launch, whose
  // cases all come after the hang, would only repeat the wait.
  const auto spec =
      batch_launched_by(log, R"(if [ "$1" = 0 ]; then )" + report_line("true") + R"(; else sleep 60; fi)");
  const auto out = kpz::cli::run_cases_on_ranks(spec, requests_for(spec, {{2, 4}, {2, 6}, {3, 8}}), 0.3);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].report.pass);
  EXPECT_FALSE(out[1].crash.empty());
  EXPECT_TRUE(out[2].crash.empty() && !out[2].report.pass);
  EXPECT_EQ(launches_logged(log), "2\n");
}

}  // namespace

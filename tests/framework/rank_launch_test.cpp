// How kpuzzles runs a case of a puzzle that spans ranks (framework/cli/rank_launch.hpp), with a
// stand-in launcher (a shell script) instead of mpiexec: what the ranks print becomes the
// report, their refusal a UsageError with their line, their crash a RanksFailed naming it.
#include <gtest/gtest.h>

#include <string>

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

TEST(RankLaunch, AHangIsStoppedAtTheLimit) {
  const auto spec = puzzle_launched_by("sleep 60");
  EXPECT_THROW(kpz::cli::run_case(spec, request_for(spec, 2), 0.2), kpz::cli::RanksFailed);
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

}  // namespace

#pragma once
// The jobs of `kpuzzles watch`, one child process at a time: the rebuild (debounced after a
// save), then `kpuzzles list` once, then the checks (the current exercise first), and the
// puzzle's full tests when `t` asked for them (after any pending build). Where puzzles are
// modules, the build of those not built yet runs when nothing else is wanted and gives way to
// anything that is; when it is done, watch starts again with every puzzle.
#include <chrono>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include <memory>

#include "process.hpp"
#include "puzzle_modules.hpp"

namespace kpz::cli {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t);

enum class Job { none, build, list, check, test_build, test_run, rest };

// watch's own limit on one check, above check's --time-limit: for a child that never answers.
constexpr double kCheckTimeout = 120;

struct JobQueue {
  Child child;
  Job job = Job::none;  // what the child is
  int job_exercise = -1;
  Clock::time_point job_start{}, debounce_until{}, saved_at{};
  bool build_wanted = false, build_from_save = false, list_wanted = false, tests_wanted = false;
  bool check_pending_feedback = false;          // the next check of the current exercise ends a save's wait
  bool rest_wanted = false;                     // modules not built yet: build them when nothing else is wanted
  bool reload = false;                          // they are built: watch starts again to load them
  std::unique_ptr<ModuleBuildLock> build_lock;  // held while a build of ours runs in the tree
  std::set<std::string> changed;                // puzzles saved since the last build started
  std::set<std::string> building;               // puzzles saved before the build under way (empty: any)
  std::deque<int> checks;                       // exercises to check

  // The background build of the other puzzles does not keep watch from being idle.
  bool idle() const {
    return (!child.running() || job == Job::rest) && !build_wanted && checks.empty() && !list_wanted && !tests_wanted;
  }
  bool testing() const { return job == Job::test_build || job == Job::test_run; }
};

struct WatchSession;

// A rebuild of kpuzzles; `from_save`: after a save (debounced, clears the message and the tests).
void request_build(WatchSession& s, const std::set<std::string>& puzzles, bool from_save);
// Files of `puzzles` were saved: a check or the tests under way would answer for the old code
// (and a check may hang until the fix), so they stop; a rebuild follows.
void on_saved(WatchSession& s, const std::set<std::string>& puzzles);
// Starts the next job when no child runs.
void start_next_job(WatchSession& s);
void start_job(WatchSession& s, Job job, int exercise, const std::vector<std::string>& argv);
// Hands a finished child (or a check past kCheckTimeout) to job_done.
void reap_job(WatchSession& s);
// Ends the child: a build (make, ninja) asked to stop so that it deletes what it was writing,
// anything else killed.
void stop_job(WatchSession& s);
// What a finished job means (watch_results.cpp): the build's compile error or the checks that
// follow it, the statuses of `kpuzzles list`, and a check's verdict, status and message. Called
// once per job, with the child's result (or a result with started = false).
void job_done(WatchSession& s, const ProcessResult& r);

}  // namespace kpz::cli

#pragma once
// The jobs of `kpuzzles watch`, one child process at a time: the rebuild (debounced after a
// save), then `kpuzzles list` once, then the checks (the current exercise first), and the
// puzzle's full tests when `t` asked for them (after any pending build).
#include <chrono>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "process.hpp"

namespace kpz::cli {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t);

enum class Job { none, build, list, check, test_build, test_run };

// watch's own limit on one check, above check's --time-limit: for a child that never answers.
constexpr double kCheckTimeout = 120;

struct JobQueue {
  Child child;
  Job job = Job::none;  // what the child is
  int job_exercise = -1;
  Clock::time_point job_start{}, debounce_until{}, saved_at{};
  bool build_wanted = false, build_from_save = false, list_wanted = false, tests_wanted = false;
  bool check_pending_feedback = false;  // the next check of the current exercise ends a save's wait
  std::set<std::string> changed;        // puzzles saved since the last build started
  std::set<std::string> building;       // puzzles saved before the build under way (empty: any)
  std::deque<int> checks;               // exercises to check

  bool idle() const { return !child.running() && !build_wanted && checks.empty() && !list_wanted && !tests_wanted; }
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

}  // namespace kpz::cli

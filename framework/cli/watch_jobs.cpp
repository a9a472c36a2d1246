#include "watch_jobs.hpp"

#include "kpz/errors.hpp"
#include "puzzle_modules.hpp"

#include "watch_session.hpp"
#include "watch_tests.hpp"

namespace kpz::cli {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void request_build(WatchSession& s, const std::set<std::string>& puzzles, bool from_save) {
  JobQueue& q = s.jobs;
  for (const auto& p : puzzles) q.changed.insert(p);
  if (!q.build_wanted) q.saved_at = Clock::now();
  if (from_save) {
    s.state.message.clear();
    s.state.tests_text.clear();
  }
  q.build_wanted = true;
  q.build_from_save = from_save;
  q.debounce_until = Clock::now() + std::chrono::milliseconds(from_save ? 250 : 0);
  s.state.dirty = true;
}

void on_saved(WatchSession& s, const std::set<std::string>& puzzles) {
  if (s.jobs.testing() || s.jobs.job == Job::check) {
    s.jobs.child.kill_now();
    s.jobs.job = Job::none;
  }
  request_build(s, puzzles, true);
}

void start_next_job(WatchSession& s) {
  JobQueue& q = s.jobs;
  // The other puzzles' build gives way to whatever the learner waits for, and starts again later.
  if (q.job == Job::rest && q.child.running() &&
      (q.build_wanted || q.tests_wanted || q.list_wanted || !q.checks.empty())) {
    stop_job(s);
    q.job = Job::none;
    q.rest_wanted = true;
  }
  if (q.child.running()) return;
  if (q.tests_wanted && !q.build_wanted) {
    q.tests_wanted = false;
    start_tests(s);
    return;
  }
  if (q.build_wanted && Clock::now() >= q.debounce_until) {
    q.building = q.changed;
    q.changed.clear();
    q.build_wanted = false;
    q.checks.clear();
    std::vector<std::string> argv{s.paths.cmake, "--build", s.paths.build_dir, "--target"};
    for (const auto& t : watch_build_targets(s.paths.build_target)) argv.push_back(t);
    start_job(s, Job::build, -1, argv);
    s.state.phase = Phase::building;
    return;
  }
  if (q.build_wanted) return;
  if (q.list_wanted) {
    q.list_wanted = false;
    start_job(s, Job::list, -1, {s.paths.self, "list", "--json"});
    return;
  }
  if (!q.checks.empty()) {
    const int idx = q.checks.front();
    q.checks.pop_front();
    const Exercise& e = s.state.exercises[static_cast<std::size_t>(idx)];
    start_job(s, Job::check, idx, {s.paths.self, "check", e.puzzle->name, "--variant", e.variant->name, "--json"});
    if (idx == s.state.current) s.state.phase = Phase::checking;
    return;
  }
  if (q.rest_wanted && !q.tests_wanted) {
    q.rest_wanted = false;
    std::vector<std::string> argv{s.paths.cmake, "--build", s.paths.build_dir, "--target"};
    for (const auto& p : unbuilt_puzzles()) argv.push_back("kpz_module_" + p);
    start_job(s, Job::rest, -1, argv);
    if (q.job == Job::rest)  // not when another kpuzzles builds in the tree (start_job waits for it)
      s.events.emit("building_others", [&](Json& j) { j.set("puzzles", join(unbuilt_puzzles(), ",")); });
  }
}

void stop_job(WatchSession& s) {
  const Job j = s.jobs.job;
  if (j == Job::build || j == Job::rest || j == Job::test_build)
    s.jobs.child.terminate();
  else
    s.jobs.child.kill_now();
  s.jobs.build_lock.reset();
}

namespace {
const char* const kWaitingForBuild = "waiting for the build another kpuzzles runs in this build tree";
}

void start_job(WatchSession& s, Job job, int exercise, const std::vector<std::string>& argv) {
  JobQueue& q = s.jobs;
  if (job == Job::build || job == Job::rest || job == Job::test_build) {
    // Another kpuzzles building in the same tree (`kpuzzles run <puzzle>` building a module in
    // another terminal): never two builds in one tree; ask again in a moment.
    auto lock = std::make_unique<ModuleBuildLock>(false);
    if (lock->busy()) {
      if (job == Job::build) {
        q.build_wanted = true;
        q.debounce_until = Clock::now() + std::chrono::milliseconds(500);
      } else if (job == Job::rest) {
        q.rest_wanted = true;
      } else {
        q.tests_wanted = true;
      }
      if (s.state.message.empty()) s.state.message = kWaitingForBuild;
      s.state.dirty = true;
      return;
    }
    if (s.state.message == kWaitingForBuild) s.state.message.clear();
    q.build_lock = std::move(lock);
  }
  q.job = job;
  q.job_exercise = exercise;
  q.job_start = Clock::now();
  if (!q.child.start(argv)) {
    ProcessResult r;
    r.started = false;
    r.output = q.child.output();
    job_done(s, r);
  }
  s.state.dirty = true;
}

void reap_job(WatchSession& s) {
  JobQueue& q = s.jobs;
  if (!q.child.running()) return;
  ProcessResult r;
  if (q.child.finished(r)) {
    job_done(s, r);
  } else if (q.job == Job::check && seconds_since(q.job_start) > kCheckTimeout) {
    ProcessResult t;
    t.timed_out = true;
    t.output = q.child.output();
    q.child.kill_now();
    job_done(s, t);
  }
}

}  // namespace kpz::cli

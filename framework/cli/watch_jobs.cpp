#include "watch_jobs.hpp"

#include "watch_results.hpp"
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
    start_job(s, Job::build, -1, {s.paths.cmake, "--build", s.paths.build_dir, "--target", s.paths.build_target});
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
  }
}

void start_job(WatchSession& s, Job job, int exercise, const std::vector<std::string>& argv) {
  JobQueue& q = s.jobs;
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

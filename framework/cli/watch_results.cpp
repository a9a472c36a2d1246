#include "watch_jobs.hpp"

#include <filesystem>
#include <fstream>

#include "bug_hunt_note.hpp"
#include "cli.hpp"
#include "crash_report.hpp"
#include "kpz/errors.hpp"
#include "kpz/lookup.hpp"
#include "learner.hpp"
#include "puzzle_modules.hpp"
#include "text.hpp"
#include "time_limit.hpp"
#include "watch_render.hpp"
#include "watch_session.hpp"
#include "watch_tests.hpp"

namespace kpz::cli {
namespace {

void queue_checks_after_build(WatchSession& s) {
  JobQueue& q = s.jobs;
  const WatchState& st = s.state;
  q.checks.clear();
  std::set<std::string> puzzles = q.building;
  if (puzzles.empty()) puzzles.insert(st.cur().puzzle->name);
  q.checks.push_back(st.current);
  for (std::size_t i = 0; i < st.exercises.size(); ++i)
    if (static_cast<int>(i) != st.current && puzzles.count(st.exercises[i].puzzle->name))
      q.checks.push_back(static_cast<int>(i));
  q.check_pending_feedback = q.build_from_save;
}

void build_failed(WatchSession& s, const ProcessResult& r) {
  WatchState& st = s.state;
  st.phase = Phase::build_failed;
  std::vector<std::string> files;
  for (const auto& e : st.exercises)
    if (s.jobs.building.empty() || s.jobs.building.count(e.puzzle->name))
      for (const auto& f : exercise_files(s.paths, e.puzzle->name)) files.push_back(f);
  st.error = trim_compile_errors(r.output, files, s.paths.source_dir);
  if (!r.started) st.error.text = r.output;
  // Child exits 127 with "cannot run <cmake>: ..." when exec fails: no compiler ever ran.
  const std::string no_exec = "cannot run " + s.paths.cmake + ": ";
  st.cmake_missing = r.exit_code == 127 && r.output.rfind(no_exec, 0) == 0;
  if (st.cmake_missing)
    st.error.text = "cmake not found: " + cli::quoted(s.paths.cmake) + " cannot be started (" +
                    r.output.substr(no_exec.size(), r.output.find('\n') - no_exec.size()) +
                    "); install CMake 3.22 or newer, or set KPZ_CMAKE to its path\n";
  s.events.emit("build", [&](Json& j) {
    j.set("ok", false).set("seconds", st.build_seconds).set("file", st.error.file).set("line", st.error.line);
    j.set("in_learner_file", st.error.in_learner_file)
        .set("error", st.error.text)
        .set("cmake_missing", st.cmake_missing);
  });
  if (s.jobs.build_from_save) st.feedback_seconds = seconds_since(s.jobs.saved_at);
}

void build_done(WatchSession& s, const ProcessResult& r) {
  s.state.build_seconds = seconds_since(s.jobs.job_start);
  {
    std::ofstream log(s.paths.build_dir + "/kpuzzles-watch-build.log", std::ios::trunc);
    log << r.output;
  }
  if (!r.ok()) return build_failed(s, r);
  s.events.emit("build", [&](Json& j) { j.set("ok", true).set("seconds", s.state.build_seconds); });
  if (s.jobs.build_wanted) return;  // saved again meanwhile: rebuild first
  if (!s.state.have_list) {
    s.jobs.list_wanted = true;
    return;
  }
  queue_checks_after_build(s);
}

// The modules not built when watch started are built: watch starts again (cmd_watch) with every
// puzzle. A failed build leaves them to be built when first run.
void others_built(WatchSession& s, const ProcessResult& r) {
  // Starting again only helps when the modules are there now (KPZ_MODULE_DIR may point elsewhere
  // than the build writes): else watch would start again and again.
  std::vector<std::string> still_missing;
  for (const auto& p : unbuilt_puzzles()) {
    std::error_code ec;
    if (!std::filesystem::exists(module_file(p), ec)) still_missing.push_back(p);
  }
  s.events.emit("others_built", [&](Json& j) { j.set("ok", r.ok() && still_missing.empty()); });
  if (r.ok() && still_missing.empty()) {
    s.jobs.reload = true;
    s.state.quit = true;
    return;
  }
  if (r.ok()) {
    s.state.message = "the other puzzles were built, but " + join(still_missing, ", ") + " is not in " +
                      s.paths.module_dir + ": `kpuzzles run <puzzle>` says why";
    return;
  }
  {
    std::ofstream log(s.paths.build_dir + "/kpuzzles-watch-others.log", std::ios::trunc);
    log << r.output;
  }
  s.state.message = "building the other puzzles failed (" + s.paths.build_dir +
                    "/kpuzzles-watch-others.log): `kpuzzles run <puzzle>` builds one and shows why";
}

void list_done(WatchSession& s, const ProcessResult& r) {
  WatchState& st = s.state;
  Json j;
  if (!r.ok() || !last_json_line(r.output, j)) {
    st.phase = Phase::crashed;
    st.crash_text = "`kpuzzles list` failed" + std::string(r.signal ? " with " + describe_signal(r.signal) : "") +
                    ": one of your exercises may crash; the checks of the current one follow.\n" +
                    tail_lines(r.output, 8);
  } else {
    st.take_statuses(j);
  }
  st.have_list = true;
  if (!st.chosen) st.choose_start(load_state().current());
  st.remember_current();
  s.jobs.checks = {st.current};
  s.events.emit("ready", [&](Json& o) {
    o.set("exercise", st.cur().id()).set("solved", st.solved_count()).set("total", st.course.total);
  });
}

// What one `kpuzzles check --json` answered.
struct CheckOutcome {
  std::string text;
  Json answer;
  bool pass = false, understood = false, bug_hunt = false;
  bool cannot_run() const {
    return understood && !answer["exercises"].items().front()["cases"].items().empty() &&
           !answer["exercises"].items().front()["cases"].items().back()["usage_error"].is_null();
  }
};

CheckOutcome read_check(const WatchSession& s, const Exercise& e, const ProcessResult& r) {
  const Style& style = s.style;
  CheckOutcome c;
  if (!r.started) {
    c.text = "cannot start the checker: " + r.output;
  } else if (r.timed_out || r.exit_code == kExitTimeLimit) {  // watch's limit, or check's own
    // The check's own limit names the case that hung (time_limit.hpp); watch's kills it unheard.
    std::string what = e.label(), tail = tail_lines(r.output, 5);
    if (const auto at = r.output.find(kTimeLimitPrefix); at != std::string::npos) {
      const auto from = at + std::string(kTimeLimitPrefix).size();
      if (const auto to = r.output.find(" did not finish", from); to != std::string::npos) {
        what = r.output.substr(from, to - from);
        tail.clear();
      }
    }
    c.text = style.red("TIMED OUT") + " after " +
             fixed1(r.timed_out ? kCheckTimeout : seconds_since(s.jobs.job_start)) + " s: an endless loop in " + what +
             "? (a barrier that not every member reaches also hangs)\n" + tail;
  } else if (r.signal) {
    c.text = style.red("CRASHED") + ": the check of " + e.label() + " ended with " + describe_signal(r.signal) +
             ".\n  An index out of range? Build the openmp-debug preset (bounds checking) and "
             "run\n  kpuzzles run " +
             e.puzzle->name + " --" + e.variant->name + " there.\n" + tail_lines(r.output, 5);
  } else if (const auto crash = r.output.find(kCrashPrefix); crash != std::string::npos) {
    // The checker's crash report (crash_report.hpp): the case, the signal, the likely causes.
    c.text = style.red("CRASHED") + ": " + r.output.substr(crash + std::string(kCrashPrefix).size());
  } else if (last_json_line(r.output, c.answer) && !c.answer["exercises"].items().empty()) {
    c.understood = true;
    const Json& ex = c.answer["exercises"].items().front();
    c.pass = ex["pass"].as_bool();
    c.text = render_check_result(style, e.label(), e.puzzle->name, ex);
    if (c.pass && ex["untraced_bug_hunt"].as_bool()) {
      // A bug hunt passes by luck outside the trace build: not solved, and said so.
      c.bug_hunt = true;
      c.pass = false;
      c.text += "\nbug hunt: this passes by luck here; `kpuzzles trace " + e.puzzle->name + " --" + e.variant->name +
                "` in the trace build tells whether it is fixed\n";
    }
  } else {
    c.text = "the checker answered (exit " + std::to_string(r.exit_code) + "):\n" + tail_lines(r.output, 10);
  }
  return c;
}

// The exercise's new status; `newly` when this check solved it.
std::string new_status(const WatchSession& s, const Exercise& e, const CheckOutcome& c, const std::string& was) {
  if (c.pass) return "solved";
  if (c.bug_hunt) return "bug hunt";
  if (c.cannot_run()) return "cannot run";
  // Passed before: solved stays solved, as in `list` and `solution`.
  if (load_state().solved(e.puzzle->name, e.variant->name)) return "solved";
  if (was == "solved" || was == "?" || was == "not attempted")
    return exercise_untouched(s.paths, e.puzzle->name, e.variant->main_function()) ? "not attempted" : "pending";
  return was;
}

// The check of exercise s.jobs.job_exercise.
void check_done(WatchSession& s, const ProcessResult& r) {
  const int idx = s.jobs.job_exercise;
  WatchState& st = s.state;
  const Exercise& e = st.exercises[static_cast<std::size_t>(idx)];
  const CheckOutcome c = read_check(s, e, r);
  std::string& status = st.status_of(idx);
  const bool newly = c.pass && status != "solved";
  status = new_status(s, e, c, status);
  if (idx == st.current) {
    st.result_text = c.text;
    st.phase = Phase::result;
    if (!st.list_view) st.focus = Focus::top;
    if (s.jobs.check_pending_feedback) {
      st.feedback_seconds = seconds_since(s.jobs.saved_at);
      s.jobs.check_pending_feedback = false;
    }
    if (newly) st.message = s.style.green(e.label() + " is solved.") + " Press n for the next exercise.";
  }
  if (newly && st.every_exercise_solved(e.puzzle))
    st.message = s.style.green("Every exercise of " + e.puzzle->name + " is solved!") + " `kpuzzles solution " +
                 e.puzzle->name + "` shows the reference and why it is written that way.";
  s.events.emit("result", [&](Json& o) {
    o.set("exercise", e.id()).set("pass", c.pass).set("status", status).set("current", idx == st.current);
    o.set("solved", st.solved_count()).set("total", st.course.total);
    if (idx == st.current && st.feedback_seconds >= 0) o.set("feedback_seconds", st.feedback_seconds);
    if (c.understood) o.set("check", c.answer["exercises"].items().front());
    const std::string note = bug_hunt_note(s.paths, *e.puzzle, *e.variant);
    if (!note.empty()) o.set("trace_build", note);
  });
}

}  // namespace

void job_done(WatchSession& s, const ProcessResult& r) {
  const Job job = s.jobs.job;
  s.jobs.job = Job::none;
  s.jobs.build_lock.reset();
  s.state.dirty = true;
  using Done = void (*)(WatchSession&, const ProcessResult&);
  const Done done =
      by_enum<Job::rest, Done>({nullptr, build_done, list_done, check_done, tests_built, tests_ran, others_built}, job);
  if (done) done(s, r);  // Job::none: no child ended
}

}  // namespace kpz::cli

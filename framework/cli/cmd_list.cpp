#include <cstdio>
#include <iostream>

#include "bug_hunt_note.hpp"
#include "cli.hpp"
#include "exercises.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/space_names.hpp"
#include "learner.hpp"
#include "puzzle_modules.hpp"
#include "terminal.hpp"
#include "time_limit.hpp"

namespace kpz::cli {

// Every exercise (puzzle variant) in course order with its status: solved (your code passes
// the defaults and the variant's extra cases), pending (changed, not passing yet), not
// attempted (still the skeleton), cannot run on this backend, or bug hunt (passes by luck
// outside the trace build).
int cmd_list(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args, {{"json", false}}, "'kpuzzles list'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles list' takes no arguments");
  const LearnerPaths& paths = learner_paths();
  const std::vector<Exercise> exercises = course_exercises();
  std::vector<ExerciseResult> results;
  std::vector<std::pair<Exercise, bool>> passes;
  announce_stale_binary();
  for (const auto& e : exercises) {
    // The learner's code runs here too: an endless loop must not hang `list` (nor `watch`,
    // which starts with it), and a crash must not end it. The race check runs first, as in
    // `check`: a scratch request too small or an index past a View's end never runs. Without a
    // race check for the puzzle (a GPU build, a verifier not built) such code would run and may
    // crash (on a GPU it also breaks every later kernel of the process): it runs alone there, and
    // a skeleton not at all (it fails by design; a bug hunt's runs, it is the exercise).
    if (kTraceBuild || race_check_runs_first(*e.puzzle, *e.variant)) {
      const TimeLimit watchdog(kDefaultTimeLimit, e.label());
      results.push_back(check_exercise(*e.puzzle, *e.variant, Impl::exercise, "", false, RaceOrder::first));
    } else if (!e.variant->bug_hunt && exercise_untouched(paths, e.puzzle->name, e.variant->main_function())) {
      results.emplace_back();
    } else {
      results.push_back(check_exercise_in_child(*e.puzzle, *e.variant, kDefaultTimeLimit));
    }
    passes.emplace_back(e, results.back().proven_pass());
  }
  record_passes(passes);
  const LearnerState state = load_state();
  std::vector<Status> status;
  int solved = 0;
  for (std::size_t i = 0; i < exercises.size(); ++i) {
    status.push_back(exercise_status(exercises[i], results[i], state, paths));
    solved += status.back() == Status::solved;
  }
  const std::string backend = default_space_name();
  // Puzzles whose module is not built yet (builds where puzzles are modules): named, not listed.
  const std::vector<std::string> unbuilt = unbuilt_puzzles();
  const CourseNumbers course = course_numbers(exercises);
  int next = -1;
  for (std::size_t i = 0; i < exercises.size() && next < 0; ++i)
    if (status[i] != Status::solved && status[i] != Status::cannot_run) next = static_cast<int>(i);

  if (flags.has("json")) {
    Json list = Json::array();
    for (std::size_t i = 0; i < exercises.size(); ++i) {
      const Exercise& e = exercises[i];
      Json j = Json::object();
      j.set("puzzle", e.puzzle->name).set("variant", e.variant->name).set("summary", e.variant->summary);
      j.set("function", e.variant->main_function())
          .set("file", exercise_file_for(paths, e.puzzle->name, e.variant->main_function()));
      j.set("status", to_string(status[i])).set("bug_hunt", e.variant->bug_hunt);
      if (const CaseResult* f = results[i].first_failure(); f && !f->usage_error.empty())
        j.set("reason", f->usage_error);
      else if (f && !f->crash.empty())
        j.set("crashed", f->crash);
      j.set("solved_before", state.solved(e.puzzle->name, e.variant->name)).set("passes_now", results[i].pass);
      // The race check: "clean", "bug", "not-judged" (why: race_check_reason), "unavailable".
      j.set("race_check", to_string(results[i].race.state));
      if (!results[i].race.reason.empty()) j.set("race_check_reason", results[i].race.reason);
      j.set("hints_shown", state.hints_shown(hint_key(*e.puzzle, *e.variant)));
      // For the course and agenda pages (cmake/kpz_course_docs.py): place, estimate, track, page.
      j.set("position", course.number[i]).set("minutes", e.variant->minutes);
      j.set("track", std::string(to_string(e.variant->track)));
      j.set("doc", e.puzzle->doc_page()).set("puzzle_summary", e.puzzle->summary);
      list.push(std::move(j));
    }
    Json j = Json::object();
    j.set("backend", backend).set("solved", solved).set("total", course.total);
    j.set("next", next >= 0 ? Json(exercises[next].id()) : Json());
    j.set("state_file", paths.state_file).set("exercises", std::move(list));
    Json not_built = Json::array();
    for (const auto& p : unbuilt) not_built.push(Json(p));
    j.set("not_built", std::move(not_built));
    std::cout << j.dump() << '\n';
    return 0;
  }

  const Style style{use_color()};
  std::cout << style.bold("Kokkos Puzzles") << " on " << backend << ": ";
  if (stdout_is_terminal())
    std::cout << progress_bar(solved, course.total, 20, style.color) << " solved\n";
  else
    std::cout << solved << " of " << course.total << " exercises solved\n";
  const int width = stdout_is_terminal() ? terminal_columns() : 1 << 20;
  for (std::size_t i = 0; i < exercises.size(); ++i) {
    const Exercise& e = exercises[i];
    char head[160];
    std::snprintf(head, sizeof head, "%3d  %-30s ", course.number[i], e.label().c_str());
    std::string st = to_string(status[i]);
    char col[32];
    std::snprintf(col, sizeof col, "%-14s", st.c_str());
    std::string painted = col;
    if (status[i] == Status::solved)
      painted = style.green(col);
    else if (status[i] == Status::pending)
      painted = style.yellow(col);
    else if (status[i] == Status::cannot_run)
      painted = style.red(col);
    else
      painted = style.dim(col);
    std::string tail = e.variant->summary;
    if (const CaseResult* f = results[i].first_failure(); f && !f->usage_error.empty())
      tail = f->usage_error;
    else if (f && !f->crash.empty())
      tail = f->crash + " (kpuzzles run " + e.puzzle->name + " --" + e.variant->name + " says more)";
    else if (status[i] == Status::solved && !results[i].pass)
      tail = "solved before; your code as built now does not pass (reset or changed since)";
    else if (results[i].race.state == RaceCheck::State::bug && status[i] != Status::not_attempted)
      tail = std::string(results[i].cases.empty() || results[i].first_failure() ? "" : "passes its cases, but ") +
             "the race check finds a bug: kpuzzles check " + e.puzzle->name + " --variant " + e.variant->name;
    else if (results[i].pass && results[i].race.state == RaceCheck::State::not_judged)
      tail = "not race-checked: " + results[i].race.reason;
    const int room = width - static_cast<int>(std::string(head).size()) - 15;
    if (room > 10 && static_cast<int>(tail.size()) > room)
      tail = tail.substr(0, static_cast<std::size_t>(room - 3)) + "...";
    std::cout << head << painted << ' ' << tail << '\n';
  }
  if (next >= 0) {
    std::cout << "next: " << exercises[next].label() << " (exercises/" << exercises[next].puzzle->name
              << "/); `kpuzzles watch` starts there\n";
    const std::string note = bug_hunt_note(learner_paths(), *exercises[next].puzzle, *exercises[next].variant);
    if (!note.empty()) std::cout << note << '\n';
  } else if (solved == static_cast<int>(exercises.size()) && unbuilt.empty())
    std::cout << "every exercise is solved: well done. `kpuzzles solution <puzzle>` shows the references.\n";
  if (!unbuilt.empty())
    std::cout << "not built yet: " << join(unbuilt, ", ") << " (" << course.total - static_cast<int>(exercises.size())
              << " of the " << course.total << " exercises; `kpuzzles run <puzzle>` builds one, `kpuzzles watch` "
              << "builds them while you work, or all now: cmake --build " << module_build_dir()
              << " --target puzzles)\n";
  return 0;
}

}  // namespace kpz::cli

#include "watch_view.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "bug_hunt_note.hpp"
#include "kpz/errors.hpp"
#include "kpz/space_names.hpp"
#include "puzzle_modules.hpp"
#include "text.hpp"
#include "time_limit.hpp"
#include "watch_keys.hpp"
#include "watch_session.hpp"

namespace kpz::cli {
namespace {

// Where the body's blocks start (line numbers), for the focus of a fitted screen.
struct Screen {
  ScreenParts parts;
  int current_line = -1, tests_line = -1, hint_line = -1;
};

int line_count(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

std::string header(const WatchSession& s) {
  const WatchState& st = s.state;
  std::string head =
      s.style.bold("kpuzzles watch") + " · " + default_space_name() + " · build tree " + s.paths.build_dir + "\n\n";
  if (st.current >= 0 && st.have_list) {
    const Exercise& e = st.cur();
    head += s.style.bold(e.label()) + "  (exercise " +
            std::to_string(st.course.number[static_cast<std::size_t>(st.current)]) + " of " +
            std::to_string(st.course.total) + ")  " + e.variant->summary + "\n";
    head += "edit " + exercise_file_for(s.paths, e.puzzle->name, e.variant->main_function()) +
            (e.variant->functions.empty() ? "" : ", function " + e.variant->main_function()) + "\n";
    const std::string note = bug_hunt_note(s.paths, *e.puzzle, *e.variant);
    if (!note.empty()) head += s.style.yellow(note) + "\n";
    head += "\n";
  }
  return head;
}

void list_body(const WatchSession& s, Screen& out) {
  const WatchState& st = s.state;
  std::string& body = out.parts.body;
  for (std::size_t i = 0; i < st.exercises.size(); ++i) {
    char line[200];
    std::snprintf(line, sizeof line, "%s %2d  %-30s %s\n", static_cast<int>(i) == st.current ? ">" : " ",
                  st.course.number[i], st.exercises[i].label().c_str(),
                  st.status[i] == "?" ? "..." : st.status[i].c_str());
    if (static_cast<int>(i) == st.current) out.current_line = line_count(body);
    body += line;
  }
}

std::string phase_text(const WatchSession& s) {
  const WatchState& st = s.state;
  const double running = seconds_since(s.jobs.job_start);
  switch (st.phase) {
    case Phase::building:
      return "building" + (s.tty ? " (" + fixed1(running) + " s)" : std::string()) + " ...\n";
    case Phase::build_failed:
      return s.style.red(st.cmake_missing ? "CMAKE NOT FOUND" : "COMPILE ERROR") +
             (st.error.in_learner_file ? "  in " + st.error.file + ":" + std::to_string(st.error.line)
                                       : std::string()) +
             "\n" + st.error.text + "(all of it: " + s.paths.build_dir + "/kpuzzles-watch-build.log)\n";
    case Phase::checking:
      return "checking " + st.cur().label() + " ..." +
             (s.tty && s.jobs.job == Job::check
                  ? " (" + fixed1(running) + " s; stopped at " + fixed1(kDefaultTimeLimit) + " s, or when you save)"
                  : std::string()) +
             "\n" + (st.result_text.empty() ? std::string() : s.style.dim("(last result)") + "\n" + st.result_text);
    case Phase::crashed:
      return st.crash_text;
    case Phase::result:
      return st.result_text;
    case Phase::starting:
      return "starting ...\n";
  }
  return "";
}

void exercise_body(const WatchSession& s, Screen& out) {
  const WatchState& st = s.state;
  std::string& body = out.parts.body;
  body += phase_text(s);
  if (!st.tests_text.empty() && st.tests_exercise == st.current) {
    body += "\n";
    out.tests_line = line_count(body);
    body += st.tests_text;
  }
  if (!st.hint_text.empty()) {
    body += "\n";
    out.hint_line = line_count(body);
    body += st.hint_text + "\n";
  }
}

std::string footer(const WatchSession& s) {
  const WatchState& st = s.state;
  const int total = st.course.total;
  std::string foot;
  if (!st.message.empty()) foot += "\n" + st.message + "\n";
  if (s.jobs.job == Job::rest)
    foot += "\nbuilding the other puzzles in the background (" + join(unbuilt_puzzles(), ", ") +
            "): watch starts again with them when they are built\n";
  foot += "\n";
  if (s.tty)
    foot += "progress " + progress_bar(st.solved_count(), total, 30, s.style.color) + " solved";
  else
    foot += "progress: " + std::to_string(st.solved_count()) + " of " + std::to_string(total) + " exercises solved";
  if (st.feedback_seconds >= 0 && st.phase != Phase::building)
    foot += "   (last save to result: " + fixed1(st.feedback_seconds) + " s, build " + fixed1(st.build_seconds) + " s)";
  // In the list view the way back stays in sight when the list scrolls (50 exercises and more).
  foot += "\n" + std::string(st.list_view ? "(l: back)  " : "") + key_help() + "   ";
  if (s.watcher.backend() == FileWatcher::Backend::none)
    foot += s.style.yellow("file watching is unavailable (" + s.watcher.why_not() +
                           "): manual mode, save and press r to rebuild and re-check");
  else
    foot += "watching exercises/ for saves (" + s.watcher.describe() + ")";
  return foot + "\n";
}

Screen screen(const WatchSession& s) {
  Screen out;
  out.parts.header = header(s);
  if (s.state.list_view)
    list_body(s, out);
  else
    exercise_body(s, out);
  out.parts.footer = footer(s);
  return out;
}

// The first body line to show: where the focus asks for, else where the learner scrolled to.
void place_focus(WatchState& st, const Screen& sc, int room) {
  if (st.focus == Focus::top)
    st.scroll = 0;
  else if (st.focus == Focus::list && sc.current_line >= 0)
    st.scroll = centred_first(sc.current_line, room);
  else if (st.focus == Focus::tests && sc.tests_line >= 0)
    st.scroll = sc.tests_line;
  else if (st.focus == Focus::hint && sc.hint_line >= 0)
    st.scroll = sc.hint_line;
  st.focus = Focus::none;
}

}  // namespace

void draw(WatchSession& s) {
  if (s.events.on()) return;
  WatchState& st = s.state;
  DrawnScreen& last = s.drawn;
  const bool ticking = s.tty && (st.phase == Phase::building || st.phase == Phase::checking || s.jobs.testing());
  const ScreenSize size = s.tty ? terminal_size() : ScreenSize{};
  const bool resized = s.tty && (size.rows != last.size.rows || size.cols != last.size.cols);
  if (!st.dirty && !resized && !(ticking && seconds_since(last.at) >= 1.0)) return;
  st.dirty = false;
  const Screen sc = screen(s);
  std::string text;
  if (s.tty) {
    const int room = std::max(1, size.rows - 1 - line_count(sc.parts.header) - line_count(sc.parts.footer) - 1);
    place_focus(st, sc, room);
    text = fit_screen(sc.parts, size, st.scroll);
    last.size = size;
  } else {
    text = sc.parts.header + sc.parts.body + sc.parts.footer;
  }
  if (!s.tty && text == last.text) return;
  last.text = text;
  last.at = Clock::now();
  if (s.tty)
    std::cout << "\033[H\033[2J" << text << std::flush;
  else
    std::cout << "----\n" << text << std::flush;
}

}  // namespace kpz::cli

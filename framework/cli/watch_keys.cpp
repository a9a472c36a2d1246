#include "watch_keys.hpp"

#include <unistd.h>

#include <algorithm>

#include "hints.hpp"
#include "watch_screen.hpp"
#include "watch_session.hpp"

namespace kpz::cli {
namespace {

void next_exercise(WatchSession& s) {
  WatchState& st = s.state;
  st.list_view = false;
  st.hint_text.clear();
  st.tests_text.clear();  // the tests of the exercise left behind
  st.focus = Focus::top;
  st.message.clear();
  int next = st.next_open_exercise();
  if (next < 0) {
    next = (st.current + 1) % static_cast<int>(st.exercises.size());
    st.message = s.style.green("Every exercise is solved.") + " n walks through them all the same.";
  }
  st.current = next;
  st.remember_current();
  st.result_text.clear();
  st.error = {};
  // Nothing to check until it builds; a build under way checks the current exercise first.
  if (st.phase == Phase::build_failed || st.phase == Phase::building || s.jobs.build_wanted) return;
  s.jobs.checks.push_front(st.current);
  st.phase = Phase::checking;
}

void show_hint(WatchSession& s) {
  WatchState& st = s.state;
  st.list_view = false;
  try {
    const ExerciseHints h = load_hints(*st.cur().puzzle, *st.cur().variant);
    bool is_new = false;
    const int tier = reveal_next_tier(h, is_new);
    st.focus = Focus::hint;
    st.hint_text =
        s.style.bold("hint " + std::to_string(tier) + " of " + std::to_string(h.tiers) + ": " + tier_name(tier)) +
        (is_new ? "" : " (that was the last one)") + "\n" + render_tier(h, tier);
    if (st.status_of(st.current) == "not attempted") st.status_of(st.current) = "pending";
    s.events.emit(
        "hint", [&](Json& j) { j.set("exercise", st.cur().id()).set("new", is_new).set("hint", hints_json(h, tier)); });
  } catch (const std::exception& e) {
    st.hint_text = std::string("no hint: ") + e.what();
  }
}

void ask_for_tests(WatchSession& s) {
  WatchState& st = s.state;
  st.list_view = false;
  s.jobs.tests_wanted = true;
  st.tests_exercise = st.current;
  st.tests_text = "the tests of " + st.cur().puzzle->name + " run next\n";
  st.focus = Focus::tests;
}

void rerun(WatchSession& s) {
  s.state.focus = Focus::top;
  s.state.message.clear();
  request_build(s, {s.state.cur().puzzle->name}, false);
  s.jobs.saved_at = Clock::now();
  s.jobs.build_from_save = true;  // the time to a result counts from the key
}

void press_key(WatchSession& s, char k) {
  if (k == '\n' || k == '\r' || k == ' ' || k == '\t') return;
  WatchState& st = s.state;
  st.dirty = true;
  s.events.emit("key", [&](Json& j) { j.set("key", std::string(1, k)); });
  const int page = std::max(1, terminal_size().rows / 2);
  switch (k) {
    case 'j':
    case 'J':
      st.scroll += page;
      break;  // clamped when drawn
    case 'k':
    case 'K':
      st.scroll = std::max(0, st.scroll - page);
      break;
    case 'q':
    case 'Q':
    case 4:  // Ctrl-D
      st.quit = true;
      break;
    case 'n':
    case 'N':
      next_exercise(s);
      break;
    case 'h':
    case 'H':
      show_hint(s);
      break;
    case 'l':
    case 'L':
      st.list_view = !st.list_view;
      st.focus = st.list_view ? Focus::list : Focus::top;  // the list opens at the current exercise
      break;
    case 't':
    case 'T':
      ask_for_tests(s);
      break;
    case 'r':
    case 'R':
      rerun(s);
      break;
    default:
      st.message = std::string("unknown key '") + (k >= 32 && k < 127 ? std::string(1, k) : "?") + "': " + key_help();
  }
}

}  // namespace

std::string key_help() {
  return "n next · h hint · l list · r re-run · t tests · q quit";
}

bool read_keys(WatchSession& s) {
  char buf[64];
  const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
  if (n <= 0) return false;
  for (ssize_t i = 0; i < n; ++i) press_key(s, buf[i]);
  return true;
}

}  // namespace kpz::cli

#include "watch_state.hpp"

#include <set>

#include "learner.hpp"

namespace kpz::cli {

WatchState::WatchState(std::vector<Exercise> list) : exercises(std::move(list)), course(course_numbers(exercises)) {
  status.assign(exercises.size(), "?");
}

int WatchState::solved_count() const {
  int n = 0;
  for (const auto& s : status) n += s == "solved";
  return n;
}

std::vector<std::string> WatchState::puzzle_names() const {
  std::set<std::string> names;
  for (const auto& e : exercises) names.insert(e.puzzle->name);
  return {names.begin(), names.end()};
}

bool WatchState::every_exercise_solved(const PuzzleSpec* puzzle) const {
  for (std::size_t i = 0; i < exercises.size(); ++i)
    if (exercises[i].puzzle == puzzle && status[i] != "solved") return false;
  return true;
}

int WatchState::next_open_exercise() const {
  const int n = static_cast<int>(exercises.size());
  for (int step = 1; step <= n; ++step) {
    const int i = (current + step) % n;
    const std::string& s = status[static_cast<std::size_t>(i)];
    if (s != "solved" && s != "cannot run") return i;
  }
  return -1;
}

void WatchState::take_statuses(const Json& list) {
  for (const auto& e : list["exercises"].items()) {
    const int idx = find_exercise(exercises, e["puzzle"].as_string() + "/" + e["variant"].as_string());
    if (idx >= 0) status_of(idx) = e["status"].as_string();
  }
}

void WatchState::choose_start(const std::string& last_session) {
  const int last = find_exercise(exercises, last_session);
  current = -1;
  if (last >= 0 && status_of(last) != "solved") current = last;
  for (std::size_t i = 0; i < exercises.size() && current < 0; ++i)
    if (status[i] != "solved" && status[i] != "cannot run") current = static_cast<int>(i);
  if (current < 0) current = last >= 0 ? last : 0;
  chosen = true;
}

void WatchState::remember_current() const {
  const std::string id = cur().id();
  update_state([&](LearnerState& s) {
    if (s.current() == id) return false;
    s.set_current(id);
    return true;
  });
}

}  // namespace kpz::cli

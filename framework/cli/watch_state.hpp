#pragma once
// What `kpuzzles watch` knows and shows: the course's exercises and their statuses, the current
// exercise, and the blocks of the screen (the last result, a compile error, the tests, a hint,
// a message).
#include <string>
#include <vector>

#include "compile_errors.hpp"
#include "exercises.hpp"
#include "kpz/json.hpp"

namespace kpz::cli {

enum class Phase { starting, building, build_failed, checking, result, crashed };
// Where the body scrolls to when next drawn.
enum class Focus { none, top, list, tests, hint };

struct WatchState {
  std::vector<Exercise> exercises;
  CourseNumbers course;             // the whole course's total and numbering, puzzles not built yet included
  std::vector<std::string> status;  // per exercise, as `kpuzzles list` says; "?" until it did
  int current = 0;
  bool chosen = false;     // the current exercise is set (by the command line or the progress file)
  bool have_list = false;  // `kpuzzles list` answered (or failed)
  bool list_view = false, quit = false;
  bool dirty = true;  // redraw

  Phase phase = Phase::starting;
  TrimmedError error;  // of the last failed build
  bool cmake_missing = false;
  std::string result_text, hint_text, message, crash_text;
  int tests_exercise = -1;  // the exercise whose `t` the tests block answers
  std::string tests_puzzle, tests_text;
  double build_seconds = 0, feedback_seconds = -1;

  Focus focus = Focus::none;
  int scroll = 0;  // the first body line shown on a terminal

  explicit WatchState(std::vector<Exercise> course);

  const Exercise& cur() const { return exercises[static_cast<std::size_t>(current < 0 ? 0 : current)]; }
  std::string& status_of(int exercise) { return status[static_cast<std::size_t>(exercise)]; }
  int solved_count() const;
  std::vector<std::string> puzzle_names() const;
  bool every_exercise_solved(const PuzzleSpec* puzzle) const;
  // The next exercise after the current one (wrapping) that is neither solved nor impossible
  // here, or -1.
  int next_open_exercise() const;

  // The statuses of `kpuzzles list --json`.
  void take_statuses(const Json& list);
  // Where to start when the command line named no puzzle: the exercise of the last session
  // unless it is solved, else the first open one, else the last session's or the first.
  void choose_start(const std::string& last_session);
  // Records the current exercise in the progress file (`kpuzzles hint` and a later watch start
  // there).
  void remember_current() const;
};

}  // namespace kpz::cli

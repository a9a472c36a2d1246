#pragma once
// `kpuzzles watch --json`: one JSON object per line on stdout for each event, {"event": name,
// ...}. The events and their fields:
//   start   watch, build_dir, target                 the loop started
//   build   ok, seconds (+ file, line, in_learner_file, error, cmake_missing when it failed)
//   ready   exercise, solved, total                  the statuses are known, the checks begin
//   result  exercise, pass, status, current, solved, total (+ feedback_seconds, check, and
//           trace_build: a bug hunt's line on the trace build, outside it)
//   tests   puzzle, pass                             the full tests that `t` asked for ran
//   hint    exercise, new, hint
//   key     key
//   building_others  puzzles (comma-separated)   the modules not built yet are being built
//   others_built     ok                           that build ended (ok: watch starts again with them)
//   quit    solved, total
#include <iostream>

#include "kpz/json.hpp"

namespace kpz::cli {

class WatchEvents {
 public:
  explicit WatchEvents(bool on) : on_(on) {}
  bool on() const { return on_; }

  // `fill(Json&)` adds the event's fields; it is not called when events are off.
  template <class F>
  void emit(const char* name, F&& fill) const {
    if (!on_) return;
    Json j = Json::object();
    j.set("event", name);
    fill(j);
    std::cout << j.dump() << '\n' << std::flush;
  }

 private:
  bool on_;
};

}  // namespace kpz::cli

#pragma once
// One `kpuzzles watch` session: where it builds, how it prints, what it shows and its jobs.
// The loop (cmd_watch.cpp) owns it; watch_jobs, watch_results, watch_tests, watch_keys and
// watch_view each change or show one side of it.
#include <string>

#include "file_watcher.hpp"
#include "paths.hpp"
#include "terminal.hpp"
#include "watch_events.hpp"
#include "watch_jobs.hpp"
#include "watch_state.hpp"
#include "watch_view.hpp"

namespace kpz::cli {

struct WatchSession {
  // `start_puzzle` and `start_variant` may be empty (then the progress file decides); `manual`:
  // no file watching.
  WatchSession(bool tty, bool json, bool manual, const std::string& start_puzzle, const std::string& start_variant);

  const LearnerPaths& paths;
  bool tty;
  Style style;
  WatchEvents events;
  WatchState state;
  FileWatcher watcher;
  JobQueue jobs;
  DrawnScreen drawn;
};

}  // namespace kpz::cli

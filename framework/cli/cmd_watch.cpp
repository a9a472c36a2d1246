// kpuzzles watch [puzzle] [--variant v]: the learner loop. On every save under exercises/ it
// rebuilds kpuzzles through the learner's build tree (only the saved exercise's object is
// recompiled), re-runs the checks with the freshly built program (a child process: this one
// still runs the old code), and redraws: the exercise, pass/fail with the first mismatches or
// the first compile error in the learner's file, the progress, and the keys.
//
// This file is the loop: it waits on stdin, the file watcher and the child, and hands what
// happened to the session's parts (watch_jobs, watch_results, watch_tests, watch_keys,
// watch_view; watch_events lists the --json events).
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "learner.hpp"
#include "process.hpp"
#include "puzzle_flags.hpp"
#include "puzzle_modules.hpp"
#include "watch_keys.hpp"
#include "watch_session.hpp"

namespace kpz::cli {
namespace {

// run_watch's answer when the puzzles not built at its start are built: watch starts again.
constexpr int kReloadWatch = -1;

volatile sig_atomic_t g_stop = 0;
void on_stop(int) {
  g_stop = 1;
}

std::string forced_watcher(bool manual) {
  if (manual) return "none";
  const char* forced = std::getenv("KPZ_WATCH");
  return forced ? forced : "";
}

int run_watch(WatchSession& s) {
  require_source_tree(s.paths, "watch");
  if (!std::ifstream(s.paths.build_dir + "/CMakeCache.txt"))
    throw std::runtime_error("'kpuzzles watch' rebuilds through the build tree " + s.paths.build_dir +
                             ", which is not configured: run `cmake --preset openmp` first, or set KPZ_BUILD_DIR");
  RawMode raw;  // single keys on a terminal; restored on exit and on signals
  // Ctrl-C, SIGTERM, SIGHUP end the loop normally: the build is killed, the terminal restored.
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  if (s.tty) std::cout << "\033[?25l" << std::flush;  // hide the cursor while we redraw
  request_build(s, {}, false);
  s.jobs.rest_wanted = !unbuilt_puzzles().empty();
  s.events.emit("start", [&](Json& j) {
    j.set("watch", s.watcher.describe()).set("build_dir", s.paths.build_dir).set("target", s.paths.build_target);
  });
  bool stdin_open = true;
  while (!s.state.quit) {
    if (g_stop) break;
    start_next_job(s);
    draw(s);
    std::vector<pollfd> fds;
    if (stdin_open) fds.push_back({STDIN_FILENO, POLLIN, 0});
    if (s.watcher.fd() >= 0) fds.push_back({s.watcher.fd(), POLLIN, 0});
    if (s.jobs.child.running() && s.jobs.child.output_fd() >= 0) fds.push_back({s.jobs.child.output_fd(), POLLIN, 0});
    int timeout = 1000;
    if (s.watcher.backend() == FileWatcher::Backend::polling) timeout = std::min(timeout, s.watcher.poll_interval_ms());
    if (s.jobs.build_wanted) timeout = std::min(timeout, 100);
    poll(fds.data(), fds.size(), timeout);
    if (stdin_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) stdin_open = read_keys(s);
    const auto saved = s.watcher.collect();  // polling rescans at most once per interval
    if (!saved.empty()) on_saved(s, saved);
    reap_job(s);
    if (!stdin_open && s.jobs.idle()) s.state.quit = true;
  }
  stop_job(s);
  if (s.jobs.reload) {
    if (s.tty) std::cout << "\033[?25h" << std::flush;
    return kReloadWatch;
  }
  draw(s);  // the last result, when stdin ended and the loop finished its work
  if (s.tty) std::cout << "\033[?25h" << std::flush;
  const int solved = s.state.solved_count();
  const int total = s.state.course.total;
  s.events.emit("quit", [&](Json& j) { j.set("solved", solved).set("total", total); });
  if (!s.events.on()) std::cout << "\nbye: " << solved << " of " << total << " exercises solved\n";
  return 0;
}

}  // namespace

WatchSession::WatchSession(bool on_terminal, bool json, bool manual, const std::string& start_puzzle,
                           const std::string& start_variant)
    : paths(learner_paths()),
      tty(on_terminal),
      style{on_terminal && use_color()},
      events(json),
      state(course_exercises()),
      watcher(paths.exercises_dir(), state.puzzle_names(), forced_watcher(manual)) {
  if (!start_puzzle.empty()) {
    const PuzzleSpec& spec = find_puzzle({start_puzzle}, "watch");
    const VariantSpec& v = pick_variant(spec, start_variant, load_state());
    state.current = find_exercise(state.exercises, spec.name + "/" + v.name);
    state.chosen = true;
  } else if (!start_variant.empty()) {
    throw UsageError("'kpuzzles watch --variant' needs a puzzle: kpuzzles watch <puzzle> --variant <name>");
  }
}

int cmd_watch(const std::vector<std::string>& args) {
  const ParsedFlags flags =
      parse_flags(args, {{"variant", true}, {"no-tty", false}, {"manual", false}, {"json", false}}, "'kpuzzles watch'");
  if (flags.positional.size() > 1) throw UsageError("'kpuzzles watch' takes at most one puzzle");
  run_watch_from_build_tree(args);  // a copy would re-check stale code
  const bool tty = !flags.has("no-tty") && !flags.has("json") && stdin_is_terminal() && stdout_is_terminal();
  const auto v = flags.values.find("variant");
  std::string on_puzzle, on_variant;  // the exercise on the screen when watch starts again
  {
    WatchSession session(tty, flags.has("json"), flags.has("manual"),
                         flags.positional.empty() ? "" : flags.positional.front(),
                         v == flags.values.end() ? "" : v->second);
    const int rc = run_watch(session);
    if (rc != kReloadWatch) return rc;
    if (!session.state.exercises.empty()) {
      on_puzzle = session.state.cur().puzzle->name;
      on_variant = session.state.cur().variant->name;
    }
  }
  // Every puzzle is built now: the same watch again, at the exercise the learner is on, with
  // every puzzle loaded.
  if (!flags.has("json")) std::cout << "\nkpuzzles: every puzzle is built; watch starts again with all of them\n";
  std::vector<std::string> words{learner_paths().self, "watch"};
  if (!on_puzzle.empty()) words.insert(words.end(), {on_puzzle, "--variant", on_variant});
  for (const char* f : {"no-tty", "manual", "json"})
    if (flags.has(f)) words.push_back(std::string("--") + f);
  replace_process(words);
}

}  // namespace kpz::cli

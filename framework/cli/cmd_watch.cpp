// kpuzzles watch [puzzle] [--variant v]: the learner loop. On every save under exercises/ it
// rebuilds kpuzzles through the learner's build tree (only the saved exercise's object is
// recompiled), re-runs the checks with the freshly built program (a child process: this one
// still runs the old code), and redraws: the exercise, pass/fail with the first mismatches or
// the first compile error in the learner's file, the progress, and the keys.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "cli.hpp"
#include "compile_errors.hpp"
#include "docs_text.hpp"
#include "exercises.hpp"
#include "file_watcher.hpp"
#include "freshness.hpp"
#include "hints.hpp"
#include "kpz/errors.hpp"
#include "kpz/space_names.hpp"
#include "learner.hpp"
#include "process.hpp"
#include "puzzle_flags.hpp"
#include "watch_render.hpp"
#include "watch_screen.hpp"
#include "terminal.hpp"
#include "time_limit.hpp"

namespace kpz::cli {
namespace {

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string fixed1(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

// The last line of `out` that parses as a JSON object (the child's --json answer).
bool last_json_line(const std::string& out, Json& j) {
  std::istringstream in(out);
  bool found = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '{') continue;
    try {
      j = Json::parse(line);
      found = true;
    } catch (const JsonError&) {
    }
  }
  return found;
}

std::string tail_lines(const std::string& text, int n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - n : 0; i < lines.size(); ++i)
    out += "  " + lines[i] + "\n";
  return out;
}

class Watch {
 public:
  Watch(bool tty, bool json, bool manual, const std::string& start_puzzle, const std::string& start_variant)
      : paths_(learner_paths()),
        tty_(tty),
        json_(json),
        style_{tty && use_color()},
        exercises_(course_exercises()),
        watcher_(paths_.exercises_dir(), puzzle_names(),
                 manual ? "none" : (std::getenv("KPZ_WATCH") ? std::getenv("KPZ_WATCH") : "")) {
    status_.assign(exercises_.size(), "?");
    if (!start_puzzle.empty()) {
      const PuzzleSpec& spec = find_puzzle({start_puzzle}, "watch");
      const VariantSpec& v = pick_variant(spec, start_variant, load_state());
      current_ = find_exercise(exercises_, spec.name + "/" + v.name);
      chosen_ = true;
    } else if (!start_variant.empty()) {
      throw UsageError("'kpuzzles watch --variant' needs a puzzle: kpuzzles watch <puzzle> --variant <name>");
    }
  }

  int run() {
    require_source_tree(paths_, "watch");
    if (!std::ifstream(paths_.build_dir + "/CMakeCache.txt"))
      throw std::runtime_error("'kpuzzles watch' rebuilds through the build tree " + paths_.build_dir +
                               ", which is not configured: run `cmake --preset openmp` first, or set KPZ_BUILD_DIR");
    RawMode raw;  // single keys on a terminal; restored on exit and on signals
    // Ctrl-C, SIGTERM, SIGHUP end the loop normally: the build is killed, the terminal restored.
    struct sigaction sa {};
    sa.sa_handler = on_stop;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    if (tty_) std::cout << "\033[?25l" << std::flush;  // hide the cursor while we redraw
    request_build({}, false);
    emit_event("start", [&](Json& j) {
      j.set("watch", watcher_.describe()).set("build_dir", paths_.build_dir).set("target", paths_.build_target);
    });
    bool stdin_open = true;
    while (!quit_) {
      if (g_stop) break;
      start_next_job();
      draw();
      std::vector<pollfd> fds;
      if (stdin_open) fds.push_back({STDIN_FILENO, POLLIN, 0});
      const int watch_at = static_cast<int>(fds.size());
      if (watcher_.fd() >= 0) fds.push_back({watcher_.fd(), POLLIN, 0});
      if (child_.running() && child_.output_fd() >= 0) fds.push_back({child_.output_fd(), POLLIN, 0});
      int timeout = 1000;
      if (watcher_.backend() == FileWatcher::Backend::polling) timeout = std::min(timeout, watcher_.poll_interval_ms());
      if (build_wanted_) timeout = std::min(timeout, 100);
      poll(fds.data(), fds.size(), timeout);
      if (stdin_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) stdin_open = read_keys();
      if (watch_at < static_cast<int>(fds.size()) || watcher_.backend() == FileWatcher::Backend::polling) {
        const auto changed = watcher_.collect();
        if (!changed.empty()) {
          // Their result would be stale; a check may also hang (an endless loop) until the fix.
          if (job_ == Job::test_build || job_ == Job::test_run || job_ == Job::check) {
            child_.kill_now();
            job_ = Job::none;
          }
          request_build(changed, true);
        }
      }
      if (child_.running()) {
        ProcessResult r;
        if (child_.finished(r)) job_done(r);
        else if (job_ == Job::check && seconds_since(job_start_) > kCheckTimeout) {
          ProcessResult t;
          t.timed_out = true;
          t.output = child_.output();
          child_.kill_now();
          job_done(t);
        }
      }
      if (!stdin_open && !child_.running() && !build_wanted_ && checks_.empty() && !list_wanted_ && !tests_wanted_)
        quit_ = true;
    }
    child_.kill_now();
    draw();  // the last result, when stdin ended and the loop finished its work
    if (tty_) std::cout << "\033[?25h" << std::flush;
    emit_event("quit", [&](Json& j) { j.set("solved", solved_count()).set("total", exercises_.size()); });
    if (!json_) std::cout << "\nbye: " << solved_count() << " of " << exercises_.size() << " exercises solved\n";
    return 0;
  }

 private:
  enum class Job { none, build, list, check, test_build, test_run };
  static constexpr double kCheckTimeout = 120;

  std::vector<std::string> puzzle_names() const {
    std::set<std::string> names;
    for (const auto& e : exercises_) names.insert(e.puzzle->name);
    return {names.begin(), names.end()};
  }

  int solved_count() const {
    int n = 0;
    for (const auto& s : status_) n += s == "solved";
    return n;
  }

  const Exercise& cur() const { return exercises_[static_cast<std::size_t>(current_ < 0 ? 0 : current_)]; }

  // ---- jobs: one child at a time (build, then the list once, then checks) ----

  void request_build(const std::set<std::string>& puzzles, bool from_save) {
    for (const auto& p : puzzles) changed_.insert(p);
    if (!build_wanted_) saved_at_ = Clock::now();
    if (from_save) {
      message_.clear();
      tests_text_.clear();
    }
    build_wanted_ = true;
    build_from_save_ = from_save;
    debounce_until_ = Clock::now() + std::chrono::milliseconds(from_save ? 250 : 0);
    dirty_ = true;
  }

  void start_next_job() {
    if (child_.running()) return;
    if (tests_wanted_ && !build_wanted_) {
      tests_wanted_ = false;
      tests_puzzle_ = cur().puzzle->name;
      tests_text_ = "building the tests of " + tests_puzzle_ + " ...\n";
      start_job(Job::test_build, -1,
                {paths_.cmake, "--build", paths_.build_dir, "--target", "kpz_test_" + tests_puzzle_ + "_exercise"});
      return;
    }
    if (build_wanted_ && Clock::now() >= debounce_until_) {
      building_ = changed_;
      changed_.clear();
      build_wanted_ = false;
      checks_.clear();
      start_job(Job::build, -1, {paths_.cmake, "--build", paths_.build_dir, "--target", paths_.build_target});
      phase_ = Phase::building;
      return;
    }
    if (build_wanted_) return;
    if (list_wanted_) {
      list_wanted_ = false;
      start_job(Job::list, -1, {paths_.self, "list", "--json"});
      return;
    }
    if (!checks_.empty()) {
      const int idx = checks_.front();
      checks_.pop_front();
      const Exercise& e = exercises_[static_cast<std::size_t>(idx)];
      start_job(Job::check, idx, {paths_.self, "check", e.puzzle->name, "--variant", e.variant->name, "--json"});
      if (idx == current_) phase_ = Phase::checking;
    }
  }

  void start_job(Job job, int exercise, const std::vector<std::string>& argv, const EnvList& env = {}) {
    job_ = job;
    job_exercise_ = exercise;
    job_start_ = Clock::now();
    if (!child_.start(argv, env)) {
      ProcessResult r;
      r.started = false;
      r.output = child_.output();
      job_done(r);
    }
    dirty_ = true;
  }

  void job_done(const ProcessResult& r) {
    const Job job = job_;
    job_ = Job::none;
    dirty_ = true;
    if (job == Job::build) build_done(r);
    else if (job == Job::list) list_done(r);
    else if (job == Job::check) check_done(job_exercise_, r);
    else if (job == Job::test_build) test_build_done(r);
    else if (job == Job::test_run) test_run_done(r);
  }

  // t: the puzzle's whole GoogleTest suite against the learner's code (the CTest test
  // <puzzle>/learner, as `ctest --preset learner` runs it): more sizes, team sizes and thread
  // counts than the exercise's cases.
  void test_build_done(const ProcessResult& r) {
    if (!r.ok()) {
      if (r.output.find("unknown target") != std::string::npos)
        tests_text_ = "this build tree has no tests (configured with KPZ_BUILD_TESTS=OFF)\n";
      else
        tests_text_ = style_.red("the tests do not build") + ":\n" +
                      trim_compile_errors(r.output, exercise_files(paths_, tests_puzzle_), paths_.source_dir).text;
      return;
    }
    // The test's command and environment as CMake registered them for CTest. Running it
    // directly leaves CTest's logs (Testing/Temporary) to the learner's own ctest runs.
    const std::string name = tests_puzzle_ + "/learner";
    std::vector<std::string> argv;
    EnvList env;
    registered_test(name, argv, env);
    if (argv.empty()) {
      tests_text_ = "no test " + name + " in " + paths_.build_dir + "/tests/CTestTestfile.cmake\n";
      return;
    }
    tests_text_ = "running the tests of " + tests_puzzle_ + " (" + name + ") ...\n";
    start_job(Job::test_run, -1, argv, env);
  }

  // Reads add_test([=[name]=] "exe" "arg" ...) and its ENVIRONMENT property from the
  // CTestTestfile.cmake that CMake generates for tests/.
  void registered_test(const std::string& name, std::vector<std::string>& argv, EnvList& env) const {
    std::istringstream in(read_text_file(paths_.build_dir + "/tests/CTestTestfile.cmake"));
    const std::string tag = "[=[" + name + "]=]";
    auto quoted = [](const std::string& line, std::size_t from) {
      std::vector<std::string> out;
      for (std::size_t i = from; i < line.size(); ++i) {
        if (line[i] != '"') continue;
        std::string tok;
        for (++i; i < line.size() && line[i] != '"'; ++i) tok += line[i] == '\\' && i + 1 < line.size() ? line[++i] : line[i];
        out.push_back(tok);
      }
      return out;
    };
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("add_test(" + tag + " ", 0) == 0) {
        argv = quoted(line, tag.size() + 9);
      } else if (line.rfind("set_tests_properties(" + tag + " ", 0) == 0) {
        const auto at = line.find(" ENVIRONMENT \"");
        if (at == std::string::npos) continue;
        const std::vector<std::string> values = quoted(line, at + 12);
        if (values.empty()) continue;
        std::istringstream vars(values.front());
        for (std::string kv; std::getline(vars, kv, ';');)
          if (const auto eq = kv.find('='); eq != std::string::npos) env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
      }
    }
  }

  void test_run_done(const ProcessResult& r) {
    const bool pass = r.ok();
    tests_text_ = render_test_run(style_, tests_puzzle_, r.output, pass);
    focus_ = Focus::tests;
    emit_event("tests", [&](Json& j) { j.set("puzzle", tests_puzzle_).set("pass", pass); });
  }

  void build_done(const ProcessResult& r) {
    build_seconds_ = seconds_since(job_start_);
    {
      std::ofstream log(paths_.build_dir + "/kpuzzles-watch-build.log", std::ios::trunc);
      log << r.output;
    }
    if (!r.ok()) {
      phase_ = Phase::build_failed;
      std::vector<std::string> files;
      for (const auto& e : exercises_)
        if (building_.empty() || building_.count(e.puzzle->name))
          for (const auto& f : exercise_files(paths_, e.puzzle->name)) files.push_back(f);
      error_ = trim_compile_errors(r.output, files, paths_.source_dir);
      if (!r.started) error_.text = r.output;
      // Child exits 127 with "cannot run <cmake>: ..." when exec fails: no compiler ever ran.
      const std::string no_exec = "cannot run " + paths_.cmake + ": ";
      cmake_missing_ = r.exit_code == 127 && r.output.rfind(no_exec, 0) == 0;
      if (cmake_missing_)
        error_.text = "cmake not found: " + quoted(paths_.cmake) + " cannot be started (" +
                      r.output.substr(no_exec.size(), r.output.find('\n') - no_exec.size()) +
                      "); install CMake 3.22 or newer, or set KPZ_CMAKE to its path\n";
      emit_event("build", [&](Json& j) {
        j.set("ok", false).set("seconds", build_seconds_).set("file", error_.file).set("line", error_.line);
        j.set("in_learner_file", error_.in_learner_file).set("error", error_.text).set("cmake_missing", cmake_missing_);
      });
      if (build_from_save_) feedback_seconds_ = seconds_since(saved_at_);
      return;
    }
    emit_event("build", [&](Json& j) { j.set("ok", true).set("seconds", build_seconds_); });
    if (build_wanted_) return;  // saved again meanwhile: rebuild first
    if (!have_list_) {
      list_wanted_ = true;
      return;
    }
    queue_checks_after_build();
  }

  void queue_checks_after_build() {
    checks_.clear();
    std::set<std::string> puzzles = building_;
    if (puzzles.empty()) puzzles.insert(cur().puzzle->name);
    checks_.push_back(current_);
    for (std::size_t i = 0; i < exercises_.size(); ++i)
      if (static_cast<int>(i) != current_ && puzzles.count(exercises_[i].puzzle->name)) checks_.push_back(static_cast<int>(i));
    check_pending_feedback_ = build_from_save_;
  }

  void list_done(const ProcessResult& r) {
    Json j;
    if (!r.ok() || !last_json_line(r.output, j)) {
      phase_ = Phase::crashed;
      crash_text_ = "`kpuzzles list` failed" + std::string(r.signal ? " with " + describe_signal(r.signal) : "") +
                    ": one of your exercises may crash; the checks of the current one follow.\n" + tail_lines(r.output, 8);
    } else {
      for (const auto& e : j["exercises"].items()) {
        const int idx = find_exercise(exercises_, e["puzzle"].as_string() + "/" + e["variant"].as_string());
        if (idx >= 0) status_[static_cast<std::size_t>(idx)] = e["status"].as_string();
      }
    }
    have_list_ = true;
    if (!chosen_) {
      const LearnerState state = load_state();
      const int last = find_exercise(exercises_, state.current());
      current_ = -1;
      if (last >= 0 && status_[static_cast<std::size_t>(last)] != "solved") current_ = last;
      for (std::size_t i = 0; i < exercises_.size() && current_ < 0; ++i)
        if (status_[i] != "solved" && status_[i] != "cannot run") current_ = static_cast<int>(i);
      if (current_ < 0) current_ = last >= 0 ? last : 0;
      chosen_ = true;
    }
    remember_current();
    checks_ = {current_};
    emit_event("ready", [&](Json& j) {
      j.set("exercise", cur().id()).set("solved", solved_count()).set("total", exercises_.size());
    });
  }

  void check_done(int idx, const ProcessResult& r) {
    const Exercise& e = exercises_[static_cast<std::size_t>(idx)];
    Json j;
    std::string text;
    bool pass = false, understood = false, bug_hunt = false;
    if (!r.started) {
      text = "cannot start the checker: " + r.output;
    } else if (r.timed_out || r.exit_code == kExitTimeLimit) {  // watch's limit, or check's own
      text = style_.red("TIMED OUT") + " after " + fixed1(r.timed_out ? kCheckTimeout : seconds_since(job_start_)) +
             " s: an endless loop in " +
             e.label() + "? (a barrier that not every member reaches also hangs)\n" + tail_lines(r.output, 5);
    } else if (r.signal) {
      text = style_.red("CRASHED") + ": the check of " + e.label() + " ended with " + describe_signal(r.signal) +
             ".\n  An index out of range? Build the openmp-debug preset (bounds checking) and run\n  kpuzzles run " +
             e.puzzle->name + " --" + e.variant->name + " there.\n" + tail_lines(r.output, 5);
    } else if (last_json_line(r.output, j) && !j["exercises"].items().empty()) {
      understood = true;
      const Json& ex = j["exercises"].items().front();
      pass = ex["pass"].as_bool();
      text = render_check_result(style_, e.label(), e.puzzle->name, ex);
      if (pass && ex["untraced_bug_hunt"].as_bool()) {
        // A bug hunt passes by luck outside the trace build: not solved, and said so.
        bug_hunt = true;
        pass = false;
        text += "\nbug hunt: this passes by luck here; `kpuzzles trace " + e.puzzle->name + " --" + e.variant->name +
                "` in the trace build tells whether it is fixed\n";
      }
    } else {
      text = "the checker answered (exit " + std::to_string(r.exit_code) + "):\n" + tail_lines(r.output, 10);
    }
    std::string& st = status_[static_cast<std::size_t>(idx)];
    const bool newly = pass && st != "solved";
    if (pass) st = "solved";
    else if (bug_hunt) st = "bug hunt";
    else if (understood && !j["exercises"].items().front()["cases"].items().empty() &&
             !j["exercises"].items().front()["cases"].items().back()["usage_error"].is_null())
      st = "cannot run";
    else if (load_state().solved(e.puzzle->name, e.variant->name))
      st = "solved";  // passed before: solved stays solved, as in `list` and `solution`
    else if (st == "solved" || st == "?" || st == "not attempted")
      st = exercise_untouched(paths_, e.puzzle->name, e.variant->function) ? "not attempted" : "pending";
    if (idx == current_) {
      result_text_ = text;
      phase_ = Phase::result;
      if (!list_view_) focus_ = Focus::top;
      if (check_pending_feedback_) {
        feedback_seconds_ = seconds_since(saved_at_);
        check_pending_feedback_ = false;
      }
      if (newly) message_ = style_.green(e.label() + " is solved.") + " Press n for the next exercise.";
    }
    if (newly) puzzle_solved_message(e);
    emit_event("result", [&](Json& o) {
      o.set("exercise", e.id()).set("pass", pass).set("status", st).set("current", idx == current_);
      o.set("solved", solved_count()).set("total", exercises_.size());
      if (idx == current_ && feedback_seconds_ >= 0) o.set("feedback_seconds", feedback_seconds_);
      if (understood) o.set("check", j["exercises"].items().front());
    });
  }

  void puzzle_solved_message(const Exercise& e) {
    for (std::size_t i = 0; i < exercises_.size(); ++i)
      if (exercises_[i].puzzle == e.puzzle && status_[i] != "solved") return;
    message_ = style_.green("Every exercise of " + e.puzzle->name + " is solved!") + " `kpuzzles solution " +
               e.puzzle->name + "` shows the reference and why it is written that way.";
  }

  // ---- keys ----

  // false once stdin is closed
  bool read_keys() {
    char buf[64];
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) return false;
    for (ssize_t i = 0; i < n; ++i) key(buf[i]);
    return true;
  }

  void key(char k) {
    if (k == '\n' || k == '\r' || k == ' ' || k == '\t') return;
    dirty_ = true;
    emit_event("key", [&](Json& j) { j.set("key", std::string(1, k)); });
    switch (k) {
      case 'j':
      case 'J': scroll_ += std::max(1, terminal_size().rows / 2); break;  // clamped when drawn
      case 'k':
      case 'K': scroll_ = std::max(0, scroll_ - std::max(1, terminal_size().rows / 2)); break;
      case 'q':
      case 'Q':
      case 4:  // Ctrl-D
        quit_ = true;
        break;
      case 'n':
      case 'N': next_exercise(); break;
      case 'h':
      case 'H': show_hint(); break;
      case 'l':
      case 'L':
        list_view_ = !list_view_;
        focus_ = list_view_ ? Focus::list : Focus::top;  // the list opens at the current exercise
        break;
      case 't':
      case 'T':
        list_view_ = false;
        tests_wanted_ = true;
        tests_exercise_ = current_;
        tests_text_ = "the tests of " + cur().puzzle->name + " run next\n";
        focus_ = Focus::tests;
        break;
      case 'r':
      case 'R':
        focus_ = Focus::top;
        message_.clear();
        request_build({cur().puzzle->name}, false);
        saved_at_ = Clock::now();
        build_from_save_ = true;  // the time to a result counts from the key
        break;
      default: message_ = std::string("unknown key '") + (k >= 32 && k < 127 ? std::string(1, k) : "?") + "': " + key_help();
    }
  }

  void next_exercise() {
    list_view_ = false;
    hint_text_.clear();
    tests_text_.clear();  // the tests of the exercise left behind
    focus_ = Focus::top;
    message_.clear();
    const int n = static_cast<int>(exercises_.size());
    int next = -1;
    for (int step = 1; step <= n && next < 0; ++step) {
      const int i = (current_ + step) % n;
      if (status_[static_cast<std::size_t>(i)] != "solved" && status_[static_cast<std::size_t>(i)] != "cannot run") next = i;
    }
    if (next < 0) {
      next = (current_ + 1) % n;
      message_ = style_.green("Every exercise is solved.") + " n walks through them all the same.";
    }
    current_ = next;
    remember_current();
    result_text_.clear();
    error_ = {};
    // Nothing to check until it builds; a build under way checks the current exercise first.
    if (phase_ == Phase::build_failed || phase_ == Phase::building || build_wanted_) return;
    checks_.push_front(current_);
    phase_ = Phase::checking;
  }

  void show_hint() {
    list_view_ = false;
    try {
      const ExerciseHints h = load_hints(*cur().puzzle, *cur().variant);
      bool is_new = false;
      const int tier = reveal_next_tier(h, is_new);
      focus_ = Focus::hint;
      hint_text_ = style_.bold("hint " + std::to_string(tier) + " of " + std::to_string(h.tiers) + ": " + tier_name(tier)) +
                   (is_new ? "" : " (that was the last one)") + "\n" + render_tier(h, tier);
      if (status_[static_cast<std::size_t>(current_)] == "not attempted") status_[static_cast<std::size_t>(current_)] = "pending";
      emit_event("hint", [&](Json& j) {
        j.set("exercise", cur().id()).set("new", is_new).set("hint", hints_json(h, tier));
      });
    } catch (const std::exception& e) {
      hint_text_ = std::string("no hint: ") + e.what();
    }
  }

  void remember_current() {
    const std::string id = cur().id();
    update_state([&](LearnerState& s) {
      if (s.current() == id) return false;
      s.set_current(id);
      return true;
    });
  }

  // ---- output ----

  static std::string key_help() { return "n next · h hint · l list · r re-run · t tests · q quit"; }

  // Where the body's blocks start (line numbers), for the focus of a fitted screen.
  struct Screen {
    ScreenParts parts;
    int current_line = -1, tests_line = -1, hint_line = -1;
  };
  static int line_count(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

  template <class F>
  void emit_event(const char* name, F&& fill) {
    if (!json_) return;
    Json j = Json::object();
    j.set("event", name);
    fill(j);
    std::cout << j.dump() << '\n' << std::flush;
  }

  Screen screen() const {
    Screen out;
    std::string& head = out.parts.header;
    std::string& s = out.parts.body;
    std::string& foot = out.parts.footer;
    const std::size_t total = exercises_.size();
    head += style_.bold("kpuzzles watch") + " · " + default_space_name() + " · build tree " + paths_.build_dir + "\n\n";
    if (current_ >= 0 && have_list_) {
      const Exercise& e = cur();
      head += style_.bold(e.label()) + "  (exercise " + std::to_string(current_ + 1) + " of " + std::to_string(total) +
              ")  " + e.variant->summary + "\n";
      head += "edit " + exercise_file_for(paths_, e.puzzle->name, e.variant->function) +
              (e.variant->function.empty() ? "" : ", function " + e.variant->function) + "\n\n";
    }
    if (list_view_) {
      for (std::size_t i = 0; i < total; ++i) {
        char line[200];
        std::snprintf(line, sizeof line, "%s %2zu  %-30s %s\n", static_cast<int>(i) == current_ ? ">" : " ", i + 1,
                      exercises_[i].label().c_str(), status_[i] == "?" ? "..." : status_[i].c_str());
        if (static_cast<int>(i) == current_) out.current_line = line_count(s);
        s += line;
      }
      s += "(l: back)\n";
    } else {
      switch (phase_) {
        case Phase::building:
          s += "building" + (tty_ ? " (" + fixed1(seconds_since(job_start_)) + " s)" : std::string()) + " ...\n";
          break;
        case Phase::build_failed:
          s += style_.red(cmake_missing_ ? "CMAKE NOT FOUND" : "COMPILE ERROR") +
               (error_.in_learner_file ? "  in " + error_.file + ":" + std::to_string(error_.line) : std::string()) + "\n";
          s += error_.text;
          s += "(all of it: " + paths_.build_dir + "/kpuzzles-watch-build.log)\n";
          break;
        case Phase::checking:
          s += "checking " + cur().label() + " ..." +
               (tty_ && job_ == Job::check
                    ? " (" + fixed1(seconds_since(job_start_)) + " s; stopped at " + fixed1(kDefaultTimeLimit) +
                          " s, or when you save)"
                    : std::string()) +
               "\n";
          if (!result_text_.empty()) s += style_.dim("(last result)") + "\n" + result_text_;
          break;
        case Phase::crashed: s += crash_text_; break;
        case Phase::result: s += result_text_; break;
        case Phase::starting: s += "starting ...\n"; break;
      }
      if (!tests_text_.empty() && tests_exercise_ == current_) {
        s += "\n";
        out.tests_line = line_count(s);
        s += tests_text_;
      }
      if (!hint_text_.empty()) {
        s += "\n";
        out.hint_line = line_count(s);
        s += hint_text_ + "\n";
      }
    }
    if (!message_.empty()) foot += "\n" + message_ + "\n";
    foot += "\n";
    if (tty_) foot += "progress " + progress_bar(solved_count(), static_cast<int>(total), 30, style_.color) + " solved";
    else foot += "progress: " + std::to_string(solved_count()) + " of " + std::to_string(total) + " exercises solved";
    if (feedback_seconds_ >= 0 && phase_ != Phase::building)
      foot += "   (last save to result: " + fixed1(feedback_seconds_) + " s, build " + fixed1(build_seconds_) + " s)";
    foot += "\n" + key_help() + "   ";
    if (watcher_.backend() == FileWatcher::Backend::none)
      foot += style_.yellow("file watching is unavailable (" + watcher_.why_not() +
                            "): manual mode, save and press r to rebuild and re-check");
    else foot += "watching exercises/ for saves (" + watcher_.describe() + ")";
    foot += "\n";
    return out;
  }

  // On a terminal the screen fits its window (issue 19, item 14): the header and the keys stay,
  // long output pages with j / k. Piped, every line prints (a log for scripts).
  void draw() {
    if (json_) return;
    const bool ticking = tty_ && (phase_ == Phase::building || phase_ == Phase::checking || job_ == Job::test_run ||
                                  job_ == Job::test_build);
    const ScreenSize size = tty_ ? terminal_size() : ScreenSize{};
    const bool resized = tty_ && (size.rows != drawn_size_.rows || size.cols != drawn_size_.cols);
    if (!dirty_ && !resized && !(ticking && seconds_since(last_draw_) >= 1.0)) return;
    dirty_ = false;
    const Screen sc = screen();
    std::string s;
    if (tty_) {
      const int room = std::max(1, size.rows - 1 - line_count(sc.parts.header) - line_count(sc.parts.footer) - 1);
      if (focus_ == Focus::top) scroll_ = 0;
      else if (focus_ == Focus::list && sc.current_line >= 0) scroll_ = centred_first(sc.current_line, room);
      else if (focus_ == Focus::tests && sc.tests_line >= 0) scroll_ = sc.tests_line;
      else if (focus_ == Focus::hint && sc.hint_line >= 0) scroll_ = sc.hint_line;
      focus_ = Focus::none;
      s = fit_screen(sc.parts, size, scroll_);
      drawn_size_ = size;
    } else {
      s = sc.parts.header + sc.parts.body + sc.parts.footer;
    }
    if (!tty_ && s == last_screen_) return;
    last_screen_ = s;
    last_draw_ = Clock::now();
    if (tty_) std::cout << "\033[H\033[2J" << s << std::flush;
    else std::cout << "----\n" << s << std::flush;
  }

  enum class Phase { starting, building, build_failed, checking, result, crashed };

  const LearnerPaths& paths_;
  bool tty_, json_;
  Style style_;
  std::vector<Exercise> exercises_;
  FileWatcher watcher_;
  std::vector<std::string> status_;
  int current_ = 0;
  bool chosen_ = false, have_list_ = false, quit_ = false, dirty_ = true, list_view_ = false;

  Child child_;
  Job job_ = Job::none;
  int job_exercise_ = -1;
  Clock::time_point job_start_{}, debounce_until_{}, saved_at_{}, last_draw_{};
  bool build_wanted_ = false, build_from_save_ = false, list_wanted_ = false, check_pending_feedback_ = false;
  bool tests_wanted_ = false;
  int tests_exercise_ = -1;  // the exercise whose `t` the tests block answers
  std::string tests_puzzle_, tests_text_;
  enum class Focus { none, top, list, tests, hint };
  Focus focus_ = Focus::none;  // where the body scrolls to when next drawn
  int scroll_ = 0;             // the first body line shown on a terminal
  ScreenSize drawn_size_{};
  std::set<std::string> changed_, building_;
  std::deque<int> checks_;

  Phase phase_ = Phase::starting;
  TrimmedError error_;
  std::string result_text_, hint_text_, message_, crash_text_, last_screen_;
  double build_seconds_ = 0, feedback_seconds_ = -1;
  bool cmake_missing_ = false;
};

}  // namespace

int cmd_watch(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args,
                                        {{"variant", true, "start at this variant of the puzzle"},
                                         {"no-tty", false, "plain output, keys as lines on stdin (for scripts)"},
                                         {"manual", false, "no file watching: press r to rebuild and re-check"},
                                         {"json", false, "one JSON object per event, keys as lines on stdin"}},
                                        "'kpuzzles watch'");
  if (flags.positional.size() > 1) throw UsageError("'kpuzzles watch' takes at most one puzzle");
  run_watch_from_build_tree(args);  // a copy would re-check stale code (issue 19, item 9)
  const bool tty = !flags.has("no-tty") && !flags.has("json") && stdin_is_terminal() && stdout_is_terminal();
  const auto v = flags.values.find("variant");
  Watch w(tty, flags.has("json"), flags.has("manual"), flags.positional.empty() ? "" : flags.positional.front(),
          v == flags.values.end() ? "" : v->second);
  return w.run();
}

}  // namespace kpz::cli

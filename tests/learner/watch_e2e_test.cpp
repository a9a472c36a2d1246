// `kpuzzles watch` end to end in a pseudo-terminal, on the sandbox copy of one puzzle's
// exercise (never on exercises/): the skeleton fails; a compile error shows trimmed to the
// learner's line; replacing the skeleton by the reference shows the pass and the progress
// advances; the keys work; manual mode and polling work where file watching is not available;
// piped output is plain text. Prints how long a save took to show its result.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "docs_text.hpp"
#include "kpz/json.hpp"
#include "process.hpp"
#include "skeleton.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using kpz::Json;

const std::string kPuzzle = KPZ_SANDBOX_PUZZLE;
// A failing exercise's first line: the case that failed (`FAIL  kpuzzles run conv1d --simple`), or,
// when the race check stops the code first (a scratch request too small, a race), the exercise's
// label (`FAIL  conv1d --simple: the race check found a bug`). A regex: the label follows it.
const std::string kFail = "FAIL  (kpuzzles run )?";
const std::string kSandbox = KPZ_SANDBOX_DIR;
const std::string kExe = KPZ_SANDBOX_KPUZZLES;

std::string ns_of(std::string p) {
  for (auto& c : p)
    if (c == '-') c = '_';
  return p;
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".e2e-tmp";
  std::ofstream(tmp, std::ios::trunc) << text;
  fs::rename(tmp, path);  // like an editor that saves by renaming
}

// The sandbox's exercise files and what they hold in each scene.
struct Scenes {
  std::vector<std::string> files, skeleton, solved;
};

Scenes scenes() {
  Scenes s;
  for (const auto& p : kpz::cli::skeleton_pairs(kSandbox, kPuzzle)) {
    const std::string ref = kpz::cli::read_text_file(p.reference);
    s.files.push_back(p.exercise);
    s.skeleton.push_back(kpz::cli::skeleton_from_reference(ref, kPuzzle, p.reference));
    s.solved.push_back(kpz::cli::solved_exercise_from_reference(ref, kPuzzle));
  }
  return s;
}

void put(const Scenes& s, const std::vector<std::string>& texts) {
  for (std::size_t i = 0; i < s.files.size(); ++i) write_file(s.files[i], texts[i]);
}

// A program under a pseudo-terminal (160 x 60 unless told).
class Pty {
 public:
  Pty(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
      unsigned short rows = 60, unsigned short cols = 160) {
    winsize ws{};
    ws.ws_row = rows;
    ws.ws_col = cols;
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ == 0) {
      for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~Pty() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  // Everything printed since the last clear-screen.
  std::string screen() const {
    const auto at = all_.rfind("\033[2J");
    return at == std::string::npos ? all_ : all_.substr(at + 4);
  }
  const std::string& all() const { return all_; }

  // Reads until the current screen matches `pattern` (a regex) and is drawn to its last line
  // (the key help and what is watched), or `timeout_s` passes.
  bool wait_for(const std::string& pattern, double timeout_s) {
    const std::regex re("(" + pattern + ")[\\s\\S]*q quit.*\n");
    const auto end = Clock::now() + std::chrono::duration<double>(timeout_s);
    while (true) {
      if (std::regex_search(screen(), re)) return true;
      if (Clock::now() >= end || !read_some(200)) return std::regex_search(screen(), re);
    }
  }

  void send(char c) { ASSERT_EQ(write(fd_, &c, 1), 1); }

  // The exit code, or -1 if it does not exit in time.
  int wait_exit(double timeout_s) {
    const auto end = Clock::now() + std::chrono::duration<double>(timeout_s);
    while (Clock::now() < end) {
      read_some(100);
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        while (read_some(50)) {
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return -1;
  }

 private:
  bool read_some(int ms) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return true;
    char buf[8192];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;  // EIO once the program has exited
    for (ssize_t i = 0; i < n; ++i)
      if (buf[i] != '\r') all_ += buf[i];  // the terminal turns \n into \r\n
    return true;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string all_;
};

class WatchE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scenes_ = new Scenes(scenes());
    put(*scenes_, scenes_->skeleton);
    const auto r = kpz::cli::run_process(
        {KPZ_CMAKE_COMMAND, "--build", KPZ_BUILD_DIR, "--target", "kpz_sandbox_kpuzzles"}, {}, 850);
    build_ok_ = r.ok();
    build_log_ = r.output;
    if (!build_ok_) return;
    // The course as the sandbox program sees it: which exercises, in which order.
    const auto l = kpz::cli::run_process({kExe, "list", "--json"}, {{"KPZ_STATE_FILE", state_file("list")}}, 120);
    const Json list = Json::parse(l.output);
    for (const auto& e : list["exercises"].items()) {
      course_.push_back(e["puzzle"].as_string() + "/" + e["variant"].as_string());
      if (e["bug_hunt"].as_bool()) bug_hunts_.push_back(course_.back());
    }
  }

  static void TearDownTestSuite() {
    put(*scenes_, scenes_->skeleton);  // the sandbox starts as the skeleton next time
    delete scenes_;
  }

  void SetUp() override {
    ASSERT_TRUE(build_ok_) << "building kpz_sandbox_kpuzzles failed:\n" << build_log_;
    ASSERT_FALSE(course_.empty());
  }

  static std::string state_file(const std::string& name) {
    const std::string dir = testing::TempDir() + "kpz_watch_e2e";
    fs::create_directories(dir);
    const std::string path = dir + "/" + name + ".json";
    fs::remove(path);
    return path;
  }

  static std::vector<std::pair<std::string, std::string>> env(const std::string& state, const std::string& watch = "") {
    std::vector<std::pair<std::string, std::string>> e{{"NO_COLOR", "1"}, {"KPZ_STATE_FILE", state}};
    e.emplace_back("KPZ_WATCH", watch);
    return e;
  }

  static bool is_bug_hunt(const std::string& id) {
    return std::find(bug_hunts_.begin(), bug_hunts_.end(), id) != bug_hunts_.end();
  }

  // The puzzle's exercises that the solved sandbox solves: with the race check every one of them;
  // without it a bug hunt passes only by luck, so it is never recorded as solved.
  static bool solvable_here(const std::string& id) {
    return id.rfind(kPuzzle + "/", 0) == 0 && (KPZ_HAS_VERIFY || !is_bug_hunt(id));
  }

  static int variants_of_puzzle() {
    return static_cast<int>(std::count_if(course_.begin(), course_.end(), solvable_here));
  }

  static std::string total() { return std::to_string(course_.size()); }

  static Scenes* scenes_;
  static bool build_ok_;
  static std::string build_log_;
  static std::vector<std::string> course_;
  static std::vector<std::string> bug_hunts_;
};

Scenes* WatchE2E::scenes_ = nullptr;
bool WatchE2E::build_ok_ = false;
std::string WatchE2E::build_log_;
std::vector<std::string> WatchE2E::course_;
std::vector<std::string> WatchE2E::bug_hunts_;

TEST_F(WatchE2E, SaveRebuildsAndShowsTheFailTheCompileErrorThePassAndTheProgress) {
  const std::string state = state_file("main");
  Pty w({kExe, "watch", kPuzzle}, env(state));
  ASSERT_TRUE(w.wait_for(kFail + kPuzzle + " --", 300)) << w.all();
  EXPECT_TRUE(w.wait_for("progress \\[-+\\] 0/" + total() + " solved", 5)) << w.screen();
  EXPECT_NE(w.screen().find("n next · h hint · l list · r re-run · t tests · q quit"), std::string::npos);
  EXPECT_NE(w.screen().find("watching exercises/ for saves (inotify)"), std::string::npos) << w.screen();
  EXPECT_EQ(w.screen().find("\033[3"), std::string::npos) << "NO_COLOR must turn colours off";

  // A compile error: shown trimmed to the learner's line.
  std::vector<std::string> broken = scenes_->solved;
  const std::string open = "namespace kpz::" + ns_of(kPuzzle) + "::exercise {\n";
  const auto at = broken[0].find(open);
  ASSERT_NE(at, std::string::npos);
  const int line = 1 + static_cast<int>(std::count(broken[0].begin(), broken[0].begin() + at, '\n')) + 1;
  broken[0].insert(at + open.size(), "int kpz_e2e_broken = undeclared_in_e2e;\n");
  put(*scenes_, broken);
  ASSERT_TRUE(w.wait_for("COMPILE ERROR  in exercises/" + kPuzzle + "/[^:]+:" + std::to_string(line), 300)) << w.all();
  const std::string err = w.screen();
  EXPECT_NE(err.find("undeclared_in_e2e"), std::string::npos) << err;
  EXPECT_EQ(err.find("In file included"), std::string::npos) << err;
  EXPECT_EQ(err.find("Kokkos_"), std::string::npos) << err;

  // The skeleton replaced by the reference: the pass shows and the progress advances.
  const auto saved = Clock::now();
  put(*scenes_, scenes_->solved);
  const std::string solved = std::to_string(variants_of_puzzle()) + "/" + total();
  ASSERT_TRUE(w.wait_for("PASS  " + kPuzzle + " --[\\s\\S]*progress \\[[#-]+\\] " + solved + " solved", 300))
      << w.all();
  const double seconds = std::chrono::duration<double>(Clock::now() - saved).count();
  std::printf("[ timing   ] save of the solved exercise -> PASS on screen: %.1f s\n", seconds);
  RecordProperty("save_to_pass_ms", static_cast<int>(seconds * 1000));
  EXPECT_NE(w.screen().find("last save to result:"), std::string::npos);

  // Keys: a hint, the full tests, the next exercise, the list, quit.
  w.send('h');
  EXPECT_TRUE(w.wait_for("hint 1 of 3: a nudge\nTODO \\d+: ", 30)) << w.screen();
  w.send('t');  // the build tree's learner suite of this puzzle (it tests exercises/, not the sandbox)
  EXPECT_TRUE(w.wait_for("TESTS (PASS|FAIL)  the full test suite of " + kPuzzle, 600)) << w.screen();
  w.send('n');
  // n: the next exercise not yet solved, after this one (the course wraps around).
  std::string next;
  const auto first = std::find_if(course_.begin(), course_.end(),
                                  [](const std::string& id) { return id.rfind(kPuzzle + "/", 0) == 0; });
  for (std::size_t step = 1; step <= course_.size() && next.empty(); ++step) {
    const std::string& id = course_[(static_cast<std::size_t>(first - course_.begin()) + step) % course_.size()];
    if (!solvable_here(id)) next = id;
  }
  const std::string next_label = next.substr(0, next.find('/')) + " --" + next.substr(next.find('/') + 1);
  EXPECT_TRUE(w.wait_for(next_label + "  \\(exercise \\d+ of " + total() + "\\)", 60)) << w.screen();
  // Landing on a bug hunt says who judges it: the race check, or else only the trace build.
  if (is_bug_hunt(next))
    EXPECT_TRUE(w.wait_for(KPZ_HAS_VERIFY ? "bug hunt: the race check judges your fix"
                                          : "bug hunt: only the trace build checks it: cmake --preset trace && "
                                            "[^\n]*trace " +
                                                next.substr(0, next.find('/')),
                           10))
        << w.screen();
  // A bug hunt's skeleton fails (the race check) or, without the race check, passes by luck and
  // is told so.
  EXPECT_TRUE(w.wait_for(
      is_bug_hunt(next) && !KPZ_HAS_VERIFY ? kFail + next_label + "|bug hunt: this passes by luck" : kFail + next_label,
      120))
      << w.screen();
  w.send('l');
  EXPECT_TRUE(w.wait_for(">\\s+\\d+\\s+" + next_label + "[\\s\\S]*\\(l: back\\)", 30)) << w.screen();
  w.send('q');
  EXPECT_EQ(w.wait_exit(30), 0) << w.all();
  EXPECT_NE(w.all().find("bye: " + std::to_string(variants_of_puzzle()) + " of " + total()), std::string::npos);

  // The progress file remembers the passes, the hint and where the learner is.
  const Json s = Json::parse(kpz::cli::read_text_file(state));
  for (const auto& id : course_)
    if (solvable_here(id)) EXPECT_FALSE(s["exercises"][id]["solved"].as_string().empty()) << id;
  EXPECT_EQ(s["current"].as_string(), next);
  EXPECT_EQ(s["hints"].size(), 1u);
}

TEST_F(WatchE2E, ManualModeWhenFileWatchingIsUnavailable) {
  put(*scenes_, scenes_->solved);
  Pty w({kExe, "watch", kPuzzle}, env(state_file("manual"), "none"));
  ASSERT_TRUE(w.wait_for("PASS  " + kPuzzle + " --", 300)) << w.all();
  EXPECT_NE(w.screen().find("file watching is unavailable"), std::string::npos) << w.screen();
  EXPECT_NE(w.screen().find("press r"), std::string::npos) << w.screen();
  put(*scenes_, scenes_->skeleton);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_FALSE(w.wait_for("building", 0.5)) << "manual mode must not rebuild on its own:\n" << w.screen();
  EXPECT_NE(w.screen().find("PASS"), std::string::npos);
  w.send('r');
  ASSERT_TRUE(w.wait_for(kFail + kPuzzle + " --", 300)) << w.all();
  // Solved stays solved (recorded; `list` and `solution` count it so too): a FAIL after going
  // back to the skeleton does not take the earlier passes back.
  EXPECT_TRUE(w.wait_for("progress \\[#+-*\\] [1-9][0-9]*/" + total(), 5)) << w.screen();
  w.send('q');
  EXPECT_EQ(w.wait_exit(30), 0);
}

// A check that hangs (an endless loop) shows its seconds, and a save cancels
// it at once instead of after the check's own 60 s limit.
TEST_F(WatchE2E, ASaveCancelsAHungCheck) {
  std::vector<std::string> hung = scenes_->solved;
  bool injected = false;
  for (auto& text : hung)
    if (const auto at = text.find("void simple("); at != std::string::npos) {
      text.insert(text.find('{', at) + 1, "\n  for (volatile int spin = 0; spin == 0;) {\n  }\n");
      injected = true;
    }
  if (!injected) GTEST_SKIP() << "the sandbox puzzle " << kPuzzle << " has no function simple";
  put(*scenes_, hung);
  Pty w({kExe, "watch", kPuzzle, "--variant", "simple"}, env(state_file("hung")));
  ASSERT_TRUE(w.wait_for(
      "checking " + kPuzzle + " --simple \\.\\.\\. \\([0-9.]+ s; stopped at 60\\.0 s, or when you save\\)", 300))
      << w.all();
  const auto saved = Clock::now();
  put(*scenes_, scenes_->solved);
  ASSERT_TRUE(w.wait_for("PASS  " + kPuzzle + " --simple", 120)) << w.all();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - saved).count(), 45.0) << "the hung check ran on";
  w.send('q');
  EXPECT_EQ(w.wait_exit(30), 0);
}

TEST_F(WatchE2E, PollingWhenInotifyIsUnavailable) {
  put(*scenes_, scenes_->skeleton);
  Pty w({kExe, "watch", kPuzzle}, env(state_file("poll"), "poll"));
  ASSERT_TRUE(w.wait_for(kFail + kPuzzle + " --", 300)) << w.all();
  EXPECT_NE(w.screen().find("(polling every 0.7 s)"), std::string::npos) << w.screen();
  std::vector<std::string> broken = scenes_->skeleton;
  broken[0] += "this is not C++;\n";
  put(*scenes_, broken);
  ASSERT_TRUE(w.wait_for("COMPILE ERROR  in exercises/" + kPuzzle + "/", 300)) << w.all();
  put(*scenes_, scenes_->skeleton);
  w.send('q');
  EXPECT_EQ(w.wait_exit(30), 0);
}

// On 80 x 24 the header and the keys stay whatever the body holds (the list,
// the tests), the list shows the current exercise, and `n` clears the tests block.
TEST_F(WatchE2E, TheScreenFitsAnEightyByTwentyFourTerminal) {
  put(*scenes_, scenes_->skeleton);
  Pty w({kExe, "watch", kPuzzle}, env(state_file("small")), 24, 80);
  auto rows = [](const std::string& screen) {
    int n = 0;
    std::istringstream in(screen);
    for (std::string l; std::getline(in, l);) n += std::max<int>(1, (static_cast<int>(l.size()) + 79) / 80);
    return n;
  };
  auto fits = [&](const std::string& what) {
    const std::string s = w.screen();
    EXPECT_LE(rows(s), 23) << what << ":\n" << s;
    EXPECT_EQ(s.rfind("kpuzzles watch · ", 0), 0u) << what << ": the header scrolled away:\n" << s;
  };
  ASSERT_TRUE(w.wait_for(kFail + kPuzzle + " --", 300)) << w.all();
  fits("a failure");
  w.send('l');
  ASSERT_TRUE(w.wait_for(">\\s+\\d+\\s+" + kPuzzle + " --", 30)) << "the current exercise in the list:\n" << w.screen();
  fits("the list");
  w.send('l');
  w.send('t');
  ASSERT_TRUE(w.wait_for("TESTS (PASS|FAIL)  the full test suite of " + kPuzzle, 600)) << w.screen();
  fits("the tests");
  std::smatch at;
  const std::string before = w.screen();
  ASSERT_TRUE(std::regex_search(before, at, std::regex("\\(exercise (\\d+) of"))) << before;
  w.send('n');
  ASSERT_TRUE(w.wait_for("\\(exercise (?!" + at[1].str() + " of)\\d+ of " + total() + "\\)", 120)) << w.screen();
  EXPECT_EQ(w.screen().find("TESTS "), std::string::npos) << "n clears the tests block:\n" << w.screen();
  fits("the next exercise");
  w.send('q');
  EXPECT_EQ(w.wait_exit(30), 0);
}

// Piped: no terminal, so no escape codes and no progress bar; --json: one event per line.
TEST_F(WatchE2E, PlainTextAndJsonWhenPiped) {
  put(*scenes_, scenes_->skeleton);
  // stdin at its end: the loop finishes the build and the checks, then quits.
  const auto plain = kpz::cli::run_process({"sh", "-c", kExe + " watch " + kPuzzle + " </dev/null"},
                                           {{"KPZ_STATE_FILE", state_file("plain")}}, 300);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_TRUE(std::regex_search(plain.output, std::regex(kFail + kPuzzle + " --"))) << plain.output;
  EXPECT_EQ(plain.output.find('\033'), std::string::npos) << plain.output;
  EXPECT_NE(plain.output.find("progress: 0 of " + total() + " exercises solved"), std::string::npos) << plain.output;
  const auto json = kpz::cli::run_process({"sh", "-c", kExe + " watch " + kPuzzle + " --json </dev/null"},
                                          {{"KPZ_STATE_FILE", state_file("json")}}, 300);
  EXPECT_EQ(json.exit_code, 0) << json.output;
  std::vector<std::string> events;
  std::istringstream lines(json.output);
  for (std::string l; std::getline(lines, l);) {
    const Json j = Json::parse(l);  // every line is one JSON object
    events.push_back(j["event"].as_string());
    if (events.back() == "result" && j["current"].as_bool()) {
      EXPECT_FALSE(j["pass"].as_bool());
      EXPECT_EQ(j["total"].as_int(), static_cast<long>(course_.size()));
    }
  }
  ASSERT_GE(events.size(), 4u) << json.output;
  EXPECT_EQ(events.front(), "start");
  EXPECT_EQ(events.back(), "quit");
  EXPECT_NE(std::find(events.begin(), events.end(), "ready"), events.end());
  EXPECT_NE(std::find(events.begin(), events.end(), "result"), events.end());
}

}  // namespace

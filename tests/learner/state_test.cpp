// The progress file and the solution gate.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "docs_text.hpp"
#include "learner.hpp"
#include "paths.hpp"
#include "state.hpp"

namespace {

namespace fs = std::filesystem;
using kpz::cli::LearnerState;

std::string temp_file(const std::string& name) {
  const std::string dir = testing::TempDir() + "kpz_state_test";
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(name, 0) == 0) fs::remove_all(e.path());
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Files beside `path` whose names start with `path` + `suffix`.
std::vector<std::string> siblings(const std::string& path, const std::string& suffix) {
  std::vector<std::string> out;
  const std::string prefix = fs::path(path).filename().string() + suffix;
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  return out;
}

// Runs `body` in a child process as an ordinary user (nobody, when the tests run as root, for
// whom no permission bit counts); its exit code.
int as_ordinary_user(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(77);
    int code = 99;
    try {
      code = body();
    } catch (...) {
      code = 98;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(State, MissingFileIsEmpty) {
  const LearnerState s = LearnerState::load(temp_file("missing.json"));
  EXPECT_FALSE(s.solved("conv1d", "simple"));
  EXPECT_EQ(s.hints_shown("conv1d/simple"), 0);
  EXPECT_FALSE(s.solution_shown("conv1d"));
  EXPECT_EQ(s.current(), "");
}

TEST(State, RoundTripsEverything) {
  const std::string path = temp_file("roundtrip.json");
  {
    LearnerState s = LearnerState::load(path);
    EXPECT_TRUE(s.record_solved("conv1d", "simple"));
    EXPECT_FALSE(s.record_solved("conv1d", "simple"));  // only the first pass is news
    s.set_hints_shown("conv1d/tiled", 2);
    s.record_solution("butterfly", true);
    s.set_current("conv1d/general");
    s.save();
  }
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const LearnerState s = LearnerState::load(path);
  EXPECT_TRUE(s.solved("conv1d", "simple"));
  EXPECT_FALSE(s.solved("conv1d", "general"));
  EXPECT_EQ(s.hints_shown("conv1d/tiled"), 2);
  EXPECT_EQ(s.hint_keys(), std::vector<std::string>{"conv1d/tiled"});
  EXPECT_TRUE(s.solution_shown("butterfly"));
  EXPECT_TRUE(s.solution_forced("butterfly"));
  EXPECT_FALSE(s.solution_shown("conv1d"));
  EXPECT_EQ(s.current(), "conv1d/general");
  EXPECT_EQ(s.json()["version"].as_int(), 1);
}

TEST(State, ForcedStaysRecordedAfterALaterHonestLook) {
  LearnerState s = LearnerState::load(temp_file("forced.json"));
  s.record_solution("conv1d", true);
  s.record_solution("conv1d", false);
  EXPECT_TRUE(s.solution_forced("conv1d"));
  EXPECT_FALSE(s.json()["solutions"]["conv1d"]["forced_at"].as_string().empty());
}

TEST(State, CorruptFileIsMovedAsideNotLost) {
  const std::string path = temp_file("corrupt.json");
  std::ofstream(path) << "{\"exercises\": {oops";
  std::string warning;
  const LearnerState s = LearnerState::load(path, &warning);
  EXPECT_FALSE(s.solved("conv1d", "simple"));
  EXPECT_NE(warning.find("corrupt"), std::string::npos) << warning;
  ASSERT_EQ(siblings(path, ".corrupt").size(), 1u);
  EXPECT_NE(warning.find(siblings(path, ".corrupt").front()), std::string::npos) << warning;
  EXPECT_FALSE(fs::exists(path));
}

// A second corruption must not overwrite the first backup (the real progress).
TEST(State, EveryCorruptBackupIsKept) {
  const std::string path = temp_file("corrupt-twice.json");
  std::ofstream(path) << "{\"hints\":{\"conv1d/simple\":3}";  // the real progress, truncated
  LearnerState::load(path);
  std::ofstream(path) << "garbage";
  LearnerState::load(path);
  const auto backups = siblings(path, ".corrupt");
  ASSERT_EQ(backups.size(), 2u);
  std::string both;
  for (const auto& b : backups) both += slurp(b) + "|";
  EXPECT_NE(both.find("conv1d/simple"), std::string::npos) << both;
  EXPECT_NE(both.find("garbage"), std::string::npos) << both;
}

// When the corrupt file cannot be moved, the warning says so and nothing is
// written over it.
TEST(State, CorruptFileThatCannotBeMovedIsNeitherClaimedMovedNorOverwritten) {
  const std::string path = temp_file("corrupt-stuck.json");
  std::ofstream(path) << "{\"hints\": {oops";
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  // The folder belongs to root (or is read-only): an ordinary user can read, not move.
  const std::string dir = fs::path(path).parent_path().string();
  const auto dir_perms = fs::status(dir).permissions();
  if (geteuid() != 0) fs::permissions(dir, fs::perms::owner_write, fs::perm_options::remove);
  const int code = as_ordinary_user([&] {
    std::string warning;
    LearnerState s = LearnerState::load(path, &warning);
    if (warning.find("could not be moved") == std::string::npos) return 1;
    if (warning.find("kept it as") != std::string::npos) return 2;
    s.set_current("a/b");
    try {
      s.save();
    } catch (const std::runtime_error&) {
      return 0;
    }
    return 3;
  });
  fs::permissions(dir, dir_perms);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(slurp(path), "{\"hints\": {oops");
  EXPECT_TRUE(siblings(path, ".corrupt").empty());
  // Never "moved" /dev/null (KPZ_STATE_FILE=/dev/null): through a link, since code without
  // this check, run as root, renames the device itself.
  const std::string link = temp_file("devnull-link.json");
  fs::create_symlink("/dev/null", link);
  std::string warning;
  EXPECT_THROW(LearnerState::load(link, &warning), std::runtime_error);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_TRUE(fs::is_symlink(link));
}

// Progress that cannot be read is an error, never "no progress".
TEST(State, UnreadableFileIsAnErrorNotAbsent) {
  const std::string path = temp_file("unreadable.json");
  const std::string text = "{\"hints\":{\"butterfly/pair_swap\":2},\"version\":1}\n";
  std::ofstream(path) << text;
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);  // 0600, as sudo leaves it
  const int code = as_ordinary_user([&] {
    try {
      LearnerState::load(path);
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      return m.find(path) != std::string::npos && m.find('\n') == std::string::npos ? 0 : 2;
    }
    return 1;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(slurp(path), text);
  EXPECT_THROW(LearnerState::load(fs::path(path).parent_path().string()), std::runtime_error);  // a folder
}

// Wrong-typed sections and negative hint counts are said, not silently taken.
TEST(State, WrongTypesAndNegativeHintCountsAreWarnedAbout) {
  const std::string path = temp_file("types.json");
  std::ofstream(path)
      << R"({"exercises":[1,2],"hints":{"conv1d/simple":-4,"conv1d/tiled":2},"solutions":"x","current":7})";
  std::string warning;
  LearnerState s = LearnerState::load(path, &warning);
  for (const char* word : {"'exercises'", "'solutions'", "'current'", "conv1d/simple", "-4"})
    EXPECT_NE(warning.find(word), std::string::npos) << word << " in " << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);
  EXPECT_EQ(s.hints_shown("conv1d/simple"), 0);
  EXPECT_EQ(s.hints_shown("conv1d/tiled"), 2);
  EXPECT_EQ(s.hint_keys(), std::vector<std::string>{"conv1d/tiled"});
  ASSERT_EQ(siblings(path, ".corrupt").size(), 1u) << "the next save replaces them: a copy is kept";
  LearnerState::load(path);  // another command before that save: no second copy
  EXPECT_EQ(siblings(path, ".corrupt").size(), 1u);
  EXPECT_NE(slurp(siblings(path, ".corrupt").front()).find("\"exercises\":[1,2]"), std::string::npos);
  s.set_hints_shown("conv1d/general", -3);
  EXPECT_EQ(s.hints_shown("conv1d/general"), 0);
  std::string clean;
  LearnerState::load(temp_file("clean.json"), &clean);
  EXPECT_EQ(clean, "");
}

// 8 processes x 30 rounds of the real read-modify-write (update_state, as
// `kpuzzles hint` runs it) while the file is read all along: no update lost, never unparsable.
TEST(State, ParallelWritersLoseNoUpdate) {
  const std::string path = kpz::cli::learner_paths().state_file;
  for (const auto& leftover : siblings(path, "")) fs::remove(leftover);
  constexpr int kWriters = 8, kRounds = 30;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    if (pid == 0) {
      int code = 0;
      try {
        for (int r = 0; r < kRounds; ++r)
          kpz::cli::update_state([&](LearnerState& s) {
            s.set_hints_shown("writer/" + std::to_string(w), s.hints_shown("writer/" + std::to_string(w)) + 1);
            s.set_hints_shown("all/shared", s.hints_shown("all/shared") + 1);
            return true;
          });
      } catch (...) {
        code = 1;
      }
      _exit(code);
    }
    pids.push_back(pid);
  }
  int unparsable = 0, reads = 0, running = kWriters;
  while (running > 0) {
    const std::string text = slurp(path);
    if (!text.empty()) {
      ++reads;
      try {
        kpz::Json::parse(text);
      } catch (const kpz::JsonError&) {
        ++unparsable;
      }
    }
    running = 0;
    for (pid_t& pid : pids) {
      int status = 0;
      if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        pid = -1;
      }
      running += pid > 0;
    }
  }
  EXPECT_EQ(unparsable, 0) << "of " << reads << " reads";
  std::string warning;
  const LearnerState s = LearnerState::load(path, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.hints_shown("all/shared"), kWriters * kRounds);
  for (int w = 0; w < kWriters; ++w) EXPECT_EQ(s.hints_shown("writer/" + std::to_string(w)), kRounds) << w;
  EXPECT_TRUE(siblings(path, ".tmp").empty());
  EXPECT_TRUE(siblings(path, ".corrupt").empty());
  fs::remove(path);
}

TEST(State, SaveCreatesTheFolderAndFailsLoudly) {
  const std::string dir = testing::TempDir() + "kpz_state_test/new/sub";
  fs::remove_all(testing::TempDir() + "kpz_state_test/new");
  LearnerState s = LearnerState::load(dir + "/state.json");
  s.set_current("a/b");
  s.save();
  EXPECT_TRUE(fs::exists(dir + "/state.json"));
  LearnerState bad = LearnerState::load("/proc/kpz-no-such-dir/state.json");
  EXPECT_THROW(bad.save(), std::runtime_error);
}

TEST(SolutionGate, OpensWhenEveryVariantPassesNow) {
  const LearnerState s;
  const auto g = kpz::cli::solution_gate(
      s, "conv1d", {"simple", "tiled"}, [](const std::string&) { return true; }, false);
  EXPECT_TRUE(g.allowed);
  EXPECT_FALSE(g.forced);
  EXPECT_TRUE(g.unsolved.empty());
}

TEST(SolutionGate, EarlierPassesCountAndAreNotRerun) {
  LearnerState s;
  s.record_solved("conv1d", "simple");
  std::vector<std::string> asked;
  const auto g = kpz::cli::solution_gate(
      s, "conv1d", {"simple", "tiled"},
      [&](const std::string& v) {
        asked.push_back(v);
        return v == "tiled";
      },
      false);
  EXPECT_TRUE(g.allowed);
  EXPECT_EQ(asked, std::vector<std::string>{"tiled"});
}

TEST(SolutionGate, StaysShutUntilForced) {
  LearnerState s;
  s.record_solved("conv1d", "simple");
  auto fails = [](const std::string&) { return false; };
  const auto shut = kpz::cli::solution_gate(s, "conv1d", {"simple", "tiled", "general"}, fails, false);
  EXPECT_FALSE(shut.allowed);
  EXPECT_EQ(shut.unsolved, (std::vector<std::string>{"tiled", "general"}));
  const auto forced = kpz::cli::solution_gate(s, "conv1d", {"simple", "tiled", "general"}, fails, true);
  EXPECT_TRUE(forced.allowed);
  EXPECT_TRUE(forced.forced);
  // --force on a puzzle that is solved anyway is not a forced look.
  const auto honest = kpz::cli::solution_gate(s, "conv1d", {"simple"}, fails, true);
  EXPECT_TRUE(honest.allowed);
  EXPECT_FALSE(honest.forced);
}

TEST(State, TimestampsAreUtcIso) {
  const std::string t = kpz::cli::utc_timestamp();
  ASSERT_EQ(t.size(), 20u) << t;
  EXPECT_EQ(t[10], 'T');
  EXPECT_EQ(t.back(), 'Z');
}

}  // namespace

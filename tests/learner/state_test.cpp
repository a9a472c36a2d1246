// The progress file and the solution gate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "docs_text.hpp"
#include "state.hpp"

namespace {

namespace fs = std::filesystem;
using kpz::cli::LearnerState;

std::string temp_file(const std::string& name) {
  const std::string dir = testing::TempDir() + "kpz_state_test";
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  fs::remove(path);
  fs::remove(path + ".corrupt");
  return path;
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
  EXPECT_TRUE(fs::exists(path + ".corrupt"));
  EXPECT_FALSE(fs::exists(path));
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
  const auto g = kpz::cli::solution_gate(s, "conv1d", {"simple", "tiled"}, [](const std::string&) { return true; }, false);
  EXPECT_TRUE(g.allowed);
  EXPECT_FALSE(g.forced);
  EXPECT_TRUE(g.unsolved.empty());
}

TEST(SolutionGate, EarlierPassesCountAndAreNotRerun) {
  LearnerState s;
  s.record_solved("conv1d", "simple");
  std::vector<std::string> asked;
  const auto g = kpz::cli::solution_gate(s, "conv1d", {"simple", "tiled"},
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

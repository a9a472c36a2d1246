// `kpuzzles list` and `check` where no race check can stop an exercise before it runs (a GPU build, or the
// verifiers not built): each exercise the learner changed (and each bug hunt) runs in its own
// `kpuzzles check`, so the one that crashes (on a GPU a scratch request too small also breaks
// every later kernel of the process) is marked, and the others keep their statuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "shell.hpp"

namespace {

using Result = kpz::test::ShellResult;

Result list_json(const std::string& env) {
  return kpz::test::shell("env " + env + " timeout 300 " + std::string(KPZ_KPUZZLES) + " list --json");
}

// puzzle/variant -> status, from list --json.
std::map<std::string, std::string> statuses(const std::string& json) {
  std::map<std::string, std::string> out;
  const std::regex entry(R"re("puzzle":"([^"]+)","variant":"([^"]+)".*?"status":"([^"]+)")re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), entry); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str() + "/" + (*it)[2].str()] = (*it)[3].str();
  return out;
}

TEST(CliList, WithoutARaceCheckEachExerciseRunsAloneAndACrashIsMarked) {
  const std::string dir = testing::TempDir() + "kpz_cli_list";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/no-verifiers");
  const std::string state = " KPZ_STATE_FILE=" + dir + "/state.json";
  const Result usual = list_json(state);
  ASSERT_EQ(usual.code, 0) << usual.err;
  const std::map<std::string, std::string> expected = statuses(usual.out);
  ASSERT_GT(expected.size(), 8u) << usual.out;

  // Planted: a bug hunt crashes (its skeleton runs there; a skeleton that is not a bug hunt does
  // not: it fails by design, and one whose scratch request is still missing may crash for real,
  // as butterfly --pair-swap's does without the race check).
  std::smatch hunt;
  ASSERT_TRUE(std::regex_search(usual.out, hunt,
                                std::regex(R"re("puzzle":"([^"]+)","variant":"([^"]+)"[^{}]*"bug_hunt":true)re")))
      << usual.out;
  const std::string crashed = hunt[1].str() + "/" + hunt[2].str();
  const Result alone = list_json("KPZ_VERIFY_DIR=" + dir + "/no-verifiers KPZ_CRASH_EXERCISE=" + crashed + state);
  ASSERT_EQ(alone.code, 0) << alone.err;
  std::map<std::string, std::string> got = statuses(alone.out), others = expected;
  EXPECT_EQ(got.at(crashed), "not attempted") << alone.out;
  got.erase(crashed);
  others.erase(crashed);
  // A bug hunt's skeleton passes by luck where nothing traces it: "bug hunt" instead of the race
  // check's "not attempted".
  for (auto& [id, status] : got)
    if (status == "bug hunt" && others.at(id) == "not attempted") status = "not attempted";
  EXPECT_EQ(got, others) << alone.out;
  const std::string puzzle = crashed.substr(0, crashed.find('/'));
  const std::string variant = crashed.substr(crashed.find('/') + 1);
  EXPECT_NE(alone.out.find(R"("crashed":"kpuzzles: CRASHED: )" + puzzle + " --" + variant + " (exercise, "),
            std::string::npos)
      << alone.out;
  // The children had no race check either.
  EXPECT_EQ(alone.out.find(R"("race_check":"bug")"), std::string::npos) << alone.out;
}

// `kpuzzles check <puzzle>` likewise: each exercise in its own child, so the planted crash fails
// that exercise and the others are still checked and reported, in text and in JSON.
TEST(CliCheck, WithoutARaceCheckACrashFailsOneExerciseNotTheCheck) {
  const std::string dir = testing::TempDir() + "kpz_cli_check";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/no-verifiers");
  const std::string env =
      "KPZ_VERIFY_DIR=" + dir + "/no-verifiers KPZ_CRASH_EXERCISE=conv1d/simple KPZ_STATE_FILE=" + dir + "/state.json";
  const Result text = kpz::test::shell("env " + env + " timeout 300 " + std::string(KPZ_KPUZZLES) + " check conv1d");
  EXPECT_EQ(text.code, 1) << text.out << text.err;
  EXPECT_NE(text.out.find("kpuzzles: CRASHED: conv1d --simple (exercise, "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("FAIL  conv1d --simple: it crashed (above)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("conv1d --block-boundary (exercise, "), std::string::npos) << text.out;
  std::smatch tally;
  ASSERT_TRUE(std::regex_search(text.out, tally, std::regex(R"((\d+) passed, (\d+) failed\n$)"))) << text.out;
  EXPECT_EQ(std::stoi(tally[1].str()) + std::stoi(tally[2].str()), 5) << text.out;  // conv1d's five exercises

  const Result json =
      kpz::test::shell("env " + env + " timeout 300 " + std::string(KPZ_KPUZZLES) + " check conv1d --json 2>/dev/null");
  EXPECT_EQ(json.code, 1) << json.out;
  EXPECT_NE(json.out.find(R"("variant":"simple","pass":false,"crashed":"kpuzzles: CRASHED: conv1d --simple)"),
            std::string::npos)
      << json.out;
  for (const char* variant : {"block-boundary", "bug-missing-barrier", "general", "vector"})
    EXPECT_NE(json.out.find(std::string(R"("puzzle":"conv1d","variant":")") + variant + R"(","pass":)"),
              std::string::npos)
        << variant << " in " << json.out;
}

}  // namespace

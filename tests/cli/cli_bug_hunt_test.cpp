// kpuzzles end to end: a bug hunt's bug passes the real run by luck. A host build's race check
// (framework/cli/race_check.hpp) finds it on every run, and when the learner loop reaches one
// (`kpuzzles run`, `list`'s next, `watch` and its n key) one line says that `kpuzzles trace` draws
// it. A build without the race check says how to build the trace preset and which `kpuzzles trace`
// to run there. Driven by the registry's bug_hunt flags: the exercises come from `kpuzzles list --json`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;
using Result = kpz::test::ShellResult;

const std::string kNote =
    KPZ_HAS_VERIFY ? "bug hunt: the race check judges your fix" : "bug hunt: only the trace build checks it";

Result kpuzzles(const std::string& env, const std::string& args) {
  return kpz::test::shell("env " + env + " timeout 120 " + std::string(KPZ_KPUZZLES) + " " + args);
}

struct Course {
  std::vector<std::string> ids;                                    // puzzle/variant, in course order
  std::vector<bool> is_hunt;                                       // of each id
  std::vector<std::pair<std::string, std::string>> hunts, others;  // (puzzle, variant)
};

// The course as `list --json` gives it (read once: `list` checks every exercise).
const Course& course() {
  static const Course once = [] {
    Course c;
    const Result l = kpuzzles("", "list --json");
    EXPECT_EQ(l.code, 0) << l.err;
    const kpz::Json list = kpz::Json::parse(l.out);  // kept: the loop reads into it
    for (const auto& e : list["exercises"].items()) {
      c.ids.push_back(e["puzzle"].as_string() + "/" + e["variant"].as_string());
      c.is_hunt.push_back(e["bug_hunt"].as_bool());
      (e["bug_hunt"].as_bool() ? c.hunts : c.others).emplace_back(e["puzzle"].as_string(), e["variant"].as_string());
    }
    return c;
  }();
  return once;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// With the race check: `run` of a bug hunt's skeleton fails before the run, every time, naming the
// race and the command that draws it; the reference runs and passes.
TEST(CliBugHunt, RunOfTheSkeletonIsStoppedByTheRaceCheck) {
  if (!KPZ_HAS_VERIFY) GTEST_SKIP() << "this build has no race check";
  const Course& c = course();
  ASSERT_FALSE(c.hunts.empty()) << "no bug hunt in the course";
  for (const auto& [puzzle, variant] : c.hunts) {
    const std::string args = "run " + puzzle + " --" + variant;
    for (int attempt = 0; attempt < 3; ++attempt) {
      const Result r = kpuzzles("", args);
      EXPECT_EQ(r.code, 1) << args << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("  race: RACE on "), std::string::npos) << args << "\n" << r.out;
      EXPECT_NE(r.out.find("kpuzzles trace " + puzzle + " --" + variant), std::string::npos) << r.out;
    }
    const Result j = kpuzzles("", args + " --json");
    EXPECT_EQ(count(j.out, "\n"), 1) << j.out;
    const kpz::Json answer = kpz::Json::parse(j.out);
    ASSERT_FALSE(answer["race_check"]["findings"].items().empty()) << j.out;
    EXPECT_EQ(answer["race_check"]["findings"].items().front()["kind"].as_string(), "race") << j.out;
    const Result ref = kpuzzles("", args + " --reference");
    EXPECT_EQ(ref.code, 0) << ref.out << ref.err;
    EXPECT_EQ(ref.out.find("race:"), std::string::npos) << ref.out;
  }
}

TEST(CliBugHunt, RunSaysHowToBuildAndRunTheTraceBuild) {
  if (KPZ_HAS_VERIFY) GTEST_SKIP() << "the race check judges bug hunts in this build";
  const Course& c = course();
  ASSERT_FALSE(c.hunts.empty()) << "no bug hunt in the course";
  ASSERT_FALSE(c.others.empty());
  for (const auto& [puzzle, variant] : c.hunts) {
    const std::string args = "run " + puzzle + " --" + variant;
    const Result r = kpuzzles("", args);
    EXPECT_EQ(count(r.out, kNote), 1) << args << "\n" << r.out << r.err;
    // Both forms (no trace build yet: configure it first; one beside the source tree, as in CI
    // after its trace stage: rebuild it) name the build and the trace command.
    EXPECT_NE(r.out.find("cmake --build --preset trace --target kpuzzles"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("build/trace/framework/cli/kpuzzles trace " + puzzle + " --" + variant), std::string::npos)
        << r.out;
    // --json: stdout stays one JSON object; the line goes to stderr.
    const Result j = kpuzzles("", args + " --json");
    EXPECT_EQ(count(j.out, "\n"), 1) << j.out;
    EXPECT_NO_THROW(kpz::Json::parse(j.out)) << j.out;
    EXPECT_EQ(count(j.err, kNote), 1) << j.err;
    // The reference is no bug hunt of the learner's.
    EXPECT_EQ(count(kpuzzles("", args + " --reference").out, kNote), 0) << args;
  }
  const auto& [puzzle, variant] = c.others.front();
  const Result plain = kpuzzles("", "run " + puzzle + " --" + variant);
  EXPECT_EQ(count(plain.out + plain.err, kNote), 0) << plain.out;
}

TEST(CliBugHunt, RunPointsAtAnExistingTraceBuild) {
  if (KPZ_HAS_VERIFY) GTEST_SKIP() << "the race check judges bug hunts in this build";
  const Course& c = course();
  ASSERT_FALSE(c.hunts.empty());
  const fs::path source = testing::TempDir() + "kpz_cli_bug_hunt_source";
  fs::remove_all(source);
  const fs::path trace = source / "build/trace/framework/cli/kpuzzles";
  fs::create_directories(trace.parent_path());
  std::ofstream(trace) << "#!/bin/sh\n";
  fs::permissions(trace, fs::perms::owner_all);
  const auto& [puzzle, variant] = c.hunts.front();
  const Result r = kpuzzles("KPZ_SOURCE_DIR=" + source.string(), "run " + puzzle + " --" + variant);
  EXPECT_NE(r.out.find(kNote +
                       ", and yours is built: cmake --build --preset trace --target kpuzzles && "
                       "build/trace/framework/cli/kpuzzles trace " +
                       puzzle + " --" + variant),
            std::string::npos)
      << r.out << r.err;
}

// `watch` shows the line under the exercise's title (and in its --json results). KPZ_CMAKE=true:
// the rebuild is a no-op, so the loop checks with this build's kpuzzles and ends with stdin.
TEST(CliBugHunt, WatchSaysSoWhenItIsOnABugHunt) {
  const Course& c = course();
  ASSERT_FALSE(c.hunts.empty());
  const std::string state = testing::TempDir() + "kpz_cli_bug_hunt_state.json";
  const auto watch = [&](const std::string& puzzle, const std::string& variant, const std::string& mode) {
    fs::remove(state);
    return kpuzzles("KPZ_CMAKE=true KPZ_STATE_FILE=" + state,
                    "watch " + puzzle + " --variant " + variant + " " + mode + " </dev/null");
  };
  const auto& [puzzle, variant] = c.hunts.front();
  const Result screen = watch(puzzle, variant, "--no-tty");
  EXPECT_EQ(screen.code, 0) << screen.out << screen.err;
  EXPECT_NE(screen.out.find(kNote), std::string::npos) << screen.out;
  EXPECT_NE(screen.out.find("trace " + puzzle + " --" + variant), std::string::npos) << screen.out;
  if (KPZ_HAS_VERIFY)  // the race check's verdict on the skeleton, on the first check
    EXPECT_NE(screen.out.find("race: RACE on "), std::string::npos) << screen.out;
  const Result json = watch(puzzle, variant, "--json");
  EXPECT_NE(json.out.find("\"trace_build\":\"" + kNote), std::string::npos) << json.out;
  const auto& [other, other_variant] = c.others.front();
  const Result plain = watch(other, other_variant, "--no-tty");
  EXPECT_EQ(plain.code, 0) << plain.out << plain.err;
  EXPECT_EQ(plain.out.find(kNote), std::string::npos) << plain.out;
}

// `list` names the next exercise; when that is a bug hunt, the line follows. The exercises before
// the first bug hunt are recorded as solved, so that it is the next one.
TEST(CliBugHunt, ListSaysSoWhenTheNextExerciseIsABugHunt) {
  const Course& c = course();
  ASSERT_FALSE(c.hunts.empty());
  const std::string hunt = c.hunts.front().first + "/" + c.hunts.front().second;
  std::string solved;
  for (const auto& id : c.ids) {
    if (id == hunt) break;
    solved += std::string(solved.empty() ? "" : ",") + "\"" + id + "\":{\"solved\":\"2026-01-31T12:00:00Z\"}";
  }
  const std::string state = testing::TempDir() + "kpz_cli_bug_hunt_list.json";
  std::ofstream(state, std::ios::trunc) << "{\"exercises\":{" << solved << "},\"version\":1}\n";
  const Result r = kpuzzles("KPZ_STATE_FILE=" + state, "list");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto next = r.out.find("next: " + c.hunts.front().first + " --" + c.hunts.front().second);
  ASSERT_NE(next, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n" + kNote, next), std::string::npos) << r.out;
  // From the first exercise on (nothing solved), the next one is no bug hunt, and nothing is said.
  std::ofstream(state, std::ios::trunc) << "{\"exercises\":{},\"version\":1}\n";
  if (!c.is_hunt.front()) EXPECT_EQ(kpuzzles("KPZ_STATE_FILE=" + state, "list").out.find(kNote), std::string::npos);
}

}  // namespace

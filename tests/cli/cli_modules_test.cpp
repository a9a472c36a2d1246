// kpuzzles with its puzzles as modules (a first build a participant can plan for). A
// module folder of its own (KPZ_MODULE_DIR) with links to some of this build's modules stands for
// a learner's tree where only those are built; KPZ_CMAKE=false makes a build fail. Building a
// module for real on first use is CI's serial stage: it builds the `learner` target, then
// `kpuzzles check --reference`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;
using Result = kpz::test::ShellResult;

// Every puzzle of this build: its modules' names, in name order.
std::vector<std::string> all_puzzles() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(KPZ_MODULE_DIR)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("kpz-", 0) == 0 && e.path().extension() == ".so") names.push_back(f.substr(4, f.size() - 7));
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string module_of(const std::string& puzzle) {
  return std::string(KPZ_MODULE_DIR) + "/kpz-" + puzzle + ".so";
}

// A build tree with only `built` linked in (and `damaged` as empty files).
fs::path tree_with(const std::string& name, const std::vector<std::string>& built,
                   const std::vector<std::string>& damaged = {}) {
  const fs::path dir = fs::path(testing::TempDir()) / ("kpz_cli_modules_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir / "puzzles");
  for (const auto& p : built) fs::create_symlink(module_of(p), dir / "puzzles" / ("kpz-" + p + ".so"));
  for (const auto& p : damaged) std::ofstream(dir / "puzzles" / ("kpz-" + p + ".so")) << "";
  return dir;
}

// kpuzzles with `tree`'s modules, its own progress file, and a cmake that always fails.
Result kpuzzles_in(const fs::path& tree, const std::string& args) {
  return kpz::test::shell("timeout 120 env KPZ_MODULE_DIR=" + (tree / "puzzles").string() +
                          " KPZ_STATE_FILE=" + (tree / "state.json").string() + " KPZ_CMAKE=false " + KPZ_KPUZZLES +
                          " " + args + " </dev/null");
}

class CliModules : public testing::Test {
 protected:
  void SetUp() override {
    if (!KPZ_MODULES) GTEST_SKIP() << "this build links every puzzle into kpuzzles (KPZ_PUZZLE_MODULES)";
    all = all_puzzles();
    // The tests below need the course's first puzzle, conv1d and butterfly, and some others.
    for (const char* p : {KPZ_COURSE_START, "conv1d", "butterfly"}) ASSERT_TRUE(fs::exists(module_of(p))) << p;
    ASSERT_GE(all.size(), 4u);
  }
  std::vector<std::string> all;

  // The puzzles of `all` that are not in `built`.
  std::vector<std::string> all_but(const std::vector<std::string>& built) const {
    std::vector<std::string> rest;
    for (const auto& p : all)
      if (std::find(built.begin(), built.end(), p) == built.end()) rest.push_back(p);
    return rest;
  }
};

TEST_F(CliModules, ListShowsWhatIsBuiltAndNamesTheRest) {
  const std::vector<std::string> built = {KPZ_COURSE_START, "conv1d"};
  const fs::path tree = tree_with("list", built);
  const Result j = kpuzzles_in(tree, "list --json");
  ASSERT_EQ(j.code, 0) << j.err;
  const kpz::Json list = kpz::Json::parse(j.out);
  std::set<std::string> puzzles;
  for (const auto& e : list["exercises"].items()) puzzles.insert(e["puzzle"].as_string());
  EXPECT_EQ(puzzles, (std::set<std::string>(built.begin(), built.end())));
  std::vector<std::string> not_built;
  for (const auto& p : list["not_built"].items()) not_built.push_back(p.as_string());
  EXPECT_EQ(not_built, all_but(built));
  EXPECT_EQ(j.err.find("building"), std::string::npos) << "list builds nothing: " << j.err;
  // The total and each exercise's number are the whole course's from the first command on (the
  // specs of the puzzles not built say how many exercises they have), never the built ones'.
  const kpz::Json whole = kpz::Json::parse(kpz::test::shell(std::string(KPZ_KPUZZLES) + " list --json </dev/null").out);
  const long total = static_cast<long>(whole["total"].as_int());
  EXPECT_EQ(total, static_cast<long>(whole["exercises"].items().size()));
  EXPECT_EQ(static_cast<long>(list["total"].as_int()), total) << j.out;
  std::map<std::string, long> position;
  for (const auto& e : whole["exercises"].items())
    position[e["puzzle"].as_string() + "/" + e["variant"].as_string()] = static_cast<long>(e["position"].as_int());
  for (const auto& e : list["exercises"].items())
    EXPECT_EQ(static_cast<long>(e["position"].as_int()),
              position[e["puzzle"].as_string() + "/" + e["variant"].as_string()])
        << e["puzzle"].as_string() << " --" << e["variant"].as_string();
  const Result t = kpuzzles_in(tree, "list");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("not built yet: " + joined(all_but(built)) + " ("), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(": 0 of " + std::to_string(total) + " exercises solved\n"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("--target puzzles"), std::string::npos) << t.out;
}

TEST_F(CliModules, APuzzleNotBuiltIsBuiltOnFirstUseAndAFailedBuildSaysSo) {
  const fs::path tree = tree_with("build", {KPZ_COURSE_START});
  // The build fails (KPZ_CMAKE=false). Its output goes to stderr, never into --json's stdout.
  const Result r = kpuzzles_in(tree, "run butterfly --json");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("kpuzzles: building the puzzle butterfly (first use; the build's progress follows)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the build of butterfly failed (its output is above)"), std::string::npos) << r.err;
  // A built puzzle runs without building anything.
  const Result b = kpuzzles_in(tree, std::string("run ") + KPZ_COURSE_START + " --reference --json");
  EXPECT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.err, "");
  EXPECT_NE(b.out.find("\"pass\":true"), std::string::npos) << b.out;
}

TEST_F(CliModules, AnUnknownPuzzleBuildsNothingAndListsEveryPuzzle) {
  const fs::path tree = tree_with("unknown", {KPZ_COURSE_START});
  const Result r = kpuzzles_in(tree, "run convv1d");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(kpz::test::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("unknown puzzle 'convv1d'; puzzles: " + joined(all) + "\n"), std::string::npos) << r.err;
}

TEST_F(CliModules, ADamagedModuleStopsOnlyWhatNeedsIt) {
  const fs::path tree = tree_with("damaged", {KPZ_COURSE_START}, {"butterfly"});
  const Result ok = kpuzzles_in(tree, std::string("run ") + KPZ_COURSE_START + " --reference");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.err.find("kpuzzles: note: the puzzle 'butterfly' ("), std::string::npos) << ok.err;
  EXPECT_EQ(kpz::test::count_lines(ok.err), 1) << ok.err;
  const Result bad = kpuzzles_in(tree, "run butterfly");
  EXPECT_EQ(bad.code, 3) << bad.err;
  EXPECT_NE(bad.err.find("could not be loaded"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("--target kpz_module_butterfly"), std::string::npos) << bad.err;
}

// A module built before the framework's registry types changed (its stamp differs, or it has
// none) would crash kpuzzles when it registers: it is not loaded, and rebuilt when needed.
TEST_F(CliModules, AModuleBuiltForAnotherFrameworkIsRebuiltNotLoaded) {
  const fs::path tree = tree_with("older", {KPZ_COURSE_START});
  std::string bytes;
  {
    std::ifstream in(module_of("butterfly"), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = bytes.find("kpz-registry-layout:");
  ASSERT_NE(at, std::string::npos) << "no stamp in " << module_of("butterfly");
  char& digit = bytes[at + std::string("kpz-registry-layout:").size()];
  digit = digit == '0' ? '1' : '0';
  std::ofstream(tree / "puzzles" / "kpz-butterfly.so", std::ios::binary) << bytes;
  const Result other = kpuzzles_in(tree, std::string("run ") + KPZ_COURSE_START + " --reference");
  EXPECT_EQ(other.code, 0) << other.err;
  EXPECT_NE(other.err.find("kpuzzles: note: butterfly was built with another version of kpuzzles' framework"),
            std::string::npos)
      << other.err;
  EXPECT_EQ(kpz::test::count_lines(other.err), 1) << other.err;
  // Needed: rebuilt first (the stand-in cmake fails, so the command says so), never loaded.
  const Result needed = kpuzzles_in(tree, "run butterfly --reference");
  EXPECT_EQ(needed.code, 3) << needed.err;
  EXPECT_NE(needed.err.find("kpuzzles: building the puzzle butterfly"), std::string::npos) << needed.err;
  EXPECT_NE(needed.err.find("the build of butterfly failed"), std::string::npos) << needed.err;
}

// `watch` starts with what is built, builds the rest in the background and starts again with every
// puzzle. The "build" is a stand-in for cmake that links the module into the test's folder.
TEST_F(CliModules, WatchBuildsTheOthersInTheBackgroundAndStartsAgainWithThem) {
  const std::vector<std::string> built = all_but({"butterfly"});
  const fs::path tree = tree_with("watch", built);
  const fs::path fake_cmake = tree / "fake-cmake.sh";
  std::ofstream(fake_cmake) << "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in kpz_module_*) p=${a#kpz_module_}; "
                            << "ln -sf " << KPZ_MODULE_DIR << "/kpz-$p.so " << (tree / "puzzles").string()
                            << "/kpz-$p.so;; esac; done\n";
  fs::permissions(fake_cmake, fs::perms::owner_all);
  // The learner is on an exercise already solved, which a watch started without one would skip.
  std::ofstream(tree / "state.json")
      << R"({"version":1,"current":"conv1d/simple","exercises":{"conv1d/simple":{"solved":"2026-01-01T00:00:00Z"}}})";
  const Result r =
      kpz::test::shell("(sleep 15; echo q) | timeout 120 env KPZ_MODULE_DIR=" + (tree / "puzzles").string() +
                       " KPZ_STATE_FILE=" + (tree / "state.json").string() + " KPZ_CMAKE=" + fake_cmake.string() + " " +
                       KPZ_KPUZZLES + " watch conv1d --variant simple --json");
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::string> events, on;
  std::vector<long> totals;
  for (std::size_t at = 0; at < r.out.size();) {
    const std::size_t end = r.out.find('\n', at);
    const kpz::Json e = kpz::Json::parse(r.out.substr(at, end - at));
    events.push_back(e["event"].as_string());
    if (events.back() == "ready") {
      totals.push_back(static_cast<long>(e["total"].as_int()));
      on.push_back(e["exercise"].as_string());
    }
    if (events.back() == "building_others") EXPECT_EQ(e["puzzles"].as_string(), "butterfly");
    if (events.back() == "others_built") EXPECT_TRUE(e["ok"].as_bool()) << r.out;
    at = end == std::string::npos ? r.out.size() : end + 1;
  }
  const auto at = [&](const std::string& name) {
    return std::find(events.begin(), events.end(), name) - events.begin();
  };
  ASSERT_LT(at("others_built"), static_cast<long>(events.size())) << r.out;
  EXPECT_LT(at("ready"), at("building_others")) << "the first result comes before the background build";
  EXPECT_EQ(std::count(events.begin(), events.end(), "start"), 2) << r.out;
  ASSERT_EQ(totals.size(), 2u) << r.out;
  // The total is the whole course's before the other puzzles are built too, not the built ones'.
  EXPECT_EQ(totals[0], totals[1]) << r.out;
  // It starts again at the exercise the learner was on, not at the first unsolved one.
  EXPECT_EQ(on, (std::vector<std::string>{"conv1d/simple", "conv1d/simple"})) << r.out;
  EXPECT_EQ(events.back(), "quit");
}

// `hint` without a puzzle answers for the exercise the progress file says you are on, building its
// puzzle if need be (a stand-in cmake links the module), never for another puzzle.
TEST_F(CliModules, HintForTheExerciseYouAreOnBuildsItsPuzzle) {
  const fs::path tree = tree_with("hint", {KPZ_COURSE_START});
  const fs::path fake_cmake = tree / "fake-cmake.sh";
  std::ofstream(fake_cmake) << "#!/bin/sh\nln -sf " << module_of("conv1d") << " " << (tree / "puzzles").string()
                            << "/kpz-conv1d.so\n";
  fs::permissions(fake_cmake, fs::perms::owner_all);
  std::ofstream(tree / "state.json") << R"({"version":1,"current":"conv1d/simple"})";
  const Result r = kpz::test::shell("timeout 120 env KPZ_MODULE_DIR=" + (tree / "puzzles").string() +
                                    " KPZ_STATE_FILE=" + (tree / "state.json").string() +
                                    " KPZ_CMAKE=" + fake_cmake.string() + " " + KPZ_KPUZZLES + " hint </dev/null");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("kpuzzles: building the puzzle conv1d"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.rfind("conv1d --simple", 0), 0u) << r.out;
}

// `learner` builds kpuzzles and KPZ_COURSE_START's module (framework/puzzles/*/puzzle.cmake):
// that must be where the course starts, or a participant's first `watch` waits for a build.
TEST_F(CliModules, TheLearnerTargetsPuzzleIsWhereTheCourseStarts) {
  const Result j = kpz::test::shell(std::string(KPZ_KPUZZLES) + " list --json </dev/null");
  ASSERT_EQ(j.code, 0) << j.err;
  const kpz::Json list = kpz::Json::parse(j.out);
  ASSERT_FALSE(list["exercises"].items().empty());
  EXPECT_EQ(list["exercises"].items().front()["puzzle"].as_string(), KPZ_COURSE_START);
  EXPECT_TRUE(list["not_built"].items().empty()) << j.out;
}

}  // namespace

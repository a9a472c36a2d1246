// kpuzzles end to end: `watch` from a copy of kpuzzles re-checked with the copy
// (stale code) while it rebuilt the build tree's; after a failed build, `run`, `check` and `list`
// reported on the old code without a word. Now watch hands itself to the build tree's program,
// and the others say when the code they hold is older than the learner's files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "shell.hpp"

namespace {

namespace fs = std::filesystem;

using Result = kpz::test::ShellResult;

// `env` + `program` + `args` through /bin/sh; at most 120 s; stdin empty.
Result sh(const std::string& env, const std::string& program, const std::string& args) {
  return kpz::test::shell("timeout 120 env " + env + " " + program + " " + args + " </dev/null");
}

int lines(const std::string& s) {
  return kpz::test::count_lines(s);
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("kpz_cli_stale_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A copy of kpuzzles, as a learner makes with `cp build/openmp/framework/cli/kpuzzles ~/bin`.
std::string copy_of_kpuzzles(const fs::path& dir) {
  const fs::path copy = dir / "kpuzzles";
  fs::copy_file(KPZ_KPUZZLES, copy, fs::copy_options::overwrite_existing);
  return copy.string();
}

const std::string kBinaryInTree = std::string(KPZ_KPUZZLES).substr(std::string(KPZ_BUILD_DIR).size());

TEST(CliStale, WatchFromACopyRunsTheBuildTreesProgram) {
  const fs::path dir = fresh_dir("watch");
  const std::string copy = copy_of_kpuzzles(dir);
  // A build tree whose kpuzzles only says how it was called.
  const fs::path tree = dir / "build";
  fs::create_directories((tree / kBinaryInTree.substr(1)).parent_path());
  std::ofstream(tree / "CMakeCache.txt") << "# configured\n";
  const fs::path fake = tree / kBinaryInTree.substr(1);
  std::ofstream(fake) << "#!/bin/sh\necho \"build tree kpuzzles: $*\"\n";
  fs::permissions(fake, fs::perms::owner_all);
  const Result r = sh("KPZ_BUILD_DIR=" + tree.string(), copy, "watch conv1d --no-tty");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "build tree kpuzzles: watch conv1d --no-tty\n");
  EXPECT_NE(r.err.find("watch runs the build tree's kpuzzles, which it rebuilds: " + fake.string()), std::string::npos)
      << r.err;
  // A configured build tree without its program: one line, exit 2.
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "empty/CMakeCache.txt") << "# configured\n";
  const Result none = sh("KPZ_BUILD_DIR=" + (dir / "empty").string(), copy, "watch --no-tty");
  EXPECT_EQ(none.code, 2) << none.out << none.err;
  EXPECT_EQ(lines(none.err), 1) << none.err;
  EXPECT_NE(none.err.find("which does not exist: build it first"), std::string::npos) << none.err;
}

TEST(CliStale, CodeSavedAfterTheBuildIsAnnounced) {
  // A source tree whose exercise was saved now, after this kpuzzles was built (as after a save
  // whose build failed).
  const fs::path src = fresh_dir("src");
  fs::create_directories(src / "exercises/conv1d");
  const fs::path saved = src / "exercises/conv1d/conv1d.cpp";
  std::ofstream(saved) << "// a save whose build failed\n";
  const std::string env = "KPZ_SOURCE_DIR=" + src.string();
  const std::string note = "kpuzzles: note: exercises/conv1d/conv1d.cpp was saved after this kpuzzles was built";
  for (const char* args : {"run conv1d --simple", "check conv1d --variant simple"}) {
    const Result r = sh(env, KPZ_KPUZZLES, args);
    EXPECT_TRUE(r.code == 0 || r.code == 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(note), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  }
  // The reference is not the learner's code; another puzzle's file is not this one's.
  EXPECT_EQ(sh(env, KPZ_KPUZZLES, "run conv1d --simple --reference").err, "");
  EXPECT_EQ(sh(env, KPZ_KPUZZLES, "run butterfly --pair-swap").err.find("note:"), std::string::npos);
  // Saved before the build: nothing to say.
  fs::last_write_time(saved, fs::file_time_type::clock::now() - std::chrono::hours(24 * 365 * 20));
  EXPECT_EQ(sh(env, KPZ_KPUZZLES, "run conv1d --simple").err, "");
}

TEST(CliStale, ACopyOlderThanTheBuildTreesProgramSaysSo) {
  const fs::path dir = fresh_dir("old-copy");
  const std::string copy = copy_of_kpuzzles(dir);
  fs::last_write_time(copy, fs::file_time_type::clock::now() - std::chrono::hours(24 * 365 * 20));
  const Result r = sh("", copy, "run conv1d --simple");
  EXPECT_NE(r.err.find("kpuzzles: note: this kpuzzles (" + copy + ") is older than the build tree's " +
                       std::string(KPZ_KPUZZLES)),
            std::string::npos)
      << r.err;
}

}  // namespace

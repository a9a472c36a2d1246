// `kpuzzles doctor`'s verdict, the pre-workshop check (docs/instructor/setup-check.md): one line,
// "ready" exactly when every setup check is ok, otherwise naming what is missing. And the course
// fields of `kpuzzles list --json` that the instructor's pages are generated from.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "shell.hpp"

namespace {

namespace fs = std::filesystem;
using Result = kpz::test::ShellResult;

// kpuzzles with `env` settings; the host backends get enough threads for teams of 4 or more
// (OpenMP: 8; Threads: one per core, more would spin), so that only what a test changes is missing.
Result doctor(const std::string& env, const std::string& args = "") {
  return kpz::test::shell("env -u KOKKOS_NUM_THREADS OMP_NUM_THREADS=8 " + env + " " + std::string(KPZ_KPUZZLES) +
                          " doctor " + args);
}

std::vector<std::string> verdict_lines(const std::string& out) {
  std::vector<std::string> found;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.find("verdict: ") != std::string::npos) found.push_back(line);
  return found;
}

// A build tree laid out as the presets make it: <root>/openmp (configured) and, when `with_trace`,
// <root>/trace/framework/cli/kpuzzles.
std::string fake_build_tree(const std::string& name, bool with_trace) {
  const fs::path root = fs::path(testing::TempDir()) / ("kpz_doctor_" + name);
  fs::remove_all(root);
  fs::create_directories(root / "openmp");
  std::ofstream(root / "openmp" / "CMakeCache.txt") << "# configured\n";
  if (with_trace) {
    fs::create_directories(root / "trace" / "framework" / "cli");
    std::ofstream(root / "trace" / "framework" / "cli" / "kpuzzles") << "#!/bin/sh\n";
  }
  return (root / "openmp").string();
}

bool has_host_parallel_backend() {
  const std::string j = doctor("", "--json").out;
  return j.find(R"re("name":"openmp")re") != std::string::npos ||
         j.find(R"re("name":"threads")re") != std::string::npos;
}

TEST(CliDoctor, VerdictIsOneLineAndAgreesWithTheJson) {
  const Result text = doctor("");
  ASSERT_EQ(text.code, 0) << text.err;
  const std::vector<std::string> lines = verdict_lines(text.out);
  ASSERT_EQ(lines.size(), 1u) << text.out;
  const Result json = doctor("", "--json");
  ASSERT_EQ(json.code, 0) << json.err;
  const bool ready = json.out.find(R"re("ready":true)re") != std::string::npos;
  EXPECT_NE(json.out.find(ready ? R"re("missing":[])re" : R"re("missing":[")re"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find(R"re("verdict":"verdict: )re" + std::string(ready ? "ready" : "not ready: ")),
            std::string::npos)
      << json.out;
  EXPECT_NE(lines[0].find(ready ? "verdict: ready" : "verdict: not ready: "), std::string::npos) << lines[0];
}

TEST(CliDoctor, ReadyWhenTheBuildsAreThere) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "a CUDA build's verdict also depends on the GPU it runs on";
  const Result r = doctor("KPZ_BUILD_DIR=" + fake_build_tree("ready", true));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> lines = verdict_lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  if (has_host_parallel_backend()) {
    EXPECT_NE(lines[0].find("verdict: ready"), std::string::npos) << r.out;
  } else {
    // Serial only: races cannot show, so the verdict names the backends.
    EXPECT_NE(lines[0].find("not ready: backends"), std::string::npos) << r.out;
  }
}

TEST(CliDoctor, NamesWhatIsMissing) {
  // No configured build tree and (without the race check) no trace build beside it: both are
  // named, each with its fix above. A build with the race check needs no trace build.
  const Result none = doctor("KPZ_BUILD_DIR=" + (fs::path(testing::TempDir()) / "kpz_doctor_none/openmp").string());
  ASSERT_EQ(none.code, 0) << none.err;
  const std::vector<std::string> lines = verdict_lines(none.out);
  ASSERT_EQ(lines.size(), 1u) << none.out;
  EXPECT_NE(lines[0].find("not ready: "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("build tree"), std::string::npos) << lines[0];
  const Result json =
      doctor("KPZ_BUILD_DIR=" + (fs::path(testing::TempDir()) / "kpz_doctor_none/openmp").string(), "--json");
  EXPECT_NE(json.out.find(R"re("ready":false)re"), std::string::npos) << json.out;
  if (KPZ_HAS_VERIFY) {
    EXPECT_EQ(lines[0].find("trace build"), std::string::npos) << lines[0];
    EXPECT_NE(json.out.find(R"re({"check":"race check","ok":true)re"), std::string::npos) << json.out;
  } else {
    EXPECT_NE(lines[0].find("trace build"), std::string::npos) << lines[0];
    EXPECT_NE(none.out.find("cmake --preset trace"), std::string::npos) << none.out;
    EXPECT_NE(json.out.find(R"re("trace build")re"), std::string::npos) << json.out;
  }
  // The trace build present, the build tree configured: only the team size is left to fix.
  if (KPZ_HAS_CUDA) return;
  const std::string json_env = doctor("", "--json").out;
  if (json_env.find(R"re("name":"openmp")re") == std::string::npos) return;
  const Result one = kpz::test::shell("env OMP_NUM_THREADS=1 KPZ_BUILD_DIR=" + fake_build_tree("one-thread", true) +
                                      " " + std::string(KPZ_KPUZZLES) + " doctor");
  const std::vector<std::string> one_lines = verdict_lines(one.out);
  ASSERT_EQ(one_lines.size(), 1u) << one.out;
  // One thread: teams of one member hide a missing barrier, unless the race check traces them.
  if (KPZ_HAS_VERIFY)
    EXPECT_NE(one_lines[0].find("verdict: ready"), std::string::npos) << one_lines[0];
  else
    EXPECT_NE(one_lines[0].find("not ready: openmp teams ("), std::string::npos) << one_lines[0];
}

int count(const std::string& s, const std::regex& re) {
  return static_cast<int>(std::distance(std::sregex_iterator(s.begin(), s.end(), re), std::sregex_iterator()));
}

TEST(CliCourse, EveryExerciseHasAPositionAnEstimateAndATrack) {
  const Result l = kpz::test::shell("env KPZ_STATE_FILE=" + testing::TempDir() + "kpz_course_list.json " +
                                    std::string(KPZ_KPUZZLES) + " list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  const int exercises = count(l.out, std::regex(R"re("puzzle":")re"));
  ASSERT_GT(exercises, 0) << l.out;
  EXPECT_EQ(count(l.out, std::regex(R"re("minutes":[1-9][0-9]*)re")), exercises) << "an exercise without an estimate";
  EXPECT_EQ(count(l.out, std::regex(R"re("track":"(core|stretch)")re")), exercises) << l.out;
  EXPECT_GT(count(l.out, std::regex(R"re("track":"core")re")), 0) << l.out;
  EXPECT_EQ(count(l.out, std::regex(R"re("doc":"[^"]+\.md")re")), exercises) << l.out;
  // Positions are 1..N in list order.
  std::smatch m;
  int expected = 1;
  for (auto it = l.out.cbegin(); std::regex_search(it, l.out.cend(), m, std::regex(R"re("position":(\d+))re"));
       it = m.suffix().first)
    EXPECT_EQ(std::stoi(m[1]), expected++);
  EXPECT_EQ(expected - 1, exercises);
}

}  // namespace

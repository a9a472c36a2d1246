// kpuzzles end to end: --help and --version everywhere, a mistyped flag's closest match, `hint`
// without a puzzle, the thread settings checked before Kokkos starts, exit codes (a wrong answer
// in bench, output that cannot be written, a missing cmake), echoed arguments kept on one line,
// the time limit, and a progress file that cannot be read.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "shell.hpp"

namespace {

namespace fs = std::filesystem;

using Result = kpz::test::ShellResult;

// KPZ_TEST_KPUZZLES runs these tests against another binary (e.g. an older build).
std::string exe() {
  const char* other = std::getenv("KPZ_TEST_KPUZZLES");
  return other && *other ? other : KPZ_KPUZZLES;
}

// `setup` + `prefix` (environment, wrappers) + kpuzzles + `args` + `redirect`, at most 120 s.
Result sh(const std::string& prefix, const std::string& args, const std::string& redirect = "",
          const std::string& setup = "") {
  return kpz::test::shell(setup + "timeout 120 " + prefix + " " + exe() + " " + args + " " + redirect);
}

Result kpuzzles(const std::string& args) {
  return sh("env", args);
}

int lines(const std::string& s) {
  return kpz::test::count_lines(s);
}

std::string fresh_state(const std::string& name) {
  const std::string path = testing::TempDir() + "kpz_cli_hardening_" + name + ".json";
  for (const char* suffix : {"", ".lock", ".err"}) fs::remove(path + suffix);
  return path;
}

// Every command the overall usage lists (version included) answers --help and -h with its own
// usage, never with its output.
TEST(CliHelp, EverySubcommandAnswersHelpWithItsUsage) {
  const Result usage = kpuzzles("--help");
  ASSERT_EQ(usage.code, 0) << usage.err;
  std::vector<std::string> commands;
  std::istringstream in(usage.out);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, std::regex("^  kpuzzles ([a-z]+)"))) commands.push_back(m[1]);
  for (const char* expected : {"watch", "list", "hint", "run", "check", "bench", "doctor", "trace", "version"})
    EXPECT_NE(std::find(commands.begin(), commands.end(), expected), commands.end()) << expected << " in " << usage.out;
  for (const std::string& command : commands)
    for (const char* flag : {"--help", "-h"}) {
      const Result r = kpuzzles(command + " " + flag);
      EXPECT_EQ(r.code, 0) << command << " " << flag << ": " << r.err;
      EXPECT_EQ(r.out.rfind("usage: kpuzzles " + command, 0), 0u) << command << " " << flag << ": " << r.out;
      EXPECT_EQ(r.err, "") << command << " " << flag;
    }
  EXPECT_EQ(kpuzzles("--version --help").out.rfind("usage: kpuzzles version", 0), 0u);
  const Result extra = kpuzzles("version now");
  EXPECT_EQ(extra.code, 2) << extra.out;
  EXPECT_EQ(lines(extra.err), 1) << extra.err;
  const Result after_puzzle = kpuzzles("hint conv1d --variant simple -h");
  EXPECT_EQ(after_puzzle.code, 0) << after_puzzle.err;
  EXPECT_NE(after_puzzle.out.find("usage: kpuzzles hint"), std::string::npos) << after_puzzle.out;
  const Result puzzle = kpuzzles("run conv1d -h");  // a puzzle's own help: its variants
  EXPECT_EQ(puzzle.code, 0) << puzzle.err;
  EXPECT_NE(puzzle.out.find("--simple"), std::string::npos) << puzzle.out;
  const Result help_topic = kpuzzles("help bench");
  EXPECT_EQ(help_topic.code, 0);
  EXPECT_NE(help_topic.out.find("usage: kpuzzles bench"), std::string::npos) << help_topic.out;
}

// A typo in a flag: exit 2, one line naming the closest allowed flag and every allowed one.
TEST(CliUsage, AnUnknownFlagGetsTheClosestAllowedOne) {
  const std::pair<const char*, const char*> typos[] = {
      {"run conv1d --simpel",
       "kpuzzles: unknown flag '--simpel' for 'kpuzzles run conv1d'; did you mean --simple? allowed: --general, "
       "--vector, --simple,"},
      {"check --refrence",
       "kpuzzles: unknown flag '--refrence' for 'kpuzzles check'; did you mean --reference? "
       "allowed: --reference, --space V,"},
      {"run conv1d --bogus", "kpuzzles: unknown flag '--bogus' for 'kpuzzles run conv1d'; allowed: --general,"}};
  for (const auto& [args, says] : typos) {
    const Result r = kpuzzles(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(says, 0), 0u) << args << ": " << r.err;
  }
}

TEST(CliHelp, VersionNamesTheProjectAndKokkos) {
  std::ifstream cmake(std::string(KPZ_SOURCE_DIR) + "/CMakeLists.txt");
  std::stringstream text;
  text << cmake.rdbuf();
  std::smatch m;
  const std::string lists = text.str();
  ASSERT_TRUE(std::regex_search(lists, m, std::regex(R"(project\(KokkosPuzzles VERSION ([0-9.]+))")));
  const std::string project = m[1];
  const Result doctor = kpuzzles("doctor --json");
  ASSERT_TRUE(std::regex_search(doctor.out, m, std::regex(R"re("kokkos_version":"([0-9.]+)")re"))) << doctor.out;
  const std::string kokkos = m[1];
  for (const char* args : {"--version", "version"}) {
    const Result r = kpuzzles(args);
    EXPECT_EQ(r.code, 0) << args << ": " << r.err;
    EXPECT_NE(r.out.find("kpuzzles " + project), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Kokkos " + kokkos), std::string::npos) << r.out;
  }
}

TEST(CliLearnerDefaults, HintWithoutAPuzzleIsForTheCurrentExercise) {
  const std::string state = fresh_state("hint-current");
  std::ofstream(state) << R"({"current":"butterfly/parallel-min","version":1})" << '\n';
  const Result r = sh("env KPZ_STATE_FILE=" + state, "hint");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("butterfly --parallel-min"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hint 1 of"), std::string::npos) << r.out;
  const Result seen = sh("env KPZ_STATE_FILE=" + state, "hint --seen");
  EXPECT_EQ(seen.code, 0) << seen.err;
  EXPECT_NE(seen.out.find("hint 1 of"), std::string::npos) << seen.out;
  const Result fresh = sh("env KPZ_STATE_FILE=" + fresh_state("hint-fresh"), "hint");
  EXPECT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_NE(fresh.out.find("hint 1 of"), std::string::npos) << fresh.out;
}

TEST(CliThreads, ThreadsBackendCountsAreCheckedToo) {
  if (sh("env", "doctor --json").out.find(R"("name":"threads")") == std::string::npos)
    GTEST_SKIP() << "this build has no Threads backend";
  for (const char* value : {"513", "abc", "0", "-1", "4x"}) {
    const Result r = sh(std::string("env KOKKOS_NUM_THREADS=") + value, "list");
    EXPECT_EQ(r.code, 2) << value << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << value << ": " << r.err;
    EXPECT_NE(r.err.find("KOKKOS_NUM_THREADS"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("from 1 to 512"), std::string::npos) << r.err;
  }
  EXPECT_EQ(sh("env KOKKOS_NUM_THREADS=3", "run conv1d --simple --reference").code, 0);
  // Unset: one thread per core, as OpenMP does (Kokkos' own default without hwloc is one).
  const Result d = sh("env -u KOKKOS_NUM_THREADS", "doctor --json");
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_NE(d.out.find(R"("name":"threads","concurrency":)" + cores), std::string::npos) << d.out;
  // More threads than cores: Threads' barriers spin, so doctor advises against it.
  const Result over =
      sh("env KOKKOS_NUM_THREADS=" + std::to_string(std::max(1u, std::thread::hardware_concurrency()) + 1), "doctor");
  EXPECT_NE(over.out.find("more threads than cores"), std::string::npos) << over.out;
}

TEST(CliThreads, ThreadCountsKokkosCannotTakeExitTwoBeforeItStarts) {
  if (sh("env", "doctor --json").out.find(R"("name":"openmp")") == std::string::npos)
    GTEST_SKIP() << "this build has no OpenMP backend: thread counts are not its concern";
  for (const char* value : {"513", "100000", "99999999999", "abc", "0", "-1", "8,1000", "4x"}) {
    const Result r = sh(std::string("env OMP_NUM_THREADS=") + value, "list");
    EXPECT_EQ(r.code, 2) << value << ": " << r.err;
    // libgomp itself reports a value it cannot parse ("libgomp: Invalid value ...", after an
    // empty line) while the program loads, before main: one line of ours besides.
    std::string ours;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line.rfind("libgomp: ", 0) != 0) ours += line + "\n";
    EXPECT_EQ(lines(ours), 1) << value << ": " << r.err;
    EXPECT_NE(ours.find("OMP_NUM_THREADS"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("from 1 to 512"), std::string::npos) << r.err;
  }
  const Result kokkos = sh("env KOKKOS_NUM_THREADS=513", "list");
  EXPECT_EQ(kokkos.code, 2) << kokkos.err;
  EXPECT_NE(kokkos.err.find("KOKKOS_NUM_THREADS"), std::string::npos) << kokkos.err;
  EXPECT_EQ(sh("env OMP_NUM_THREADS=2", "run conv1d --simple --reference").code, 0);
  EXPECT_EQ(sh("env OMP_NUM_THREADS=2,1", "run conv1d --simple --reference").code, 0);
}

TEST(CliExitCodes, BenchOfAWrongExerciseExitsOne) {
  if (kpuzzles("check conv1d").code == 0) GTEST_SKIP() << "conv1d is solved in exercises/";
  const Result r = kpuzzles("bench conv1d --exercise --size 4096 --kernel-size 3 --runs 1 --warmup 0");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("wrong answer"), std::string::npos) << r.err;
  const Result reference = kpuzzles("bench conv1d --size 4096 --kernel-size 3 --runs 1 --warmup 0");
  EXPECT_EQ(reference.code, 0) << reference.err;
}

TEST(CliExitCodes, BenchOfAWrongExerciseOnRanksSaysItOnce) {
  if (kpuzzles("run distributed --help").code != 0) GTEST_SKIP() << "this build has no MPI (no distributed puzzle)";
  if (kpuzzles("check distributed --variant halo").code == 0) GTEST_SKIP() << "--halo is solved in exercises/";
  // Every rank finds the wrong answer (the bench agrees on it); the first rank says so.
  const Result r = kpuzzles("bench distributed --exercise --size 4096 --ranks 3 --runs 1 --warmup 0");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  std::size_t said = 0;
  for (std::size_t at = r.err.find("kpuzzles: wrong answer"); at != std::string::npos;
       at = r.err.find("kpuzzles: wrong answer", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << r.err;
}

TEST(CliExitCodes, CasesWithoutACaseExitTwo) {
  if (kpuzzles("run distributed --help").code != 0) GTEST_SKIP() << "this build has no MPI (no distributed puzzle)";
  const Result r = kpuzzles("run distributed --cases ' ; '");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--cases: no case given"), std::string::npos) << r.err;
}

TEST(CliExitCodes, OutputThatCannotBeWrittenExitsThree) {
  const Result full = sh("env", "run conv1d --simple --reference", ">/dev/full");
  EXPECT_EQ(full.code, 3) << full.err;
  EXPECT_NE(full.err.find("cannot write the output"), std::string::npos) << full.err;
  const Result closed = sh("env", "run conv1d --simple --reference", ">&-");
  EXPECT_EQ(closed.code, 3) << closed.err;
  EXPECT_NE(closed.err.find("standard output is closed"), std::string::npos) << closed.err;
  EXPECT_EQ(sh("env", "run conv1d --simple --reference", ">/dev/null").code, 0);
}

TEST(CliExitCodes, AMissingCmakeIsNamedNotACompileError) {
  const Result r = sh("env KPZ_CMAKE=/nonexistent-kpz/cmake KPZ_STATE_FILE=" + fresh_state("no-cmake"),
                      "watch conv1d --json </dev/null");
  EXPECT_NE(r.out.find("\"cmake_missing\":true"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("cmake not found: '/nonexistent-kpz/cmake'"), std::string::npos) << r.out;
}

TEST(CliExitCodes, EchoedArgumentsCannotBreakTheOneLineRule) {
  const Result command = kpuzzles("\"$(printf 'frob\\nnicate')\"");
  EXPECT_EQ(command.code, 2);
  EXPECT_EQ(lines(command.err), 1) << command.err;
  EXPECT_NE(command.err.find("'frob\\nnicate'"), std::string::npos) << command.err;
  const Result flag = kpuzzles("run conv1d \"$(printf -- '--si\\033[31mze')\"");
  EXPECT_EQ(flag.code, 2);
  EXPECT_EQ(lines(flag.err), 1) << flag.err;
  EXPECT_EQ(flag.err.find('\033'), std::string::npos) << flag.err;
  EXPECT_NE(flag.err.find("\\x1b"), std::string::npos) << flag.err;
  const Result value = kpuzzles("run conv1d --size \"$(printf '1\\n2')\"");
  EXPECT_EQ(value.code, 2);
  EXPECT_EQ(lines(value.err), 1) << value.err;
  const Result puzzle = kpuzzles("run \"$(printf 'conv\\r1d')\"");
  EXPECT_EQ(puzzle.code, 2);
  EXPECT_EQ(puzzle.err.find('\r'), std::string::npos) << puzzle.err;
}

// The message names the case that hung as a crash report would: puzzle, variant, the flags that
// repeat it, the implementation and the space.
TEST(CliTimeLimit, ARunPastItsLimitIsStoppedWithWhatProbablyHappened) {
  const std::pair<const char*, const char*> runs[] = {
      {"run conv1d --reference --size 16777216 --kernel-size 64 --time-limit 0.005",
       "kpuzzles: TIMED OUT: conv1d --general --size 16777216 --kernel-size 64 (reference, "},
      {"run conv1d --vector --reference --team-size 2 --size 16777216 --time-limit 0.005",
       "kpuzzles: TIMED OUT: conv1d --vector --size 16777216 --team-size 2 (reference, "},
      {"check conv1d --reference --variant general --no-race-check --time-limit 0.001",
       "kpuzzles: TIMED OUT: conv1d --general (reference, "}};
  for (const auto& [args, named] : runs) {
    const Result r = kpuzzles(args);
    EXPECT_EQ(r.code, 124) << args << ": " << r.out << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(named, 0), 0u) << args << ": " << r.err;
    for (const char* word : {"did not finish within", "endless loop", "--time-limit"})
      EXPECT_NE(r.err.find(word), std::string::npos) << word << " in " << r.err;
  }
  // Stopped in its race check (before any case runs): the exercise is named.
  const Result race = kpuzzles("check conv1d --reference --variant general --time-limit 0.001");
  EXPECT_EQ(race.code, 124) << race.err;
  EXPECT_EQ(race.err.rfind("kpuzzles: TIMED OUT: conv1d --general ", 0), 0u) << race.err;
  EXPECT_EQ(kpuzzles("run conv1d --simple --reference --time-limit 0").code, 0);
  EXPECT_EQ(kpuzzles("run conv1d --simple --reference --time-limit 30").code, 0);
  EXPECT_EQ(kpuzzles("run conv1d --time-limit soon").code, 2);
  EXPECT_EQ(kpuzzles("check conv1d --time-limit -1").code, 2);
}

TEST(CliMemory, JsonLeavesOutLargeArraysUnlessAsked) {
  const Result big = kpuzzles("run conv1d --reference --size 200000 --json");
  EXPECT_EQ(big.code, 0) << big.err;
  EXPECT_LT(big.out.size(), 20000u);
  EXPECT_NE(big.out.find("\"arrays_omitted\":\"--size is above 4096"), std::string::npos) << big.out.substr(0, 400);
  EXPECT_NE(big.out.find("\"pass\":true"), std::string::npos);
  const Result full = kpuzzles("run conv1d --reference --size 200000 --json --full-arrays");
  EXPECT_EQ(full.code, 0) << full.err;
  EXPECT_GT(full.out.size(), 400000u);
  const Result small = kpuzzles("run conv1d --simple --reference --json");
  EXPECT_NE(small.out.find("\"output\":[5,8,11,14,5,0]"), std::string::npos) << small.out;
  EXPECT_EQ(small.out.find("arrays_omitted"), std::string::npos);
}

// End to end: 8 `kpuzzles hint` processes at once, 3 rounds each (one hint
// set per writer; 3 tiers each): every tier recorded, the file parses, no temporary left.
TEST(CliProgressFile, ParallelHintsLoseNothing) {
  const std::string state = fresh_state("parallel-hints");
  const std::vector<std::pair<std::string, std::string>> writers = {
      {"conv1d --variant simple", "conv1d/simple"},
      {"conv1d --variant block-boundary", "conv1d/tiled"},
      {"conv1d --variant general", "conv1d/general"},
      {"butterfly --variant pair-swap", "butterfly/pair_swap"},
      {"butterfly --variant parallel-max", "butterfly/all_reduce"},
      {"butterfly --variant conditional-max", "butterfly/conditional"},
      {"bin-extract --variant histogram", "bin-extract/histogram"},
      {"bin-extract --variant extract", "bin-extract/extract"}};
  std::string script;
  for (const auto& w : writers)
    script += "(for r in 1 2 3; do OMP_NUM_THREADS=1 KPZ_STATE_FILE=" + state + " " + exe() + " hint " + w.first +
              " >/dev/null 2>>" + state + ".err || echo fail >>" + state + ".err; done) & ";
  script += "wait";
  ASSERT_EQ(std::system(("sh -c '" + script + "'").c_str()), 0);
  std::ifstream in(state);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& w : writers)
    EXPECT_NE(text.str().find("\"" + w.second + "\":3"), std::string::npos) << w.second << " in " << text.str();
  std::ifstream err(state + ".err");
  std::stringstream errors;
  errors << err.rdbuf();
  EXPECT_EQ(errors.str(), "");
  for (const auto& e : fs::directory_iterator(fs::path(state).parent_path()))
    EXPECT_EQ(e.path().string().rfind(state + ".tmp", 0), std::string::npos) << e.path();
  fs::remove(state + ".err");
}

// After a reset, `list` and `solution` agree that a recorded solve counts.
TEST(CliProgressFile, SolvedMeansTheSameInListAndSolution) {
  if (kpuzzles("check conv1d --variant simple").code == 0) GTEST_SKIP() << "conv1d --simple passes in exercises/";
  const std::string state = fresh_state("solved-once");
  std::ofstream(state) << R"({"exercises":{"conv1d/simple":{"solved":"2026-01-31T12:00:00Z"}},"version":1})" << '\n';
  const Result list = sh("env KPZ_STATE_FILE=" + state, "list --json");
  EXPECT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find(R"("variant":"simple")"), std::string::npos);
  const auto at = list.out.find(R"("variant":"simple")");
  const std::string entry = list.out.substr(at, list.out.find('}', at) - at);
  EXPECT_NE(entry.find(R"("status":"solved")"), std::string::npos) << entry;
  EXPECT_NE(entry.find(R"("passes_now":false)"), std::string::npos) << entry;
  const Result text = sh("env KPZ_STATE_FILE=" + state, "list");
  EXPECT_NE(text.out.find("solved before; your code as built now does not pass"), std::string::npos) << text.out;
  const Result solution = sh("env KPZ_STATE_FILE=" + state, "solution conv1d --json");
  EXPECT_EQ(solution.out.find(R"("simple")"), std::string::npos) << "not among the unsolved: " << solution.out;
}

TEST(CliMemory, OutOfMemorySaysWhatToDo) {
  if (KPZ_HAS_CUDA) GTEST_SKIP() << "the CUDA runtime cannot start under an address-space limit";
  // An address-space limit stands in for a small machine.
  const Result r = sh("env", "run conv1d --reference --size 268435456 --kernel-size 3", "", "ulimit -v 3000000; ");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("out of memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("try a smaller --size"), std::string::npos) << r.err;
}

TEST(CliProgressFile, AnUnreadableProgressFileIsAnErrorAndIsKept) {
  const std::string state = fresh_state("unreadable");
  const std::string text = R"({"hints":{"butterfly/pair_swap":2},"version":1})"
                           "\n";
  std::ofstream(state) << text;
  fs::permissions(state, fs::perms::owner_read | fs::perms::owner_write);  // as `sudo kpuzzles` leaves it
  // Root reads every file: the command runs as nobody then.
  const std::string as_user = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups env" : "env";
  const Result r = sh(as_user + " KPZ_STATE_FILE=" + state, "hint butterfly");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(state), std::string::npos) << r.err;
  std::ifstream in(state);
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_EQ(kept.str(), text);
}

}  // namespace

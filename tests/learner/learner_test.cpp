// The learner loop's pieces: skeleton generation (the C++ port against the Python script),
// exercise order and data, compile-error trimming, file watching, child processes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bug_hunt_note.hpp"
#include "compile_errors.hpp"
#include "crash_report.hpp"
#include "docs_text.hpp"
#include "exercises.hpp"
#include "file_watcher.hpp"
#include "kpz/errors.hpp"
#include "kpz/json.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "puzzle_modules.hpp"
#include "skeleton.hpp"
#include "terminal.hpp"
#include "time_limit.hpp"

namespace {

namespace fs = std::filesystem;
using namespace kpz::cli;

// ---- skeletons ----

TEST(Skeleton, MarkersAreChecked) {
  const std::string ok =
      "// header\n#include <x>\nnamespace kpz::my_p::reference {\n  // KPZ-TODO(roughly 1 line): do it\n  x();\n  // "
      "KPZ-END\n}\n";
  const std::string s = skeleton_from_reference(ok, "my-p", "f.cpp");
  EXPECT_NE(s.find("namespace kpz::my_p::exercise {"), std::string::npos) << s;
  EXPECT_NE(s.find("  // TODO(roughly 1 line): do it\n}"), std::string::npos) << s;
  EXPECT_EQ(s.find("x();"), std::string::npos);
  EXPECT_EQ(s.rfind(skeleton_header("my-p"), 0), 0u);
  EXPECT_THROW(skeleton_from_reference("int x;\n", "p", "f.cpp"), SkeletonError);  // no TODO
  EXPECT_THROW(skeleton_from_reference("// KPZ-END\n", "p", "f.cpp"), SkeletonError);
  EXPECT_THROW(
      skeleton_from_reference("  // KPZ-TODO(roughly 2 lines): a\n  // KPZ-TODO(roughly 2 lines): b\n", "p", "f.cpp"),
      SkeletonError);
  EXPECT_THROW(skeleton_from_reference("  // KPZ-TODO(roughly 2 lines): a\nx;\n", "p", "f.cpp"), SkeletonError);
}

// A TODO's text goes on in the comment lines right after its marker, at its indentation, that
// start with `//   `; the solution's own comments (`// why`) stay out of the skeleton.
TEST(Skeleton, TodoTextGoesOnInContinuationLines) {
  const std::string ref =
      "namespace kpz::p::reference {\n  // KPZ-TODO(roughly 2 lines): do the first part\n  //   and the second\n"
      "  // why the solution is so\n  //   not the TODO's: after a solution line\n  x();\n  // KPZ-END\n"
      "  // KPZ-TODO(roughly 1 line): more\n    //   deeper: not the TODO's\n  y();\n  // KPZ-END\n}\n";
  const std::string s = skeleton_from_reference(ref, "p", "f.cpp");
  EXPECT_NE(s.find("  // TODO(roughly 2 lines): do the first part\n  //   and the second\n"
                   "  // TODO(roughly 1 line): more\n}\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("why"), std::string::npos) << s;
  EXPECT_EQ(s.find("deeper"), std::string::npos) << s;
}

TEST(Skeleton, FunctionSectionsTellTouchedFromUntouched) {
  const std::string skeleton =
      "namespace n {\ntemplate <class S>\nvoid simple(int a,\n            int b) {\n  // TODO(roughly 3 lines): "
      "x\n}\n\n"
      "template <class S>\nvoid tiled(int a) {\n  // TODO(roughly 2 lines): y\n}\n}  // namespace n\n";
  EXPECT_EQ(function_section(skeleton, "tiled"), "void tiled(int a) {\n  // TODO(roughly 2 lines): y\n}\n");
  EXPECT_EQ(function_section(skeleton, "nosuch"), "");
  std::string mine = skeleton;
  mine.replace(mine.find("  // TODO(roughly 2 lines): y"), 30, "  y();");
  EXPECT_TRUE(function_untouched(mine, skeleton, "simple"));
  EXPECT_FALSE(function_untouched(mine, skeleton, "tiled"));
  EXPECT_FALSE(function_untouched(mine, skeleton, ""));  // whole files differ
  std::string spaces = skeleton;
  spaces.insert(spaces.find("{\n  // TODO(roughly 2") + 1, "   ");  // trailing spaces do not count
  EXPECT_TRUE(function_untouched(spaces, skeleton, "tiled"));
}

TEST(Skeleton, SolvedExerciseIsTheReferenceInTheExerciseNamespace) {
  EXPECT_EQ(solved_exercise_from_reference("namespace kpz::bin_extract::reference {", "bin-extract"),
            "namespace kpz::bin_extract::exercise {");
}

// ---- exercises: order, data, checks ----

// Every concept comes before an exercise that needs it. The reduction ladder (`reduce`)
// teaches the team reductions and trees that the compaction (`bin-extract`: per-tile counts, a
// scan of them) and the segmented scan (`segscan`: its reduction and carries) build on.
TEST(Exercises, ReductionsComeBeforeTheCompactionAndTheSegmentedScan) {
  const auto list = course_exercises();
  std::ptrdiff_t last_reduce = -1;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].puzzle->name == "reduce") last_reduce = static_cast<std::ptrdiff_t>(i);
  ASSERT_GE(last_reduce, 0) << "no reduce in the course";
  for (const char* later : {"bin-extract", "segscan"}) {
    const auto first =
        std::find_if(list.begin(), list.end(), [&](const Exercise& e) { return e.puzzle->name == later; });
    ASSERT_NE(first, list.end()) << later;
    EXPECT_LT(last_reduce, first - list.begin()) << "every exercise of reduce before " << later;
  }
}

// Bug hunts are checked only by the trace build; the loop's line on one says how to
// build it and what to run there, and points at the trace build once it exists.
TEST(BugHunts, TheNoteSaysHowToBuildAndRunTheTraceBuild) {
  kpz::PuzzleSpec puzzle;
  puzzle.name = "zz-hunt";
  kpz::VariantSpec hunt, plain;
  hunt.name = "bug-lost-barrier";
  hunt.bug_hunt = true;
  plain.name = "simple";
  LearnerPaths paths = learner_paths();
  paths.source_dir = testing::TempDir() + "kpz_bug_hunt_note";
  fs::remove_all(paths.source_dir);
  fs::create_directories(paths.source_dir);
  EXPECT_EQ(bug_hunt_note(paths, puzzle, plain), "");
  const std::string trace = "build/trace/framework/cli/kpuzzles trace zz-hunt --bug-lost-barrier";
  const std::string fresh = bug_hunt_note(paths, puzzle, hunt);
  EXPECT_EQ(fresh.find('\n'), std::string::npos) << fresh;
  EXPECT_NE(fresh.find("cmake --preset trace && cmake --build --preset trace --target kpuzzles"), std::string::npos)
      << fresh;
  EXPECT_NE(fresh.find(trace), std::string::npos) << fresh;
  EXPECT_EQ(trace_build_kpuzzles(paths), paths.source_dir + "/build/trace/framework/cli/kpuzzles");
  fs::create_directories(fs::path(trace_build_kpuzzles(paths)).parent_path());
  std::ofstream(trace_build_kpuzzles(paths)) << "#!/bin/sh\n";
  fs::permissions(trace_build_kpuzzles(paths), fs::perms::owner_all);
  const std::string built = bug_hunt_note(paths, puzzle, hunt);
  EXPECT_NE(built.find("yours is built"), std::string::npos) << built;
  EXPECT_EQ(built.find("cmake --preset trace &&"), std::string::npos) << built;  // no configure step again
  EXPECT_NE(built.find("cmake --build --preset trace --target kpuzzles && " + trace), std::string::npos) << built;
}

TEST(Exercises, CourseOrderAndLearningOrder) {
  const auto list = course_exercises();
  std::size_t variants = 0;
  for (const auto& p : kpz::Registry::instance().all()) variants += p.variants.size();
  ASSERT_EQ(list.size(), variants);
  for (std::size_t i = 1; i < list.size(); ++i) {
    const auto* a = list[i - 1].puzzle;
    const auto* b = list[i].puzzle;
    EXPECT_TRUE(a == b || a->course_position < b->course_position ||
                (a->course_position == b->course_position && a->name < b->name))
        << a->name << " before " << b->name;
  }
  for (const auto& p : kpz::Registry::instance().all())
    for (const auto& name : p.learning_order) EXPECT_NE(kpz::find_variant(p, name), nullptr) << p.name << " --" << name;
  EXPECT_EQ(find_exercise(list, list.back().id()), static_cast<int>(list.size()) - 1);
  EXPECT_EQ(find_exercise(list, "nosuch/variant"), -1);
}

// A module not built has registered nothing: `list` and `watch` count its exercises from its
// spec's source, which must agree with the registry (braces in comments and literals aside).
TEST(Exercises, SpecSourcesDeclareWhatTheRegistryHolds) {
  for (const auto& p : kpz::Registry::instance().all()) {
    if (p.name.rfind("zz-", 0) == 0) continue;  // registry tests add throwaway puzzles
    const DeclaredPuzzle d = declared_puzzle(p.name);
    EXPECT_EQ(d.variants, static_cast<int>(p.variants.size())) << p.name;
    EXPECT_EQ(d.course_position, p.course_position) << p.name;
  }
  const std::string tmpl = learner_paths().source_dir + "/cmake/puzzle-template/spec.cpp";  // the scaffold's
  EXPECT_GT(declared_in("tmpl", read_text_file(tmpl)).variants, 0);
  const DeclaredPuzzle d =
      declared_in("x",
                  "// .variants = {{}}\n return {.variants = {{.name = \"a{\", .c = {{1}, '{'}}, /* { */\n"
                  "variant(1, {2, 3}), {.name = \"b\"},},\n .course_position = 7};");
  EXPECT_EQ(d.variants, 3);
  EXPECT_EQ(d.course_position, 7);
  EXPECT_EQ(declared_in("x", "return {.name = \"x\"};").variants, 0);
  EXPECT_EQ(declared_in("x", "return {.variants = {{.name = \"x\"}").variants, 0);  // cut short
}

// The time limit names the running case as a crash report would, else the exercise.
TEST(TimeLimit, NamesTheCaseThatHung) {
  const auto hang = [](const char* running) {
    // No case running: an empty context (the test main's own names this test).
    const CrashContext crash(running ? running : "", "");
    const TimeLimit limit(0.05, "conv1d --simple");
    std::this_thread::sleep_for(std::chrono::seconds(30));
  };
  EXPECT_EXIT(hang("conv1d --simple --size 37 --kernel-size 5 (exercise, openmp)"),
              testing::ExitedWithCode(kExitTimeLimit),
              "^kpuzzles: TIMED OUT: conv1d --simple --size 37 --kernel-size 5 \\(exercise, openmp\\) did not "
              "finish within 0.05 s");
  EXPECT_EXIT(hang(nullptr), testing::ExitedWithCode(kExitTimeLimit),
              "^kpuzzles: TIMED OUT: conv1d --simple did not finish within 0.05 s");
}

TEST(Exercises, EveryReferencePassesEveryCase) {
  for (const auto& e : course_exercises()) {
    // Its cases run as ranks of kpuzzles (rank_launch.hpp), which this binary is not; its rank
    // suites (<puzzle>/reference/ranks<R>) and `kpuzzles check` run them.
    if (e.puzzle->ranks.spans_processes()) continue;
    SCOPED_TRACE(e.label());
    const ExerciseResult r = check_exercise(*e.puzzle, *e.variant, kpz::Impl::reference, "", false);
    ASSERT_EQ(r.cases.size(), e.variant->checks.size() + 1);
    for (const auto& c : r.cases)
      EXPECT_TRUE(c.usage_error.empty() && c.report.pass) << c.args << ": " << c.usage_error;
    EXPECT_TRUE(r.pass);
    const kpz::Json j = exercise_result_json(*e.puzzle, *e.variant, r);
    EXPECT_TRUE(j["pass"].as_bool());
    EXPECT_EQ(j["cases"].size(), r.cases.size());
  }
}

// A check is data (options by name, a launch shape), shown as the flags that
// repeat it; a check the variant cannot take is the puzzle's bug, not the learner's usage error.
TEST(Exercises, ChecksAreDataShownAsTheFlagsThatRepeatThem) {
  EXPECT_EQ(check_flags(kpz::CheckCase{{"size", 4099}, {"kernel-size", 5}}.team(1)),
            "--size 4099 --kernel-size 5 --team-size 1");
  EXPECT_EQ(check_flags(kpz::CheckCase{{"size", 3001}, {"tile", 250}}.team(1).lanes(32)),
            "--size 3001 --tile 250 --team-size 1 --vector-length 32");
  EXPECT_EQ(check_flags(kpz::CheckCase{}.lanes(4)), "--vector-length 4");
  const auto list = course_exercises();
  const auto conv = std::find_if(list.begin(), list.end(), [](const Exercise& e) {
    return e.puzzle->name == "conv1d" && e.variant->name == "simple";
  });
  ASSERT_NE(conv, list.end());
  const ExerciseResult r = check_exercise(*conv->puzzle, *conv->variant, kpz::Impl::reference, "", false);
  ASSERT_EQ(r.cases.size(), conv->variant->checks.size() + 1);
  EXPECT_EQ(r.cases[0].args, "--simple");
  EXPECT_EQ(r.cases[1].args, "--simple " + check_flags(conv->variant->checks[0]));
  // The same variant with a broken check: an option it does not take, a value out of range.
  for (const auto& broken :
       {kpz::CheckCase{{"group-size", 2}}, kpz::CheckCase{{"size", -5}}, kpz::CheckCase{{"size", 3}, {"size", 4}}}) {
    kpz::VariantSpec v = *conv->variant;
    v.checks = {broken};
    EXPECT_THROW(check_exercise(*conv->puzzle, v, kpz::Impl::reference, "", false), std::logic_error)
        << check_flags(broken);
  }
}

TEST(Exercises, PickVariantFollowsStateThenProgress) {
  const kpz::PuzzleSpec* p = &*course_exercises().front().puzzle;
  const auto ordered = kpz::variants_in_learning_order(*p);
  LearnerState s;
  EXPECT_EQ(&pick_variant(*p, "", s), ordered.front());
  s.record_solved(p->name, ordered.front()->name);
  if (ordered.size() > 1) EXPECT_EQ(&pick_variant(*p, "", s), ordered[1]);
  s.set_current(p->name + "/" + ordered.back()->name);
  EXPECT_EQ(&pick_variant(*p, "", s), ordered.back());
  EXPECT_EQ(&pick_variant(*p, ordered.front()->name, s), ordered.front());
  EXPECT_THROW(pick_variant(*p, "no-such-variant", s), kpz::UsageError);
  EXPECT_EQ(
      hint_key(*p, *ordered.front()),
      p->name + "/" + (ordered.front()->functions.empty() ? ordered.front()->name : ordered.front()->main_function()));
}

// ---- compile errors ----

const char* kGccOutput = R"([1/2] Building CXX object x.o
FAILED: framework/CMakeFiles/kpz_exercise_conv1d.dir/exercises/conv1d/conv1d.cpp.o
/usr/bin/c++ -O3 -c /src/exercises/conv1d/conv1d.cpp
In file included from /opt/kokkos/include/Kokkos_Core.hpp:45,
                 from /src/framework/puzzles/conv1d/conv1d.hpp:3:
/opt/kokkos/include/impl/Kokkos_Foo.hpp:120:7: error: no matching function for call to 'bar(int)'
  120 |       bar(1);
      |       ^~~
/src/exercises/conv1d/conv1d.cpp: In instantiation of 'void kpz::conv1d::exercise::simple(...) [with Space = Kokkos::Serial]':
/src/exercises/conv1d/conv1d.cpp:120:1:   required from here
/src/exercises/conv1d/conv1d.cpp:25:9: error: 'foo' was not declared in this scope
   25 |         foo(i);
      |         ^~~
/src/exercises/conv1d/conv1d.cpp:27:3: error: expected ';' before '}' token
ninja: build stopped: subcommand failed.
)";

TEST(CompileErrors, FirstErrorInTheLearnersFileWithItsExcerpt) {
  const TrimmedError e = trim_compile_errors(kGccOutput, {"/src/exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_TRUE(e.in_learner_file);
  EXPECT_EQ(e.file, "exercises/conv1d/conv1d.cpp");
  EXPECT_EQ(e.line, 25);
  EXPECT_EQ(e.errors, 3);
  EXPECT_EQ(e.text,
            "exercises/conv1d/conv1d.cpp:25:9: error: 'foo' was not declared in this scope\n"
            "   25 |         foo(i);\n"
            "      |         ^~~\n"
            "(2 more errors not shown)\n");
}

TEST(CompileErrors, ADeletedFunctionShowsItsDeclarationWithItsReason) {
  const std::string out =
      "/src/exercises/conv1d/conv1d.cpp:31:24: error: use of deleted function 'kpz::trace::Ref<T>::Ref(const "
      "kpz::trace::Ref<T>&)'\n"
      "   31 |         auto bj = s_b(j);\n"
      "      |                        ^\n"
      "In file included from /src/framework/include/kpz/trace/view.hpp:9,\n"
      "/src/framework/include/kpz/trace/element.hpp:51:3: note: declared here\n"
      "   51 |   Ref(const Ref&) = delete;  // race-check build: name the element's type\n"
      "      |   ^~~\n";
  const TrimmedError e = trim_compile_errors(out, {"exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_EQ(e.line, 31);
  EXPECT_NE(e.text.find("auto bj = s_b(j);"), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("framework/include/kpz/trace/element.hpp:51:3: note: declared here\n"
                        "   51 |   Ref(const Ref&) = delete;  // race-check build: name the element's type"),
            std::string::npos)
      << e.text;
}

TEST(CompileErrors, RelativeLearnerPathsMatchToo) {
  const TrimmedError e = trim_compile_errors(kGccOutput, {"exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_EQ(e.line, 25);
}

TEST(CompileErrors, ElsewhereTheFirstErrorAndWhereTheLearnersCodeLedToIt) {
  const std::string out =
      std::string(kGccOutput).substr(0, std::string(kGccOutput).find("/src/exercises/conv1d/conv1d.cpp:25"));
  const std::string with_origin = "/src/exercises/conv1d/conv1d.cpp:40:5:   required from here\n" + out;
  const TrimmedError e = trim_compile_errors(with_origin, {"/src/exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_FALSE(e.in_learner_file);
  EXPECT_EQ(e.line, 120);
  EXPECT_NE(e.text.find("no matching function"), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("(reached from exercises/conv1d/conv1d.cpp:40)"), std::string::npos) << e.text;
}

TEST(CompileErrors, NvccStyleAndLinkerErrors) {
  const TrimmedError n = trim_compile_errors(
      "/src/exercises/conv1d/conv1d.cpp(31): error: identifier \"foo\" is undefined\n            foo(i);\n            "
      "^\n",
      {"exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_TRUE(n.in_learner_file);
  EXPECT_EQ(n.line, 31);
  EXPECT_NE(n.text.find("exercises/conv1d/conv1d.cpp(31): error: identifier"), std::string::npos) << n.text;
  const TrimmedError l =
      trim_compile_errors("ld: a.o: in function `x':\na.cpp:(.text+0x1): undefined reference to `y'\n",
                          {"exercises/conv1d/conv1d.cpp"}, "/src");
  EXPECT_NE(l.text.find("undefined reference"), std::string::npos);
  const TrimmedError none = trim_compile_errors("line 1\nline 2\n", {}, "");
  EXPECT_EQ(none.text, "line 1\nline 2\n");
}

// ---- file watching ----

TEST(FileWatcher, OnlySourceFilesCount) {
  for (const char* yes : {"conv1d.cpp", "a.hpp", "sig.inc", "x.h"}) EXPECT_TRUE(FileWatcher::relevant(yes)) << yes;
  for (const char* no :
       {"conv1d.cpp.bak-20260101-120000", ".conv1d.cpp.swp", "conv1d.cpp~", "4913", "#conv1d.cpp#", "notes.md", ""})
    EXPECT_FALSE(FileWatcher::relevant(no)) << no;
}

void watcher_sees_saves(const std::string& backend) {
  const std::string root = testing::TempDir() + "kpz_watch_" + backend;
  fs::remove_all(root);
  fs::create_directories(root + "/alpha");
  fs::create_directories(root + "/beta");
  std::ofstream(root + "/alpha/alpha.cpp") << "int a;\n";
  FileWatcher w(root, {"alpha", "beta", "gamma-without-folder"}, backend);
  ASSERT_EQ(w.backend(), backend == "poll" ? FileWatcher::Backend::polling : FileWatcher::Backend::inotify)
      << w.why_not();
  std::ofstream(root + "/alpha/alpha.cpp.bak-1") << "ignored";
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  EXPECT_TRUE(w.collect().empty());
  std::ofstream(root + "/beta/beta.cpp") << "int b = 2;\n";
  std::set<std::string> seen;
  for (int i = 0; i < 30 && seen.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    seen = w.collect();
  }
  EXPECT_EQ(seen, std::set<std::string>{"beta"});
}

TEST(FileWatcher, InotifySeesSaves) {
  watcher_sees_saves("inotify");
}
TEST(FileWatcher, PollingSeesSaves) {
  watcher_sees_saves("poll");
}

TEST(FileWatcher, NoneMeansManual) {
  FileWatcher w(testing::TempDir(), {"x"}, "none");
  EXPECT_EQ(w.backend(), FileWatcher::Backend::none);
  EXPECT_EQ(w.fd(), -1);
  EXPECT_TRUE(w.collect().empty());
  EXPECT_FALSE(w.why_not().empty());
}

// ---- processes, terminal ----

TEST(Process, OutputExitCodesSignalsAndTimeouts) {
  const ProcessResult ok = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(ok.exit_code, 3);
  EXPECT_NE(ok.output.find("out\n"), std::string::npos);
  EXPECT_NE(ok.output.find("err\n"), std::string::npos);
  const ProcessResult env = run_process({"sh", "-c", "echo $KPZ_X"}, {{"KPZ_X", "42"}});
  EXPECT_EQ(env.output, "42\n");
  const ProcessResult sig = run_process({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(sig.signal, 11);
  EXPECT_NE(describe_signal(11).find("signal 11"), std::string::npos);
  const auto t0 = std::chrono::steady_clock::now();
  const ProcessResult slow = run_process({"sh", "-c", "sleep 30"}, {}, 0.3);
  EXPECT_TRUE(slow.timed_out);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  const ProcessResult missing = run_process({"/no/such/program"});
  EXPECT_EQ(missing.exit_code, 127);
  EXPECT_NE(missing.output.find("cannot run"), std::string::npos);
}

TEST(Terminal, ProgressBar) {
  EXPECT_EQ(progress_bar(3, 9, 9, false), "[###------] 3/9");
  EXPECT_EQ(progress_bar(0, 0, 4, false), "[----] 0/0");
  EXPECT_EQ(progress_bar(2, 2, 2, true), "[\u2588\u2588] 2/2");
}

TEST(Paths, EnvironmentOverridesAndStateInTheBuildTree) {
  const LearnerPaths& p = learner_paths();
  EXPECT_FALSE(p.source_dir.empty());
  EXPECT_EQ(relative_to_source(p.source_dir + "/exercises/conv1d/conv1d.cpp"), "exercises/conv1d/conv1d.cpp");
  EXPECT_EQ(relative_to_source("/elsewhere/x.cpp"), "/elsewhere/x.cpp");
  // The progress file is never among the sources (the build tree may sit inside the checkout).
  for (const char* dir : {"/exercises/", "/reference/", "/docs/", "/framework/"})
    EXPECT_NE(p.state_file.rfind(p.source_dir + dir, 0), 0u) << p.state_file;
  EXPECT_EQ(p.exercise_dir("conv1d"), p.source_dir + "/exercises/conv1d");
}

}  // namespace

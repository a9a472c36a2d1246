#pragma once
// The learner's exercises: every variant of every registered puzzle, in course order, how one
// is checked (its defaults plus the variant's extra cases), and its status for `list`/`watch`.
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/params.hpp"
#include "kpz/registry.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "race_check.hpp"
#include "state.hpp"

namespace kpz::cli {

struct Exercise {
  const PuzzleSpec* puzzle = nullptr;
  const VariantSpec* variant = nullptr;
  std::string id() const { return puzzle->name + "/" + variant->name; }       // "conv1d/simple"
  std::string label() const { return puzzle->name + " --" + variant->name; }  // "conv1d --simple"
};

// Puzzles in course order, each puzzle's variants in learning order.
std::vector<Exercise> course_exercises();
// Position of "<puzzle>/<variant>" in `list`, or -1.
int find_exercise(const std::vector<Exercise>& list, const std::string& id);

// The whole course's numbering, modules not built yet included (their specs' declarations,
// puzzle_modules.hpp): the total and each exercise's place never change as modules get built.
struct CourseNumbers {
  int total = 0;
  std::vector<int> number;  // of each exercise of the list given, 1-based
};
// `list` in course order (course_exercises()).
CourseNumbers course_numbers(const std::vector<Exercise>& list);

// The hint set a variant draws from: "<puzzle>/<function>" (variants running the same
// function share their hints), or "<puzzle>/<variant>" when the variant names no function.
std::string hint_key(const PuzzleSpec& puzzle, const VariantSpec& variant);

// The variant named by --variant, or the default for commands that take a puzzle: the exercise
// `watch` showed last if it belongs to this puzzle, else the first one not yet solved (in
// learning order), else the first one. Throws UsageError for unknown names.
const VariantSpec& pick_variant(const PuzzleSpec& puzzle, const std::string& requested, const LearnerState& state);

// One case of an exercise: the defaults ("--simple") or one of VariantSpec::checks.
struct CaseResult {
  std::string args;  // "--simple --size 1 --kernel-size 1"
  RunRequest request;
  RunReport report;
  std::string usage_error;  // the case could not run here (UsageError): its message
  std::string crash;        // the run crashed (check_exercise_in_child): the crash report's first line
};

struct ExerciseResult {
  bool pass = false;
  // A bug hunt of the learner's code that the race check could not judge: its cases pass by
  // luck, so a pass proves nothing (status "bug hunt").
  bool untraced_bug_hunt = false;
  // The race check (race_check.hpp), run before the cases; a bug there fails the exercise and
  // no case runs.
  RaceCheck race;
  // What may be recorded as solved: a pass the race check judged clean, or that it cannot judge
  // and that passed every case several times (never one lucky run); on a GPU build (no race
  // check there) the pass on the device.
  bool proven_pass() const { return pass && !untraced_bug_hunt; }
  std::vector<CaseResult> cases;  // up to and including the first that failed
  const CaseResult* first_failure() const;
  // The race check decided the failure (its findings are what to show), not a case.
  bool failed_by_race_check() const {
    return !pass && race.state == RaceCheck::State::bug && !race.findings.empty() && !first_failure();
  }
};

using kpz::check_flags;  // kpz/params.hpp

// Runs the learner's (or the reference's) code on every case of the exercise, in this
// process, stopping at the first failure. `space` empty: the build's default space. The trace
// build (KPZ_TRACE) instead traces the variant's small trace configuration (one case, "trace
// --<variant>"): it passes when the result is right, race-free and within budget; a variant
// without a trace configuration cannot run there.
// `order`: the race check before the cases (what check, run, list and watch do), or not at all.
// `skip`: the cases alone, once (`check --no-race-check`: what a run without the race check would
// say; never recorded as solved).
enum class RaceOrder { first, skip };
ExerciseResult check_exercise(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl,
                              const std::string& space = "", bool keep_arrays = true,
                              RaceOrder order = RaceOrder::first);

// The trace build checks by tracing (check_traced): a bad scratch request or index is a finding
// there, never a crash.
#if defined(KPZ_TRACE)
inline constexpr bool kTraceBuild = true;
#else
inline constexpr bool kTraceBuild = false;
#endif

// `kpuzzles check <puzzle> --variant <name>` in a child process (a crash ends the child, not
// this process), with the check's time limit (the child keeps it; a margin covers its start).
struct CheckChildOptions {
  std::string space;  // "" : the build's default
  bool skip_race = false;
  bool json = false;
  double time_limit = 60;  // seconds, 0: none
};
ProcessResult run_check_child(const PuzzleSpec& puzzle, const VariantSpec& variant, const CheckChildOptions& options);

// check_exercise for the learner's code, in a child `kpuzzles check <puzzle> --variant <name>
// --json`: a crash ends the child, not this process. For builds whose race check cannot stop a
// bad scratch request or index before it runs (GPU builds: there a crash also poisons the device
// for every later kernel of the process).
ExerciseResult check_exercise_in_child(const PuzzleSpec& puzzle, const VariantSpec& variant, double time_limit);

// {"puzzle","variant","pass","cases":[{"args","pass","usage_error"?, report...}]}
Json exercise_result_json(const PuzzleSpec& puzzle, const VariantSpec& variant, const ExerciseResult& r);

enum class Status { solved, pending, not_attempted, cannot_run, bug_hunt };
// "solved", "pending", "not attempted", "cannot run", "bug hunt" (passes here by luck: only the
// trace build can tell)
std::string to_string(Status s);

// Solved when it passes, or passed before (recorded in the state: the meaning `solution` uses
// too); cannot run when a case is refused on this backend; otherwise pending
// if the learner changed the variant's function from the skeleton (or asked for a hint), else
// not attempted.
Status exercise_status(const Exercise& e, const ExerciseResult& result, const LearnerState& state,
                       const LearnerPaths& paths);

// True when exercises/<puzzle>/ still holds the skeleton's version of `function` (see
// function_untouched). False when the reference or the exercise cannot be read.
bool exercise_untouched(const LearnerPaths& paths, const std::string& puzzle, const std::string& function);

// The exercise file that holds `function` ("exercises/conv1d/conv1d.cpp", relative to the
// source tree), or "exercises/<puzzle>/" when no file (or no function) says.
std::string exercise_file_for(const LearnerPaths& paths, const std::string& puzzle, const std::string& function);

// The files of exercises/<puzzle>/ (*.cpp, *.hpp, *.inc), sorted.
std::vector<std::string> exercise_files(const LearnerPaths& paths, const std::string& puzzle);

}  // namespace kpz::cli

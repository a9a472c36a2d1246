#include "exercises.hpp"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "crash_report.hpp"
#include "docs_text.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/lookup.hpp"
#include "kpz/params.hpp"
#include "kpz/report.hpp"
#include "kpz/space_names.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "puzzle_modules.hpp"
#include "rank_launch.hpp"
#include "skeleton.hpp"
#include "text.hpp"

#if defined(KPZ_TRACE)
#include "kpz/trace/puzzle.hpp"
#endif

namespace kpz::cli {

std::vector<Exercise> course_exercises() {
  std::vector<Exercise> list;
  for (const PuzzleSpec* p : puzzles_in_course_order())
    for (const VariantSpec* v : variants_in_learning_order(*p)) list.push_back({p, v});
  return list;
}

int find_exercise(const std::vector<Exercise>& list, const std::string& id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].id() == id) return static_cast<int>(i);
  return -1;
}

CourseNumbers course_numbers(const std::vector<Exercise>& list) {
  std::vector<DeclaredPuzzle> unbuilt;
  for (const auto& name : unbuilt_puzzles()) unbuilt.push_back(declared_puzzle(name));
  CourseNumbers c{.total = static_cast<int>(list.size())};
  for (const auto& d : unbuilt) c.total += d.variants;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const PuzzleSpec& p = *list[i].puzzle;
    int before = 0;  // exercises of puzzles not built that come earlier in the course
    for (const auto& d : unbuilt)
      if (std::pair(d.course_position, d.name) < std::pair(p.course_position, p.name)) before += d.variants;
    c.number.push_back(before + static_cast<int>(i) + 1);
  }
  return c;
}

std::string hint_key(const PuzzleSpec& puzzle, const VariantSpec& variant) {
  return puzzle.name + "/" + (variant.functions.empty() ? variant.name : variant.main_function());
}

const VariantSpec& pick_variant(const PuzzleSpec& puzzle, const std::string& requested, const LearnerState& state) {
  if (!requested.empty()) {
    if (const VariantSpec* v = find_variant(puzzle, requested)) return *v;
    std::vector<std::string> names;
    for (const auto& v : puzzle.variants) names.push_back(v.name);
    throw UsageError("unknown variant '" + requested + "' of " + puzzle.name + "; variants: " + join(names, ", "));
  }
  const std::string current = state.current();
  if (current.rfind(puzzle.name + "/", 0) == 0)
    if (const VariantSpec* v = find_variant(puzzle, current.substr(puzzle.name.size() + 1))) return *v;
  const auto ordered = variants_in_learning_order(puzzle);
  for (const VariantSpec* v : ordered)
    if (!state.solved(puzzle.name, v->name)) return *v;
  return *ordered.front();
}

const CaseResult* ExerciseResult::first_failure() const {
  for (const auto& c : cases)
    if (!c.usage_error.empty() || !c.report.pass) return &c;
  return nullptr;
}

#if defined(KPZ_TRACE)
namespace {

// The trace build's check: the traced run of the variant's trace configuration. (The ordinary
// cases would run at full size through the recording executor: far too slow.)
ExerciseResult check_traced(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl) {
  ExerciseResult result;
  CaseResult c;
  c.args = "--" + variant.name;
  trace::TraceOptions o;
  o.impl = impl;
  const trace::VariantTrace t = trace::trace_variant(puzzle, variant, o);
  c.request = t.request;
  if (!t.not_traceable.empty()) {
    c.usage_error = t.not_traceable;
  } else {
    c.report = t.runs.front().report;
    for (const auto& run : t.runs)
      if (!run.report.pass) c.report = run.report;  // show a wrong result first
    c.report.pass = t.clean();
    if (t.races())
      c.report.notes.push_back(std::to_string(t.races()) + " race(s): kpuzzles trace " + puzzle.name + " " + c.args);
    if (t.uninitialized())
      c.report.notes.push_back("reads of scratch nobody wrote: kpuzzles trace " + puzzle.name + " " + c.args);
    if (!t.kernel_ok())
      c.report.notes.push_back("the team API is misused: kpuzzles trace " + puzzle.name + " " + c.args);
    if (!t.within_budget()) c.report.notes.push_back("over budget: kpuzzles trace " + puzzle.name + " " + c.args);
  }
  result.pass = c.usage_error.empty() && c.report.pass;
  result.race.state = !t.not_traceable.empty() ? RaceCheck::State::not_judged
                      : t.clean()              ? RaceCheck::State::clean
                                               : RaceCheck::State::bug;
  result.race.reason = t.not_traceable;
  result.cases.push_back(std::move(c));
  return result;
}

}  // namespace
#endif

namespace {

// KPZ_CRASH_EXERCISE=<puzzle>/<variant>: that exercise's run crashes (SIGSEGV), as a learner's
// code past its scratch may; the tests of `list` plant a crash with it.
void crash_if_asked(const std::string& id) {
  const char* planted = std::getenv("KPZ_CRASH_EXERCISE");
  if (planted && id == planted) std::raise(SIGSEGV);
}

}  // namespace

// A case that runs on ranks is stopped after this many seconds (its ranks are other processes,
// out of reach of the check's own --time-limit watchdog); the cases are well under a second.
constexpr double kCaseTimeLimit = 120;

ExerciseResult check_exercise(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl, const std::string& space,
                              bool keep_arrays, RaceOrder order) {
#if defined(KPZ_TRACE)
  (void)space, (void)keep_arrays;
  return check_traced(puzzle, variant, impl);
#endif
  ExerciseResult result;
  // The race check first: a bug it finds (an index past a View's end, a scratch request too
  // small) may crash the real run, and its verdict does not depend on thread timing.
  const auto judge = [&] {
    result.race = race_check(puzzle, variant, impl);
    return !result.race.blocking();
  };
  if (order == RaceOrder::first && !judge()) return result;
  if (order == RaceOrder::skip) result.race.reason = "skipped (--no-race-check): nothing is recorded as solved";
  const bool judged = order == RaceOrder::first && result.race.state == RaceCheck::State::clean;
  result.untraced_bug_hunt = variant.bug_hunt && impl == Impl::exercise && !judged;
  // The defaults first (no CheckCase), then the variant's checks; a pass nobody traced must
  // hold over several seeds, not one lucky run.
  std::vector<const CheckCase*> checks{nullptr};
  for (const auto& c : variant.checks) checks.push_back(&c);
  result.pass = true;
  // On a GPU the device's own schedule is the test (and compute-sanitizer's racecheck).
  const std::string run_space = space.empty() ? default_space_name() : space;
  const int rounds = judged || run_space == "cuda" || order == RaceOrder::skip ? 1 : kUnjudgedRounds;
  // Every round's cases, planned first: a puzzle on ranks runs them all in one launch per rank
  // count (rank_launch.hpp: a launch costs about a second, a case a few milliseconds).
  std::vector<std::vector<CaseResult>> planned(rounds);
  std::vector<RunRequest> requests;
  for (int round = 0; round < rounds; ++round)
    for (const CheckCase* check : checks) {
      CaseResult& c = planned[round].emplace_back();
      c.args = "--" + variant.name + (check ? " " + check_flags(*check) : "");
      c.request = check_request(puzzle, variant, check, impl, run_space);
      c.request.seed += static_cast<std::uint64_t>(round);
      if (round > 0) c.args += " --seed " + std::to_string(c.request.seed);
      const auto& values = c.request.params.values();
      const auto size = values.find("size");
      c.request.keep_arrays = keep_arrays && (size == values.end() || size->second <= 64);
      requests.push_back(c.request);
    }
  const bool on_ranks = starts_ranks(puzzle);
  const std::vector<CaseOutcome> batched =
      on_ranks ? run_cases_on_ranks(puzzle, requests, kCaseTimeLimit) : std::vector<CaseOutcome>{};
  std::size_t next = 0;
  // The first round's cases are what a pass shows; a later round shows only a failure.
  for (int round = 0; round < rounds && result.pass; ++round) {
    std::vector<CaseResult>& cases = planned[round];
    for (std::size_t i = 0; i < cases.size(); ++i) {
      CaseResult& c = cases[i];
      if (on_ranks) {
        const CaseOutcome& o = batched[next++];
        c.report = o.report;
        c.usage_error = o.usage_error;
        c.crash = o.crash;
      } else {
        try {
          const CrashContext crash(
              puzzle.name + " " + c.args + " (" + std::string(to_string(impl)) + ", " + c.request.space + ")",
              crash_next_step(puzzle.name, c.args, impl));
          crash_if_asked(puzzle.name + "/" + variant.name);
          c.report = run_case(puzzle, c.request, kCaseTimeLimit);
        } catch (const UsageError& e) {
          c.usage_error = e.what();
        } catch (const RanksFailed& e) {
          c.crash = e.what();
        }
      }
      if (!(c.usage_error.empty() && c.crash.empty() && c.report.pass)) {
        result.pass = false;
        cases.resize(i + 1);
        break;
      }
    }
    if (round == 0 || !result.pass) result.cases = std::move(cases);
  }
  // Right on this backend but not in the traced run (teams of four, both distributions): a bug
  // that this machine's team size hides.
  if (result.pass && result.race.state == RaceCheck::State::bug) result.pass = false;
  return result;
}

ProcessResult run_check_child(const PuzzleSpec& puzzle, const VariantSpec& variant, const CheckChildOptions& options) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", options.time_limit);
  std::vector<std::string> argv{learner_paths().self, "check",        puzzle.name, "--variant",
                                variant.name,         "--time-limit", limit};
  if (!options.space.empty()) argv.insert(argv.end(), {"--space", options.space});
  if (options.skip_race) argv.push_back("--no-race-check");
  if (options.json) argv.push_back("--json");
  // The child enforces the limit; the margin covers its start (a GPU's context, the module).
  return run_process(argv, {{kStaleNoteGiven, "1"}}, options.time_limit > 0 ? options.time_limit + 60 : 0);
}

ExerciseResult check_exercise_in_child(const PuzzleSpec& puzzle, const VariantSpec& variant, double time_limit) {
  const ProcessResult r = run_check_child(puzzle, variant, {.json = true, .time_limit = time_limit});
  ExerciseResult result;
  Json j;
  if ((r.exit_code == 0 || r.exit_code == 1) && last_json_line(r.output, j) && j["exercises"].size() == 1) {
    const Json& x = j["exercises"].items().front();
    result.pass = x["pass"].as_bool();
    result.untraced_bug_hunt = x["untraced_bug_hunt"].as_bool();
    const Json& race = x["race_check"];
    for (auto s : {RaceCheck::State::clean, RaceCheck::State::bug, RaceCheck::State::not_judged})
      if (race["state"].as_string() == to_string(s)) result.race.state = s;
    result.race.reason = race["reason"].as_string();
    result.race.findings = findings_from_json(race["findings"]);
    for (const Json& c : x["cases"].items()) {
      CaseResult& mine = result.cases.emplace_back();
      mine.args = c["args"].as_string();
      mine.usage_error = c["usage_error"].as_string();
      mine.crash = c["crashed"].as_string();
      mine.report.pass = c["pass"].as_bool();
    }
    return result;
  }
  // A crash, a hang or a child that could not start: one failed case that says which.
  CaseResult& failed = result.cases.emplace_back();
  failed.args = "--" + variant.name;
  failed.crash = crash_line(r.output);
  if (failed.crash.empty()) failed.crash = "`kpuzzles check` ended with " + describe_exit(r);
  return result;
}

Json exercise_result_json(const PuzzleSpec& puzzle, const VariantSpec& variant, const ExerciseResult& r) {
  Json j = Json::object();
  j.set("puzzle", puzzle.name).set("variant", variant.name).set("pass", r.pass);
  if (r.untraced_bug_hunt) j.set("untraced_bug_hunt", true);
  j.set("race_check", r.race.to_json());
  if (r.failed_by_race_check()) j.set("failed_by", "race_check");
  Json cases = Json::array();
  for (const auto& c : r.cases) {
    Json e = Json::object();
    e.set("args", c.args);
    if (!c.usage_error.empty()) {
      e.set("pass", false).set("usage_error", c.usage_error);
    } else if (!c.crash.empty()) {
      e.set("pass", false).set("crashed", c.crash);
    } else {
      e = report_json(puzzle.name, c.request, c.report);
      e.set("args", c.args);
    }
    cases.push(std::move(e));
  }
  j.set("cases", std::move(cases));
  return j;
}

std::string to_string(Status s) {
  return by_enum<Status::bug_hunt>({"solved", "pending", "not attempted", "cannot run", "bug hunt"}, s);
}

std::vector<std::string> exercise_files(const LearnerPaths& paths, const std::string& puzzle) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(paths.exercise_dir(puzzle), ec)) {
    const auto ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp" || ext == ".inc" || ext == ".h"))
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string exercise_file_for(const LearnerPaths& paths, const std::string& puzzle, const std::string& function) {
  const auto pairs = skeleton_pairs(paths.source_dir, puzzle);
  for (const auto& p : pairs)
    if (!function.empty() && !function_section(read_text_file(p.exercise), function).empty())
      return relative_to_source(p.exercise);
  if (pairs.size() == 1) return relative_to_source(pairs.front().exercise);
  return "exercises/" + puzzle + "/";
}

bool exercise_untouched(const LearnerPaths& paths, const std::string& puzzle, const std::string& function) {
  const auto pairs = skeleton_pairs(paths.source_dir, puzzle);
  if (pairs.empty()) return false;
  std::vector<std::pair<std::string, std::string>> texts;  // learner, skeleton
  for (const auto& p : pairs) {
    std::string skeleton;
    try {
      skeleton = skeleton_from_reference(read_text_file(p.reference), puzzle, p.reference);
    } catch (const SkeletonError&) {
      return false;
    }
    texts.emplace_back(read_text_file(p.exercise), std::move(skeleton));
  }
  // The file whose skeleton defines the function decides; otherwise every file must be untouched.
  for (const auto& [mine, skeleton] : texts)
    if (!function.empty() && !function_section(skeleton, function).empty())
      return function_untouched(mine, skeleton, function);
  return std::all_of(texts.begin(), texts.end(),
                     [](const auto& t) { return function_untouched(t.first, t.second, ""); });
}

Status exercise_status(const Exercise& e, const ExerciseResult& result, const LearnerState& state,
                       const LearnerPaths& paths) {
  if (result.pass) return result.untraced_bug_hunt ? Status::bug_hunt : Status::solved;
  if (const CaseResult* f = result.first_failure(); f && !f->usage_error.empty()) return Status::cannot_run;
  // One meaning of solved everywhere: passed once (recorded), as `solution` counts it; a reset
  // or a later edit does not take it back.
  if (state.solved(e.puzzle->name, e.variant->name)) return Status::solved;
  if (state.hints_shown(hint_key(*e.puzzle, *e.variant)) > 0) return Status::pending;
  return exercise_untouched(paths, e.puzzle->name, e.variant->main_function()) ? Status::not_attempted
                                                                               : Status::pending;
}

}  // namespace kpz::cli

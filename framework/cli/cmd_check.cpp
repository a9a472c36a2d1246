#include <iostream>
#include <string>

#include "cli.hpp"
#include "crash_report.hpp"
#include "exercises.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/report.hpp"
#include "kpz/space_names.hpp"
#include "learner.hpp"
#include "process.hpp"
#include "puzzle_flags.hpp"
#include "race_check.hpp"
#include "text.hpp"
#include "time_limit.hpp"

namespace kpz::cli {

namespace {

// One exercise by a child `kpuzzles check <puzzle> --variant <name>`: its report (text) or its
// exercise object (JSON, into `list`) as if this process had checked it, a crash as a failure
// that names it. True when it passed. The child records its own pass.
bool check_in_child(const PuzzleSpec& spec, const VariantSpec& v, const std::string& space, bool skip_race,
                    double limit, bool json, Json& list) {
  const ProcessResult r =
      run_check_child(spec, v, {.space = space, .skip_race = skip_race, .json = json, .time_limit = limit});
  const bool passed = r.ok();
  const std::string crash = crash_line(r.output);
  Json j;
  if (json) {
    if ((r.exit_code == 0 || r.exit_code == 1) && last_json_line(r.output, j) && j["exercises"].size() == 1) {
      list.push(j["exercises"].items().front());
    } else {
      Json e = Json::object();
      e.set("puzzle", spec.name).set("variant", v.name).set("pass", false);
      e.set("crashed", crash.empty() ? "`kpuzzles check` ended with " + describe_exit(r) : crash);
      list.push(std::move(e));
    }
    return passed;
  }
  // The child's report without its tally line (this process prints the total).
  std::vector<std::string> lines = split_lines(r.output);
  while (!lines.empty() && (lines.back().empty() || lines.back().find(" passed, ") != std::string::npos))
    lines.pop_back();
  for (const std::string& line : lines) std::cout << line << '\n';
  if (!crash.empty() || r.timed_out || r.signal)
    std::cout << "FAIL  " << spec.name << " --" << v.name << ": "
              << (crash.empty() ? "`kpuzzles check` ended with " + describe_exit(r) : "it crashed (above)") << '\n';
  std::cout << '\n';
  return passed;
}

}  // namespace

// Runs every variant (of one puzzle, or of all; or one variant) on its defaults and on the
// variant's extra cases, and prints the report of the first failing case (or of the defaults).
// Exit 0 when all pass, 1 otherwise. Passes of the learner's code are recorded as solved.
int cmd_check(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args,
                                        {{"reference", false},
                                         {"space", true},
                                         {"variant", true},
                                         {"json", false},
                                         {"no-race-check", false},
                                         {"time-limit", true}},
                                        "'kpuzzles check'");
  std::vector<const PuzzleSpec*> puzzles;
  if (flags.positional.size() > 1) throw UsageError("'kpuzzles check' takes at most one puzzle");
  if (flags.positional.empty())
    puzzles = puzzles_in_course_order();
  else
    puzzles.push_back(&find_puzzle(flags.positional, "check"));
  if (flags.has("variant") && flags.positional.empty())
    throw UsageError("'kpuzzles check --variant' needs a puzzle: kpuzzles check <puzzle> --variant <name>");
  std::string space;
  if (const auto it = flags.values.find("space"); it != flags.values.end()) {
    RunRequest probe;
    apply_common(probe, flags);  // validates the name
    space = probe.space;
  }
  const double limit = time_limit_from(flags);
  const Impl impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  const bool json = flags.has("json");
  const bool skip_race = flags.has("no-race-check");
  if (impl == Impl::exercise) {
    std::vector<std::string> names;
    for (const PuzzleSpec* spec : puzzles) names.push_back(spec->name);
    announce_stale_binary(names);
  }
  Json list = Json::array();
  std::vector<std::pair<Exercise, bool>> passes;
  int failed = 0, total = 0;
  for (const PuzzleSpec* spec : puzzles) {
    std::vector<const VariantSpec*> variants = variants_in_learning_order(*spec);
    if (flags.has("variant")) {
      LearnerState none;
      variants = {&pick_variant(*spec, flags.values.at("variant"), none)};
    }
    for (const VariantSpec* v : variants) {
      // Several of the learner's exercises and nothing to stop one before it runs (no race check
      // for it: a GPU build, the verifiers not built): each runs in its own `kpuzzles check`, so
      // a crash (on a GPU it breaks every later kernel of the process) fails that one only.
      if (impl == Impl::exercise && variants.size() > 1 && !kTraceBuild && !race_check_runs_first(*spec, *v)) {
        ++total;
        failed += !check_in_child(*spec, *v, space, skip_race, limit, json, list);
        continue;
      }
      const ExerciseResult r = [&] {
        const TimeLimit watchdog(limit, spec->name + " --" + v->name);
        return check_exercise(*spec, *v, impl, space, true, skip_race ? RaceOrder::skip : RaceOrder::first);
      }();
      passes.emplace_back(Exercise{spec, v}, r.proven_pass() && !skip_race);
      ++total;
      failed += !r.pass;
      if (json) {
        list.push(exercise_result_json(*spec, *v, r));
        continue;
      }
      if (r.failed_by_race_check()) {
        std::cout << (use_color() ? "\x1b[1;31mFAIL\x1b[0m" : "FAIL") << "  " << spec->name << " --" << v->name
                  << ": the race check found a bug (the verdict does not depend on thread timing)\n"
                  << race_check_text(r.race.to_json()) << '\n';
        continue;
      }
      const CaseResult* shown = r.first_failure();
      if (!shown) shown = &r.cases.front();
      if (!shown->usage_error.empty()) {
        std::cout << spec->name << " " << shown->args << ": cannot run here: " << shown->usage_error << '\n';
      } else if (!shown->crash.empty()) {  // the ranks of a puzzle that spans them (rank_launch.hpp)
        std::cout << "FAIL  " << spec->name << " " << shown->args << ": " << shown->crash << '\n';
      } else {
        if (shown->args != "--" + v->name)
          std::cout << "case: kpuzzles run " << spec->name << " " << shown->args << '\n';
        print_report(std::cout, spec->name, shown->request, shown->report, PrintStyle{use_color(), 64});
      }
      if (r.pass && r.untraced_bug_hunt)
        std::cout << "bug hunt: this passes by luck here, and this build cannot trace it; `kpuzzles trace "
                  << spec->name << " --" << v->name
                  << "` in the trace build (cmake --preset trace) tells whether it is fixed\n";
      else if (r.pass)
        if (const std::string caveat = race_check_caveat(r.race.to_json()); !caveat.empty())
          std::cout << caveat << '\n';
      for (const std::string& note : r.race.notes) std::cout << "note: " << note << '\n';
      if (r.pass) {  // the same summary as watch's PASS line
        std::string line = r.cases.size() > 2   ? "and " + std::to_string(r.cases.size() - 1) + " more cases pass"
                           : r.cases.size() > 1 ? std::string("and 1 more case passes")
                                                : std::string();
        if (r.race.to_json()["state"].as_string() == "clean") line += line.empty() ? "race-free" : ", race-free";
        if (!line.empty()) std::cout << line << '\n';
      }
      std::cout << '\n';
    }
  }
  if (impl == Impl::exercise) record_passes(passes);
  if (json) {
    Json j = Json::object();
    j.set("impl", std::string(to_string(impl))).set("passed", total - failed).set("failed", failed);
    j.set("exercises", std::move(list));
    std::cout << j.dump() << '\n';
  } else {
    std::cout << (total - failed) << " passed, " << failed << " failed\n";
  }
  return failed ? 1 : 0;
}

}  // namespace kpz::cli

#include <iostream>

#include "bug_hunt_note.hpp"
#include "cli.hpp"
#include "crash_report.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/report.hpp"
#include "memory.hpp"
#include "puzzle_flags.hpp"
#include "race_check.hpp"
#include "rank_launch.hpp"
#include "time_limit.hpp"

namespace kpz::cli {

namespace {

// Arrays a --json report carries up to this --size (above it only with --full-arrays), and the
// length a printed array shows whole.
constexpr std::int64_t kJsonArrays = 4096;
constexpr std::size_t kInlineArrays = 64;

std::vector<Flag> run_flags(const PuzzleSpec& spec) {
  std::vector<Flag> own = {{"reference", false}, {"json", false}, {"steps", false}};
  for (const Flag& f : common_flags()) own.push_back(f);
  own.insert(own.end(), {{"time-limit", true}, {"full-arrays", false}, {"no-race-check", false}, {"help", false}});
  if (spec.ranks.spans_processes()) {
    own.push_back({"ranks", true});
    // Not for learners: kpuzzles' own launches of a check run each ';'-separated case's flags in turn.
    own.push_back({"cases", true});
  }
  return own;
}

// One case from its flags: the request, and the flags that repeat it (for a crash report or the
// time limit's message).
struct RunCase {
  RunRequest req;
  std::string args;
};

RunCase case_from_flags(const PuzzleSpec& spec, const ParsedFlags& flags, const std::vector<Flag>& own) {
  const VariantSpec& variant = chosen_variant(spec, flags);
  RunCase c;
  RunRequest& req = c.req;
  req.variant = &variant;
  req.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  req.params = resolve_params(spec, variant, flags, own);
  require_memory(spec, variant, req.params);  // before anything is allocated
  req.steps = flags.has("steps");
  apply_common(req, flags);
  const auto ranks_flag = flags.values.find("ranks");
  req.ranks = ranks_from(spec, ranks_flag == flags.values.end() ? nullptr : &ranks_flag->second);
  const auto& values = req.params.values();
  const auto size = values.find("size");
  // --json with every array at the default size was 36.7 MB on one line, and at 2^26 held
  // 15.9 GB before std::bad_alloc: large arrays only when asked for.
  const bool small = size == values.end() || size->second <= kJsonArrays;
  req.keep_arrays = (flags.has("json") && (small || flags.has("full-arrays"))) || size == values.end() ||
                    static_cast<std::size_t>(size->second) <= kInlineArrays;
  c.args = "--" + variant.name;
  for (const auto& option : variant.options)
    if (req.params.given(option.name))
      c.args += " --" + option.name + " " + std::to_string(req.params.get(option.name));
  for (const char* name : {"team-size", "vector-length", "seed", "ranks"})
    if (const auto it = flags.values.find(name); it != flags.values.end())
      c.args += std::string(" --") + name + " " + it->second;
  return c;
}

// The rank side of a batched check (rank_launch.hpp run_cases_on_ranks): every case in turn in
// this process, one JSON line per case with its index. A case this rank refuses is a record too,
// so that the cases after it still run; a crash or a hang ends the launch, naming its case.
int run_cases_here(const PuzzleSpec& spec, const std::string& cases, const std::vector<Flag>& own) {
  bool all_pass = true;
  std::int64_t index = 0;
  for (const std::vector<std::string>& words : split_cases(cases)) {
    Json j = Json::object();
    try {
      std::vector<std::string> args{spec.name};
      args.insert(args.end(), words.begin(), words.end());
      const ParsedFlags flags = parse_puzzle_flags(args, spec, "run", own);
      const RunCase c = case_from_flags(spec, flags, own);
      const TimeLimit watchdog(time_limit_from(flags), spec.name + " " + c.args);
      const CrashContext crash(
          spec.name + " " + c.args + " (" + std::string(to_string(c.req.impl)) + ", " + c.req.space + ")",
          crash_next_step(spec.name, c.args, c.req.impl));
      const RunReport report = spec.run(c.req);
      all_pass = all_pass && report.pass;
      if (!report.follower) j = report_json(spec.name, c.req, report);
    } catch (const UsageError& e) {
      all_pass = false;
      j.set("usage_error", std::string(e.what()));
    }
    if (j.size() > 0) std::cout << j.set("case", index).dump() << '\n' << std::flush;
    ++index;
  }
  return all_pass ? 0 : 1;
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "run");
  const std::vector<Flag> own = run_flags(spec);
  const ParsedFlags flags = parse_puzzle_flags(args, spec, "run", own);
  if (flags.has("help")) {
    print_puzzle_help(spec);
    return 0;
  }
  if (const auto cases = flags.values.find("cases"); cases != flags.values.end()) {
    if (split_cases(cases->second).empty())
      throw UsageError("--cases: no case given; it takes run flags, ';' between cases (\"--" +
                       spec.variants.front().name + " --size 10;--" + spec.variants.front().name + " --seed 3\")");
    return run_cases_here(spec, cases->second, own);
  }
  const double limit = time_limit_from(flags);
  const RunCase one = case_from_flags(spec, flags, own);
  RunRequest req = one.req;
  const VariantSpec& variant = *req.variant;
  const std::string& case_args = one.args;
  const PrintStyle style{use_color(), kInlineArrays};

  if (req.impl == Impl::exercise) announce_stale_binary({spec.name});
  // A puzzle that spans ranks runs as other processes (rank_launch.hpp); they keep the time limit
  // and name their own crashes.
  const bool on_ranks = starts_ranks(spec);
  // The race check first (race_check.hpp): a run of racy code passes or fails by luck, and one
  // past a View's end or its scratch may crash.
  RaceCheck race;
  if (!flags.has("no-race-check")) {
    race = race_check(spec, variant, req.impl);
    if (race.blocking() && req.impl == Impl::exercise && case_args != "--" + variant.name) {
      // Bad input is the user's to fix first, whatever state the code is in (exit 2 with its
      // line): the reference, run with the same options, throws the UsageError a valid kernel
      // would meet. The race check ran the trace configuration, not these options.
      RunRequest probe = req;
      probe.impl = Impl::reference;
      probe.keep_arrays = false;
      if (on_ranks)
        (void)run_case(spec, probe, limit);
      else {
        const TimeLimit watchdog(limit, spec.name + " " + case_args + " (its options, checked with the reference)");
        (void)spec.run(probe);
      }
    }
    if (race.blocking()) {
      if (flags.has("json")) {
        Json j = Json::object();
        j.set("puzzle", spec.name).set("variant", variant.name).set("pass", false).set("race_check", race.to_json());
        std::cout << j.dump() << '\n';
      } else {
        std::cout << (use_color() ? "\x1b[1;31mFAIL\x1b[0m" : "FAIL") << "  " << spec.name << " --" << variant.name
                  << ": the race check found a bug, so the run was not started (--no-race-check starts it)\n"
                  << race_check_text(race.to_json());
      }
      return 1;
    }
  }
  const RunReport report = [&] {
    if (on_ranks) return run_case(spec, req, limit);
    const TimeLimit watchdog(limit, spec.name + " " + case_args);
    const CrashContext crash(
        spec.name + " " + case_args + " (" + std::string(to_string(req.impl)) + ", " + req.space + ")",
        crash_next_step(spec.name, case_args, req.impl));
    return spec.run(req);
  }();
  // One of several ranks: the first rank prints the verdict of them all.
  if (report.follower) return report.pass ? 0 : 1;
  if (flags.has("json")) {
    Json j = report_json(spec.name, req, report);
    if (!req.keep_arrays)
      j.set("arrays_omitted", "--size is above " + std::to_string(kJsonArrays) + ": --full-arrays prints them");
    std::cout << j.dump() << '\n';
  } else
    print_report(std::cout, spec.name, req, report, style);
  if (req.impl == Impl::exercise) {
    const std::string note = bug_hunt_note(learner_paths(), spec, variant);
    if (!note.empty()) (flags.has("json") ? std::cerr : std::cout) << note << '\n';  // stdout stays one JSON object
  }
  // Right here, wrong in the traced run (teams of four): a bug this machine's team size hides.
  if (report.pass && race.state == RaceCheck::State::bug) {
    (flags.has("json") ? std::cerr : std::cout)
        << "but the race check's traced run (teams of four, both TeamThreadRange distributions) is wrong:\n"
        << race_check_text(race.to_json());
    return 1;
  }
  return report.pass ? 0 : 1;
}

}  // namespace kpz::cli

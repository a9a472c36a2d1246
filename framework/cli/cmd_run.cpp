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

int cmd_run(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "run");
  std::vector<Flag> own = {{"reference", false, "run the solution instead of your code"},
                           {"json", false, "print one JSON object"},
                           {"steps", false, "print the puzzle's step-by-step tables (where it has them)"}};
  for (const Flag& f : common_flags()) own.push_back(f);
  own.insert(own.end(),
             {{"time-limit", true, "seconds before a hung run is stopped (default 60, 0: none)"},
              {"full-arrays", false, "--json: every array, at any --size (default: up to 4096)"},
              {"no-race-check", false, "run even when the race check finds a bug (it may crash or pass by luck)"},
              {"help", false, "list variants and options"}});
  if (spec.ranks.spans_processes())
    own.push_back({"ranks", true, "MPI ranks the case runs on (default " + std::to_string(spec.ranks.fallback) + ")"});
  const ParsedFlags flags = parse_puzzle_flags(args, spec, "run", own);
  if (flags.has("help")) {
    print_puzzle_help(spec);
    return 0;
  }
  const double limit = time_limit_from(flags);
  const VariantSpec& variant = chosen_variant(spec, flags);
  RunRequest req;
  req.variant = &variant;
  req.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  req.params = resolve_params(spec, variant, flags, own);
  require_memory(spec, variant, req.params);  // before anything is allocated
  req.steps = flags.has("steps");
  apply_common(req, flags);
  const auto ranks_flag = flags.values.find("ranks");
  req.ranks = ranks_from(spec, ranks_flag == flags.values.end() ? nullptr : &ranks_flag->second);
  const PrintStyle style{use_color(), 64};
  const auto& values = req.params.values();
  const auto size = values.find("size");
  // --json with every array at the default size was 36.7 MB on one line, and at 2^26 held
  // 15.9 GB before std::bad_alloc: large arrays only when asked for.
  constexpr std::int64_t kJsonArrays = 4096;
  const bool small = size == values.end() || size->second <= kJsonArrays;
  req.keep_arrays = (flags.has("json") && (small || flags.has("full-arrays"))) || size == values.end() ||
                    static_cast<std::size_t>(size->second) <= style.max_inline;

  // The case as flags that repeat it, for a crash report or the time limit's message.
  std::string case_args = "--" + variant.name;
  for (const auto& option : variant.options)
    if (req.params.given(option.name))
      case_args += " --" + option.name + " " + std::to_string(req.params.get(option.name));
  for (const char* name : {"team-size", "vector-length", "seed", "ranks"})
    if (const auto it = flags.values.find(name); it != flags.values.end())
      case_args += std::string(" --") + name + " " + it->second;

  if (req.impl == Impl::exercise) announce_stale_binary({spec.name});
  // A puzzle that spans ranks runs as other processes (rank_launch.hpp); they keep the time limit
  // and name their own crashes.
  const bool on_ranks = spec.ranks.spans_processes() && !in_rank_process();
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

#include <iostream>

#include "bug_hunt_note.hpp"
#include "cli.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/report.hpp"
#include "memory.hpp"
#include "puzzle_flags.hpp"
#include "time_limit.hpp"

namespace kpz::cli {

int cmd_run(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "run");
  std::vector<Flag> own = {{"reference", false, "run the solution instead of your code"},
                           {"json", false, "print one JSON object"},
                           {"trace", false, "print the puzzle's per-step trace"}};
  for (const Flag& f : common_flags()) own.push_back(f);
  own.insert(own.end(), {{"time-limit", true, "seconds before a hung run is stopped (default 60, 0: none)"},
                         {"full-arrays", false, "--json: every array, at any --size (default: up to 4096)"},
                         {"help", false, "list variants and options"}});
  const ParsedFlags flags = parse_puzzle_flags(args, spec, "run", own);
  if (flags.has("help")) {
    print_puzzle_help(spec);
    return 0;
  }
  const double limit = time_limit_from(flags);
  const VariantSpec& variant = chosen_variant(spec, flags);
  RunRequest req;
  req.variant = variant.name;
  req.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  ParsedFlags puzzle_options = flags;  // kpuzzles' own flags, not the puzzle's
  for (const char* own : {"time-limit", "full-arrays"}) {
    puzzle_options.values.erase(own);
    puzzle_options.present.erase(own);
  }
  req.params = resolve_params(spec, variant, puzzle_options);
  require_memory(spec, variant, req.params);  // before anything is allocated
  req.trace = flags.has("trace");
  apply_common(req, flags);
  const PrintStyle style{use_color(), 64};
  const auto& values = req.params.values();
  const auto size = values.find("size");
  // --json with every array at the default size was 36.7 MB on one line, and at 2^26 held
  // 15.9 GB before std::bad_alloc: large arrays only when asked for.
  constexpr std::int64_t kJsonArrays = 4096;
  const bool small = size == values.end() || size->second <= kJsonArrays;
  req.keep_arrays = (flags.has("json") && (small || flags.has("full-arrays"))) || size == values.end() ||
                    static_cast<std::size_t>(size->second) <= style.max_inline;

  if (req.impl == Impl::exercise) announce_stale_binary({spec.name});
  const RunReport report = [&] {
    const TimeLimit watchdog(limit, spec.name + " --" + variant.name);
    return spec.run(req);
  }();
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
  return report.pass ? 0 : 1;
}

}  // namespace kpz::cli

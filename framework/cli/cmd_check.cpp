#include <iostream>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/report.hpp"
#include "kpz/spaces.hpp"
#include "puzzle_flags.hpp"

namespace kpz::cli {

// Runs every variant (of one puzzle, or of all) with its default options and prints each
// report. Exit 0 when all pass, 1 otherwise.
int cmd_check(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(
      args, {{"reference", false, "check the solutions"}, {"space", true, "execution space"}},
      "'kpuzzles check'");
  std::vector<const PuzzleSpec*> puzzles;
  if (flags.positional.size() > 1) throw UsageError("'kpuzzles check' takes at most one puzzle");
  if (flags.positional.empty())
    for (const auto& p : Registry::instance().all()) puzzles.push_back(&p);
  else
    puzzles.push_back(&find_puzzle(flags.positional, "check"));
  int failed = 0, total = 0;
  for (const PuzzleSpec* spec : puzzles) {
    for (const auto& v : spec->variants) {
      RunRequest req;
      req.variant = v.name;
      req.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
      req.params = default_params(v);
      apply_common(req, flags);
      const auto size = req.params.values().find("size");
      req.keep_arrays = size == req.params.values().end() || size->second <= 64;
      const RunReport report = spec->run(req);
      print_report(std::cout, spec->name, req, report, PrintStyle{use_color(), 64});
      std::cout << '\n';
      ++total;
      failed += !report.pass;
    }
  }
  std::cout << (total - failed) << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace kpz::cli

#include <iostream>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/report.hpp"
#include "puzzle_flags.hpp"

namespace kpz::cli {

int cmd_run(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "run");
  std::vector<Flag> allowed = puzzle_flags(spec);
  allowed.insert(allowed.end(), {{"reference", false, "run the solution instead of your code"},
                                 {"json", false, "print one JSON object"},
                                 {"trace", false, "print the puzzle's per-step trace"},
                                 {"seed", true, "input seed"},
                                 {"team-size", true, "team members per team"},
                                 {"vector-length", true, "vector lanes per team member"},
                                 {"space", true, "execution space"},
                                 {"help", false, "list variants and options"}});
  const ParsedFlags flags =
      parse_flags({args.begin() + 1, args.end()}, allowed, "'kpuzzles run " + spec.name + "'");
  if (!flags.positional.empty())
    throw UsageError("unexpected argument '" + flags.positional.front() + "' for 'kpuzzles run " +
                     spec.name + "' (variants are flags, e.g. --" + spec.variants.front().name + ")");
  if (flags.has("help")) {
    print_puzzle_help(spec);
    return 0;
  }
  const VariantSpec& variant = chosen_variant(spec, flags);
  RunRequest req;
  req.variant = variant.name;
  req.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  req.params = resolve_params(spec, variant, flags);
  req.trace = flags.has("trace");
  apply_common(req, flags);
  const PrintStyle style{use_color(), 64};
  const auto& values = req.params.values();
  const auto size = values.find("size");
  req.keep_arrays = flags.has("json") || size == values.end() ||
                    static_cast<std::size_t>(size->second) <= style.max_inline;

  const RunReport report = spec.run(req);
  if (flags.has("json")) std::cout << report_json(spec.name, req, report).dump() << '\n';
  else print_report(std::cout, spec.name, req, report, style);
  return report.pass ? 0 : 1;
}

}  // namespace kpz::cli

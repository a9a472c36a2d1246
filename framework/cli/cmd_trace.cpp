// kpuzzles trace: access diagrams, races and budgets of one small run (trace builds only).
// Exit codes: 0 race-free, within budget and correct; 1 a race, an uninitialised scratch read,
// a misuse of the team API, a budget violation or a wrong result; 2 bad usage.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "paths.hpp"
#include "puzzle_flags.hpp"
#include "race_check.hpp"

#if defined(KPZ_TRACE)
#include "kpz/trace/puzzle.hpp"
#endif

namespace kpz::cli {

#if !defined(KPZ_TRACE)

// A host build traces with the puzzle's verifier (race_check.hpp): the variant's trace
// configuration, both distributions, the whole report. Other configurations, SVG files and
// `--all` need the trace build.
int cmd_trace(const std::vector<std::string>& args) {
  const std::string trace_build =
      "cmake --preset trace && cmake --build --preset trace (add -DKokkos_ROOT=... to reuse an installed Kokkos), "
      "then run build/trace/framework/cli/kpuzzles trace ...";
  if (learner_paths().verify_dir.empty())
    throw UsageError("'kpuzzles trace' needs a host build or the trace build: " + trace_build);
  if (!args.empty() && args[0] == "--all")
    throw UsageError("'kpuzzles trace --all' needs the trace build: " + trace_build);
  const PuzzleSpec& spec = find_puzzle(args, "trace");
  const ParsedFlags flags =
      parse_puzzle_flags(args, spec, "trace",
                         {{"reference", false},
                          {"help", false},
                          // The trace build's flags: known here, so that they are refused with where to find them.
                          {"team-size", true},
                          {"distribution", true},
                          {"svg", true},
                          {"no-svg", false},
                          {"teams", true},
                          {"seed", true}});
  if (flags.has("help")) {
    print_puzzle_help(spec);
    std::cout << "trace (this build): the variant's trace configuration, as `kpuzzles check` judges it; options, "
                 "--team-size, --distribution and SVG files need the trace build\n";
    return 0;
  }
  const VariantSpec& variant = chosen_variant(spec, flags);
  for (const char* only_there : {"no-svg"})
    if (flags.has(only_there))
      throw UsageError(std::string("--") + only_there + " needs the trace build: " + trace_build);
  if (!flags.values.empty())
    throw UsageError("--" + flags.values.begin()->first +
                     " needs the trace build (this build traces the variant's own configuration): " + trace_build);
  show_race_report(spec, variant, flags.has("reference") ? Impl::reference : Impl::exercise);
}

#else

namespace {

std::vector<trace::Distribution> distributions(const ParsedFlags& flags) {
  const auto it = flags.values.find("distribution");
  if (it == flags.values.end() || it->second == "both")
    return {trace::Distribution::cyclic, trace::Distribution::blockwise};
  if (it->second == "cyclic") return {trace::Distribution::cyclic};
  if (it->second == "blockwise") return {trace::Distribution::blockwise};
  throw UsageError("--distribution '" + it->second + "' is not allowed: use cyclic (CUDA), blockwise (host) or both");
}

void write_svg(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw UsageError("cannot write '" + path + "'");
  out << text;
  if (!out) throw UsageError("cannot write '" + path + "'");
}

// The default diagram: <build tree>/trace-diagrams/<puzzle>-<variant>.trace.svg, never the
// working directory (which may be read-only). A folder that cannot be made
// is an error of the machine (exit 3), not of the usage.
std::string default_svg_path(const std::string& puzzle, const std::string& variant) {
  const std::string build = learner_paths().build_dir;
  const std::filesystem::path dir = std::filesystem::path(build.empty() ? "." : build) / "trace-diagrams";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot create " + dir.string() + " for the diagram (" + ec.message() +
                             "): give --svg FILE in a writable folder, or --no-svg");
  return (dir / (puzzle + "-" + variant + ".trace.svg")).string();
}

int trace_all(const ParsedFlags& flags) {
  const Impl impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  const auto dir = flags.values.find("svg-dir");
  trace::DiagramOptions style;
  style.color = use_color();
  int failed = 0, traced = 0, skipped = 0;
  for (const auto& spec : Registry::instance().all()) {
    for (const auto& v : spec.variants) {
      trace::TraceOptions o;
      o.impl = impl;
      o.distributions = distributions(flags);
      const trace::VariantTrace t = trace::trace_variant(spec, v, o);
      if (!t.not_traceable.empty()) {
        std::cout << "skipped  " << t.not_traceable << '\n';
        ++skipped;
        continue;
      }
      ++traced;
      if (t.clean()) {
        std::cout << "ok       " << spec.name << " --" << v.name << ": race-free and within budget\n";
      } else {
        ++failed;
        std::cout << "FAILED   " << spec.name << " --" << v.name << "\n" << trace::render_report(t, style) << '\n';
      }
      if (dir != flags.values.end()) {
        const std::string path = dir->second + "/" + spec.name + "-" + v.name + ".svg";
        trace::DiagramOptions svg;
        write_svg(path, trace::render_svg(t, svg));
      }
    }
  }
  std::cout << traced - failed << " of " << traced << " traced variants clean, " << failed << " failed, " << skipped
            << " not traceable\n";
  return failed ? 1 : 0;
}

}  // namespace

int cmd_trace(const std::vector<std::string>& args) {
  const std::vector<Flag> common = {{"reference", false}, {"team-size", true}, {"seed", true},  {"distribution", true},
                                    {"svg", true},        {"no-svg", false},   {"teams", true}, {"help", false}};
  if (!args.empty() && args[0] == "--all") {
    const ParsedFlags flags =
        parse_flags({args.begin() + 1, args.end()}, {{"reference", false}, {"svg-dir", true}, {"distribution", true}},
                    "'kpuzzles trace --all'");
    if (!flags.positional.empty()) throw UsageError("'kpuzzles trace --all' takes no puzzle name");
    return trace_all(flags);
  }
  const PuzzleSpec& spec = find_puzzle(args, "trace");
  const ParsedFlags flags = parse_puzzle_flags(args, spec, "trace", common);
  if (flags.has("help")) {
    print_puzzle_help(spec);
    std::cout << "trace: --distribution cyclic|blockwise|both --svg FILE --no-svg --teams N\n";
    return 0;
  }
  const VariantSpec& variant = chosen_variant(spec, flags);
  trace::TraceOptions o;
  o.impl = flags.has("reference") ? Impl::reference : Impl::exercise;
  o.distributions = distributions(flags);
  for (const auto& opt : variant.options)
    if (const auto it = flags.values.find(opt.name); it != flags.values.end())
      o.options[opt.name] = parse_int(opt.name, it->second, opt.min, opt.max);
  for (const auto& [name, value] : flags.values) {
    (void)value;
    const bool mine = std::any_of(variant.options.begin(), variant.options.end(),
                                  [&](const OptionSpec& opt) { return opt.name == name; });
    const bool common_flag =
        name == "team-size" || name == "seed" || name == "distribution" || name == "svg" || name == "teams";
    if (!mine && !common_flag) throw UsageError("--" + name + " does not apply to " + spec.name + " --" + variant.name);
  }
  if (const auto it = flags.values.find("team-size"); it != flags.values.end())
    o.team_size = static_cast<int>(parse_int("team-size", it->second, 1, trace::kMaxTeamSize));
  if (const auto it = flags.values.find("seed"); it != flags.values.end())
    o.seed = static_cast<std::uint64_t>(parse_int("seed", it->second, 0, std::numeric_limits<std::int64_t>::max()));
  trace::DiagramOptions style;
  style.color = use_color();
  if (const auto it = flags.values.find("teams"); it != flags.values.end())
    style.max_teams = static_cast<int>(parse_int("teams", it->second, 0, 1 << 20));

  const trace::VariantTrace t = trace::trace_variant(spec, variant, o);
  if (!t.not_traceable.empty()) throw UsageError(t.not_traceable);
  std::cout << trace::render_report(t, style);
  if (!flags.has("no-svg")) {
    const auto it = flags.values.find("svg");
    const std::string path = it != flags.values.end() ? it->second : default_svg_path(spec.name, variant.name);
    trace::DiagramOptions svg;
    svg.max_teams = style.max_teams;
    write_svg(path, trace::render_svg(t, svg));
    std::cout << "diagram: " << path << '\n';
  }
  return t.clean() ? 0 : 1;
}

#endif

}  // namespace kpz::cli

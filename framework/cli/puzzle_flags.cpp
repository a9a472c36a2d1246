#include "puzzle_flags.hpp"

#include <algorithm>
#include <iostream>
#include <limits>

#include "kpz/errors.hpp"
#include "kpz/space_names.hpp"
#include "puzzle_modules.hpp"

namespace kpz::cli {

const PuzzleSpec& find_puzzle(const std::vector<std::string>& args, const std::string& command) {
  // Every puzzle of the build, those whose module is not built yet included.
  auto names = Registry::instance().names();
  for (const auto& m : module_puzzles())
    if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
  std::sort(names.begin(), names.end());
  if (args.empty() || args[0].rfind("-", 0) == 0)
    throw UsageError("'kpuzzles " + command + "' needs a puzzle name first; puzzles: " + join(names, ", "));
  const PuzzleSpec* spec = Registry::instance().find(args[0]);
  if (!spec) throw UsageError("unknown puzzle '" + args[0] + "'; puzzles: " + join(names, ", "));
  return *spec;
}

std::vector<Flag> puzzle_flags(const PuzzleSpec& spec) {
  std::vector<Flag> flags;
  for (const auto& v : spec.variants) flags.push_back({v.name, false});
  for (const auto& v : spec.variants)
    for (const auto& o : v.options)
      if (std::none_of(flags.begin(), flags.end(), [&](const Flag& f) { return f.name == o.name; }))
        flags.push_back({o.name, true});
  return flags;
}

ParsedFlags parse_puzzle_flags(const std::vector<std::string>& args, const PuzzleSpec& spec, const std::string& command,
                               const std::vector<Flag>& own) {
  std::vector<Flag> allowed = puzzle_flags(spec);
  allowed.insert(allowed.end(), own.begin(), own.end());
  const std::string context = "'kpuzzles " + command + " " + spec.name + "'";
  ParsedFlags flags = parse_flags({args.begin() + 1, args.end()}, allowed, context);
  if (!flags.positional.empty())
    throw UsageError("unexpected argument " + cli::quoted(flags.positional.front()) + " for " + context +
                     " (variants are flags, e.g. --" + spec.variants.front().name + ")");
  return flags;
}

const VariantSpec& chosen_variant(const PuzzleSpec& spec, const ParsedFlags& flags) {
  const VariantSpec* chosen = nullptr;
  for (const auto& v : spec.variants) {
    if (!flags.has(v.name)) continue;
    if (chosen)
      throw UsageError("choose one variant of " + spec.name + ", not both --" + chosen->name + " and --" + v.name);
    chosen = &v;
  }
  return chosen ? *chosen : spec.variants.front();
}

Params resolve_params(const PuzzleSpec& spec, const VariantSpec& variant, const ParsedFlags& flags,
                      const std::vector<Flag>& command_flags) {
  OptionValues given;
  for (const auto& o : variant.options)
    if (const auto it = flags.values.find(o.name); it != flags.values.end())
      given[o.name] = parse_int(o.name, it->second, o.min, o.max);
  std::vector<Flag> not_options = common_flags();
  not_options.insert(not_options.end(), command_flags.begin(), command_flags.end());
  for (const auto& entry : flags.values) {
    const std::string& name = entry.first;
    const bool common =
        std::any_of(not_options.begin(), not_options.end(), [&](const Flag& f) { return f.name == name; });
    // Not an option of the variant: kpz::resolve_params refuses it by name, whatever its value.
    if (!common && !given.count(name)) given[name] = 0;
  }
  return kpz::resolve_params(spec, variant, given);
}

void apply_common(RunRequest& req, const ParsedFlags& flags) {
  req.space = default_space_name();
  if (const auto it = flags.values.find("space"); it != flags.values.end()) {
    const auto names = enabled_space_names();
    if (std::find(names.begin(), names.end(), it->second) == names.end())
      throw UsageError("--space '" + it->second + "' is not enabled in this build; use one of: " + join(names, ", "));
    req.space = it->second;
  }
  if (const auto it = flags.values.find("seed"); it != flags.values.end())
    req.seed = static_cast<std::uint64_t>(parse_int("seed", it->second, 0, std::numeric_limits<std::int64_t>::max()));
  if (const auto it = flags.values.find("team-size"); it != flags.values.end())
    req.team_size = static_cast<int>(parse_int("team-size", it->second, 1, 1024));
  if (const auto it = flags.values.find("vector-length"); it != flags.values.end())
    req.vector_length = static_cast<int>(parse_int("vector-length", it->second, 1, 1024));
}

std::vector<Flag> common_flags() {
  return {{"seed", true}, {"team-size", true}, {"vector-length", true}, {"space", true}};
}

void print_puzzle_help(const PuzzleSpec& spec) {
  std::cout << spec.name << ": " << spec.summary << "\nvariants (the first is the default):\n";
  for (const auto& v : spec.variants) {
    std::cout << "  --" << v.name << "  " << v.summary << '\n';
    for (const auto& o : v.options)
      std::cout << "      --" << o.name << " N  " << o.help << " (default " << o.fallback << ", " << o.min << ".."
                << o.max << ")\n";
  }
  std::cout << "common: --reference --json --steps --seed S --team-size T --vector-length V --space "
            << join(enabled_space_names(), "|") << '\n';
}

}  // namespace kpz::cli

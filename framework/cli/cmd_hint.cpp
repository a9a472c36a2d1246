#include <iostream>

#include "cli.hpp"
#include "exercises.hpp"
#include "hints.hpp"
#include "kpz/errors.hpp"
#include "learner.hpp"
#include "puzzle_flags.hpp"
#include "terminal.hpp"

namespace kpz::cli {

namespace {

// `kpuzzles hint` without a puzzle: the exercise the learner is on (the one `watch` showed
// last), else the first one not solved in course order, else the first.
std::string current_puzzle(const LearnerState& state) {
  const auto exercises = course_exercises();
  if (const int at = find_exercise(exercises, state.current()); at >= 0)
    return exercises[static_cast<std::size_t>(at)].puzzle->name;
  for (const auto& e : exercises)
    if (!state.solved(e.puzzle->name, e.variant->name)) return e.puzzle->name;
  return exercises.empty() ? std::string() : exercises.front().puzzle->name;
}

}  // namespace

// kpuzzles hint [puzzle] [--variant v] [--seen] [--json]: one more tier of hints per call
// (a nudge, the concept, nearly the solution) for every TODO of the exercise's function,
// remembered in the progress file. --seen repeats the tiers shown so far without a new one.
int cmd_hint(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  if (args.empty() || args[0].rfind("-", 0) == 0) args.insert(args.begin(), current_puzzle(load_state()));
  const PuzzleSpec& spec = find_puzzle(args, "hint");
  const ParsedFlags flags =
      parse_flags({args.begin() + 1, args.end()}, {{"variant", true}, {"seen", false}, {"json", false}},
                  "'kpuzzles hint " + spec.name + "'");
  if (!flags.positional.empty())
    throw UsageError("unexpected argument " + cli::quoted(flags.positional.front()) +
                     " for 'kpuzzles hint'; choose the exercise with --variant");
  const auto it = flags.values.find("variant");
  const VariantSpec& variant = pick_variant(spec, it == flags.values.end() ? "" : it->second, load_state());
  const ExerciseHints h = load_hints(spec, variant);
  std::vector<std::string> sharing;
  for (const auto& v : spec.variants)
    if (hint_key(spec, v) == h.key) sharing.push_back("--" + v.name);

  std::vector<int> show;
  bool is_new = false;
  if (flags.has("seen")) {
    const int seen = load_state().hints_shown(h.key);
    for (int t = 1; t <= std::min(seen, h.tiers); ++t) show.push_back(t);
  } else {
    show.push_back(reveal_next_tier(h, is_new));
  }

  if (flags.has("json")) {
    Json tiers = Json::array();
    for (int t : show) tiers.push(hints_json(h, t));
    Json j = Json::object();
    j.set("puzzle", spec.name).set("variant", variant.name).set("function", variant.main_function());
    j.set("hint_set", h.key).set("tiers", h.tiers).set("new", is_new).set("hints", std::move(tiers));
    std::cout << j.dump() << '\n';
    return 0;
  }
  const Style style{use_color()};
  const std::string file = exercise_file_for(learner_paths(), spec.name, variant.main_function());
  const std::string where = variant.functions.empty() ? file : "function " + variant.main_function() + " in " + file;
  std::cout << style.bold(spec.name + " --" + variant.name) << " (" << where << ")\n";
  if (show.empty()) {
    std::cout << "No hints shown yet: `kpuzzles hint " << spec.name << " --variant " << variant.name
              << "` shows the first.\n";
    return 0;
  }
  for (int t : show) {
    std::cout << '\n'
              << style.bold("hint " + std::to_string(t) + " of " + std::to_string(h.tiers) + ": " + tier_name(t))
              << "\n\n";
    std::cout << render_tier(h, t);
  }
  if (flags.has("seen")) return 0;
  const int tier = show.back();
  std::cout << '\n';
  if (!is_new)
    std::cout << "That was the last hint. The solution opens once every variant of " << spec.name
              << " passes: `kpuzzles solution " << spec.name << "`.\n";
  else if (tier < h.tiers)
    std::cout << "Try it, then ask again for hint " << tier + 1 << " (" << tier_name(tier + 1) << ").";
  if (is_new && tier < h.tiers) {
    if (sharing.size() > 1) std::cout << " These hints are shared by " << join(sharing, ", ") << ".";
    std::cout << '\n';
  } else if (is_new) {
    std::cout << "That was the last hint for " << where << ".\n";
  }
  return 0;
}

}  // namespace kpz::cli

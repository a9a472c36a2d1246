#pragma once
// Hints for one exercise, read from its puzzle's docs page, and the tier bookkeeping that
// `kpuzzles hint` and the `h` key of `kpuzzles watch` share.
#include <string>
#include <vector>

#include "docs_text.hpp"
#include "kpz/json.hpp"
#include "kpz/registry.hpp"

namespace kpz::cli {

struct ExerciseHints {
  std::string key;       // hint_key(): "<puzzle>/<function>"
  std::string doc_path;  // docs/puzzles/<name>.md (absolute)
  std::vector<HintTodo> todos;
  int tiers = 0;
};

// Throws std::runtime_error when the page cannot be read or has no hints for the exercise.
ExerciseHints load_hints(const PuzzleSpec& puzzle, const VariantSpec& variant);

// Tier `tier` (1-based) of every TODO, rendered for a terminal.
std::string render_tier(const ExerciseHints& h, int tier, const std::string& indent = "  ");

// Reveals the next tier (remembered in the progress file) and returns the tier to show: the new
// one, or the last one again when all are shown. `is_new` says which.
int reveal_next_tier(const ExerciseHints& h, bool& is_new);

Json hints_json(const ExerciseHints& h, int tier);

}  // namespace kpz::cli

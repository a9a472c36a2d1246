#include "hints.hpp"

#include <sstream>
#include <stdexcept>

#include "exercises.hpp"
#include "learner.hpp"
#include "paths.hpp"

namespace kpz::cli {

ExerciseHints load_hints(const PuzzleSpec& puzzle, const VariantSpec& variant) {
  ExerciseHints h;
  h.key = hint_key(puzzle, variant);
  h.doc_path = learner_paths().docs_file(puzzle.doc_page());
  const std::string page = read_text_file(h.doc_path);
  if (page.empty())
    throw std::runtime_error("cannot read " + h.doc_path +
                             " for the hints; set KPZ_SOURCE_DIR to the Kokkos Puzzles source tree");
  h.todos = hints_for(parse_hints(page), variant.functions);
  h.tiers = tier_count(h.todos);
  if (h.tiers == 0)
    throw std::runtime_error(
        relative_to_source(h.doc_path) +
        " has no hints (a '## Hints' section with '### TODO n: ...' headings and '??? tip \"Hint k\"' blocks)");
  return h;
}

std::string render_tier(const ExerciseHints& h, int tier, const std::string& indent) {
  std::string out;
  for (const auto& t : h.todos) {
    if (tier < 1 || tier > static_cast<int>(t.tiers.size())) continue;
    out += "TODO " + std::to_string(t.number) + ": " + t.title + "\n";
    std::istringstream body(render_markdown(t.tiers[static_cast<std::size_t>(tier - 1)]));
    for (std::string line; std::getline(body, line);) out += (line.empty() ? "" : indent + line) + "\n";
    out += "\n";
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

int reveal_next_tier(const ExerciseHints& h, bool& is_new) {
  int shown = 0;
  update_state([&](LearnerState& s) {
    shown = s.hints_shown(h.key);
    is_new = shown < h.tiers;
    if (!is_new) return false;
    s.set_hints_shown(h.key, ++shown);
    return true;
  });
  return shown < 1 ? 1 : shown;
}

Json hints_json(const ExerciseHints& h, int tier) {
  Json todos = Json::array();
  for (const auto& t : h.todos) {
    if (tier < 1 || tier > static_cast<int>(t.tiers.size())) continue;
    Json j = Json::object();
    j.set("number", t.number).set("title", t.title).set("function", t.function);
    j.set("text", t.tiers[static_cast<std::size_t>(tier - 1)]);
    todos.push(std::move(j));
  }
  Json j = Json::object();
  j.set("tier", tier).set("tiers", h.tiers).set("tier_name", tier_name(tier)).set("todos", std::move(todos));
  return j;
}

}  // namespace kpz::cli

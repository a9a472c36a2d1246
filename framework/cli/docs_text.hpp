#pragma once
// What the learner loop reads from a puzzle's docs page (docs/puzzles/<name>.md):
//   ## Hints
//   ### TODO 1: stage `a` and `b` (`simple`)      <- the function of the exercise it belongs to
//   ??? tip "Hint 1: a nudge"                       <- tier 1, its text indented four spaces
//   ??? tip "Hint 2: the concept"                   <- tier 2
//   ??? tip "Hint 3: nearly the solution"           <- tier 3
//   ## The solution explained                       <- shown by `kpuzzles solution`
// The `???` blocks (pymdownx.details) are collapsed on the website until opened; plain
// `#### Hint k` headings are read too. The page is the single source: the hints on the website
// and in the terminal are the same.
#include <string>
#include <vector>

namespace kpz::cli {

struct HintTodo {
  int number = 0;                  // "TODO 3"
  std::string title;               // "stage the tile and its halo"
  std::string function;            // "tiled"; empty when the heading names none
  std::vector<std::string> tiers;  // markdown of Hint 1, Hint 2, ...
};

// The TODOs of the page's "## Hints" section, in page order (empty when it has none).
std::vector<HintTodo> parse_hints(const std::string& markdown);

// The TODOs whose heading names one of `functions` (an exercise's VariantSpec::functions), in
// page order; all of them when no heading names one.
std::vector<HintTodo> hints_for(const std::vector<HintTodo>& todos, const std::vector<std::string>& functions);

// The most tiers any of these TODOs has.
int tier_count(const std::vector<HintTodo>& todos);

// "a nudge", "the concept", "nearly the solution" for tiers 1, 2, 3 (then "hint N").
std::string tier_name(int tier);

// Collapsible blocks (pymdownx.details: `??? type "Title"` or `???+`, the body indented four
// spaces) as plain markdown: the body dedented; an outermost block's opening line becomes a
// `#### Title` heading when `titles_as_headings`, else is dropped; a nested block's title becomes
// bold text. Lines inside code fences never open a block.
std::string unwrap_details(const std::string& markdown, bool titles_as_headings);

// The body of the level-2 section titled `title` ("The solution explained"), up to the next
// level-2 heading, its collapsible blocks unwrapped (titles dropped); "" when the page has no such
// section. Headings inside code fences do not count.
std::string markdown_section(const std::string& markdown, const std::string& title);

// One line of markdown as plain terminal text: emphasis marks (**, __, *, _, ~~) dropped, code
// spans kept with their backticks (the CLI's way of marking a command or a name) and never
// touched inside, links and images reduced to their text (a link to the web keeps its address in
// parentheses), backslash escapes resolved.
std::string render_inline(const std::string& text);

// Markdown made readable in a terminal: fences dropped and code indented, heading marks removed,
// every other line through render_inline, runs of blank lines collapsed.
std::string render_markdown(const std::string& markdown);

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace kpz::cli

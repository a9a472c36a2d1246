// Hints and explanations read from the docs pages: the parser, and every registered puzzle's
// page (every variant has hints in three tiers, one per TODO of its function).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <string>
#include <string_view>

#include "docs_text.hpp"
#include "exercises.hpp"
#include "hints.hpp"
#include "kpz/registry.hpp"
#include "paths.hpp"
#include "skeleton.hpp"
#include "text.hpp"

namespace {

using namespace kpz::cli;

// A docs page as the hints parser reads it: the parts under test (what comes before the hints,
// the hints, the solution's explanation) under the headings every page has, and a last section
// that ends the explanation.
std::string docs_page(std::string_view before_hints, std::string_view hints, std::string_view solution) {
  return "# A puzzle\n\n" + std::string(before_hints) + "## Hints\n\n" + std::string(hints) +
         "## The solution explained\n\n" + std::string(solution) + "## What to try next\n\nOther things.\n";
}

const std::string kPage = docs_page(
    /*before_hints=*/"## Concept\n\nText with a [link](other.md#x).\n\n", /*hints=*/R"(Intro that belongs to no TODO.

### TODO 1: load the tile (`load`)

#### Hint 1

Nudge one.

#### Hint 2

Concept one, see [the table](#table).

#### Hint 3

```cpp
## not a heading: inside a fence
x = 1;
```

### TODO 2: compute (`compute`)

#### Hint 1

Nudge two.

#### Hint 2

Concept two.

#### Hint 3

Near two.

### TODO 3: untagged

#### Hint 1

Only one tier.

)",
    /*solution=*/R"(Why it works.

```text
## still the solution
```

### A subsection

More.

)");

TEST(DocsHints, ParsesTodosTiersAndFunctions) {
  const auto todos = parse_hints(kPage);
  ASSERT_EQ(todos.size(), 3u);
  EXPECT_EQ(todos[0].number, 1);
  EXPECT_EQ(todos[0].title, "load the tile");
  EXPECT_EQ(todos[0].function, "load");
  ASSERT_EQ(todos[0].tiers.size(), 3u);
  EXPECT_EQ(todos[0].tiers[0], "Nudge one.");
  EXPECT_NE(todos[0].tiers[2].find("## not a heading"), std::string::npos);
  EXPECT_EQ(todos[1].function, "compute");
  EXPECT_EQ(todos[1].tiers[2], "Near two.");
  EXPECT_EQ(todos[2].function, "");
  EXPECT_EQ(todos[2].tiers.size(), 1u);
  EXPECT_EQ(tier_count(todos), 3);
}

TEST(DocsHints, AnExerciseGetsTheTodosOfItsFunctionsOnly) {
  const auto todos = parse_hints(kPage);
  const auto load = hints_for(todos, {"load"});
  ASSERT_EQ(load.size(), 1u);
  EXPECT_EQ(load[0].number, 1);
  // A helper's TODO goes with the exercises that name the helper, in page order, and no other.
  const auto both = hints_for(todos, {"compute", "load"});
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].number, 1);
  EXPECT_EQ(both[1].number, 2);
  EXPECT_EQ(hints_for(todos, {"compute"}).size(), 1u);
  // Nothing named, or nothing the page tags: every hint of the page.
  EXPECT_EQ(hints_for(todos, {"nosuch"}).size(), 3u);
  EXPECT_EQ(hints_for(todos, {}).size(), 3u);
  EXPECT_TRUE(parse_hints("# no hints here\n\n## Concept\n").empty());
}

TEST(DocsHints, SolutionSectionEndsAtTheNextLevelTwoHeading) {
  const std::string s = markdown_section(kPage, "The solution explained");
  EXPECT_EQ(s.find("Why it works."), 0u) << s;
  EXPECT_NE(s.find("## still the solution"), std::string::npos);
  EXPECT_NE(s.find("### A subsection"), std::string::npos);
  EXPECT_EQ(s.find("Other things"), std::string::npos);
  EXPECT_EQ(markdown_section(kPage, "No such section"), "");
}

// The website's form: hints and the explanation in collapsible `???` blocks (pymdownx.details).
const std::string kCollapsedPage = docs_page(/*before_hints=*/"", /*hints=*/R"(### TODO 1: load the tile (`load`)

??? tip "Hint 1: a nudge"

    Nudge one,
    on two lines.

    A second paragraph.

??? tip "Hint 2: the concept"

    ```cpp
    ??? not a block: inside a fence
    x = 1;
    ```

??? tip "Hint 3: nearly the solution"
    Near one.

    ??? note "An aside"

        Nested.

### TODO 2: compute (`compute`)

???+ tip "Hint 1"

    Nudge two.

#### Hint 2

Concept two.

)",
                                             /*solution=*/R"(??? success "The solution explained"

    Why it works.

    ### A subsection

    More.

)");

TEST(DocsHints, ReadsCollapsibleBlocks) {
  // The explanation unwrapped from its block, its subsection kept.
  EXPECT_EQ(markdown_section(kCollapsedPage, "The solution explained"), "Why it works.\n\n### A subsection\n\nMore.");
  const auto todos = parse_hints(kCollapsedPage);
  ASSERT_EQ(todos.size(), 2u);
  ASSERT_EQ(todos[0].tiers.size(), 3u);
  EXPECT_EQ(todos[0].tiers[0], "Nudge one,\non two lines.\n\nA second paragraph.");
  EXPECT_EQ(todos[0].tiers[1], "```cpp\n??? not a block: inside a fence\nx = 1;\n```");
  EXPECT_EQ(todos[0].tiers[2], "Near one.\n\n**An aside**\n\nNested.");
  ASSERT_EQ(todos[1].tiers.size(), 2u);
  EXPECT_EQ(todos[1].tiers[0], "Nudge two.");
  EXPECT_EQ(todos[1].tiers[1], "Concept two.");
  EXPECT_EQ(unwrap_details("??? tip \"T\"\n\n    body\nafter\n", false), "\nbody\nafter\n");
}

TEST(DocsHints, RendersMarkdownForATerminal) {
  const std::string r =
      render_markdown("### Title\n\nSee [the table](#table) and `code`.\n\n\n\n```cpp\nint x;\n```\n");
  EXPECT_EQ(r, "Title\n\nSee the table and `code`.\n\n    int x;\n");
  // Emphasis as the page shows it, without its marks; code spans verbatim (emphasis and link
  // rules do not reach inside them); links within the book as their text, to the web with the
  // address; fenced code untouched.
  EXPECT_EQ(render_markdown("### A **bold** step\n"
                            "Sync **every member** of the team, *then* read __once__ and _twice_.\n"
                            "**Deep dive:** see [the `tile` table](#tile) and [Kokkos](https://kokkos.org/).\n"
                            "Keep `a * b * c`, `__global__`, `[&](int i)`, ``x `y` z`` and snake_case_names.\n"
                            "An ![image](img/x.svg) and \\*literal stars\\* and a * b * c.\n"
                            "```cpp\nint **p = nullptr;  // **kept**\n```\n"),
            "A bold step\n"
            "Sync every member of the team, then read once and twice.\n"
            "Deep dive: see the `tile` table and Kokkos (https://kokkos.org/).\n"
            "Keep `a * b * c`, `__global__`, `[&](int i)`, ``x `y` z`` and snake_case_names.\n"
            "An image and *literal stars* and a * b * c.\n"
            "    int **p = nullptr;  // **kept**\n");
  // A list keeps its bullets, an unclosed mark stays as it is.
  EXPECT_EQ(render_inline("* item with **bold**"), "* item with bold");
  EXPECT_EQ(render_inline("2 ** 3 and `open"), "2 ** 3 and `open");
  // Every hint of every page renders without an emphasis mark outside code.
  for (const auto& p : kpz::Registry::instance().all()) {
    for (const auto& todo : parse_hints(read_text_file(learner_paths().docs_file(p.doc_page()))))
      for (const auto& tier : todo.tiers) {
        std::string plain;
        for (const auto& line : split_lines(render_markdown(tier))) {
          if (line.rfind("    ", 0) == 0) continue;  // a code block
          bool in_code = false;
          for (const char c : line) {
            if (c == '`') in_code = !in_code;
            if (!in_code) plain += c;
          }
        }
        if (plain.find("**") != std::string::npos)
          ADD_FAILURE() << p.name << " TODO " << todo.number << ": '**' left in\n" << render_markdown(tier);
      }
  }
  EXPECT_EQ(tier_name(1), "a nudge");
  EXPECT_EQ(tier_name(2), "the concept");
  EXPECT_EQ(tier_name(3), "nearly the solution");
}

// Every registered puzzle: its page gives every variant hints in three tiers, its TODOs match
// the skeleton's, and it explains the solution.
TEST(DocsHints, EveryRegisteredPuzzleHasTieredHints) {
  const auto& puzzles = kpz::Registry::instance().all();
  ASSERT_FALSE(puzzles.empty());
  for (const auto& p : puzzles) {
    if (p.name.rfind("zz-", 0) == 0) continue;  // registry tests add throwaway puzzles
    SCOPED_TRACE(p.name);
    const std::string page = read_text_file(learner_paths().docs_file(p.doc_page()));
    // A puzzle whose page is neither written nor in the site's nav is still being written.
    const bool published =
        read_text_file(learner_paths().source_dir + "/mkdocs.yml").find(p.doc_page()) != std::string::npos;
    if (page.empty() && !published) {
      std::printf("[ warning  ] %s: no docs page %s yet, so no hints and no explanation\n", p.name.c_str(),
                  p.doc_page().c_str());
      continue;
    }
    ASSERT_FALSE(page.empty()) << "no docs page " << p.doc_page();
    const auto todos = parse_hints(page);
    ASSERT_FALSE(todos.empty()) << p.doc_page() << " has no '## Hints' with '### TODO n: ... (`function`)'";
    for (const auto& t : todos) {
      EXPECT_EQ(t.tiers.size(), 3u) << "TODO " << t.number << " needs Hint 1, 2, 3 (nudge, concept, near-solution)";
      for (const auto& tier : t.tiers) EXPECT_FALSE(tier.empty()) << "TODO " << t.number;
    }
    for (const auto& v : p.variants) {
      SCOPED_TRACE(v.name);
      const ExerciseHints h = load_hints(p, v);
      EXPECT_EQ(h.tiers, 3);
      // Each of its functions is tagged on the page (a typo would silently give every hint instead).
      for (const auto& f : v.functions)
        EXPECT_TRUE(std::any_of(todos.begin(), todos.end(), [&](const HintTodo& t) { return t.function == f; }))
            << "no '### TODO n: ... (`" << f << "`)' heading";
      if (!v.functions.empty()) EXPECT_FALSE(render_tier(h, 1).empty());
    }
    // Every TODO belongs to an exercise: its function is one a variant names (none would leave the
    // TODO's hints unreachable).
    for (const auto& t : todos)
      EXPECT_TRUE(std::any_of(p.variants.begin(), p.variants.end(),
                              [&](const kpz::VariantSpec& v) {
                                return std::find(v.functions.begin(), v.functions.end(), t.function) !=
                                       v.functions.end();
                              }))
          << "TODO " << t.number << " (`" << t.function << "`) belongs to no variant's functions";
    // As many TODOs on the page as in the reference (one hint set per learner TODO, and one per
    // bug hunt's KPZ-BUG block).
    int markers = 0;
    for (const auto& pair : kpz::cli::skeleton_pairs(learner_paths().source_dir, p.name)) {
      const std::string ref = read_text_file(pair.reference);
      for (const char* marker : {"// KPZ-TODO(", "// KPZ-BUG("})
        for (std::size_t at = ref.find(marker); at != std::string::npos; at = ref.find(marker, at + 1)) ++markers;
    }
    EXPECT_EQ(static_cast<int>(todos.size()), markers) << "TODO headings on the page vs KPZ-TODO and KPZ-BUG blocks";
    EXPECT_FALSE(markdown_section(page, "The solution explained").empty());
  }
}

}  // namespace

#include <gtest/gtest.h>

#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"

namespace {

TEST(Registry, RejectsDuplicatesAndEmptyPuzzles) {
  kpz::Registry& r = kpz::Registry::instance();
  kpz::PuzzleSpec spec;
  spec.name = "zz-test-puzzle";
  EXPECT_THROW(r.add(spec), std::logic_error);  // no variants
  spec.variants = {{"only", "one variant", {}}};
  r.add(spec);
  EXPECT_NE(r.find("zz-test-puzzle"), nullptr);
  EXPECT_THROW(r.add(spec), std::logic_error);
  EXPECT_NE(kpz::find_variant(*r.find("zz-test-puzzle"), "only"), nullptr);
  EXPECT_EQ(kpz::find_variant(*r.find("zz-test-puzzle"), "other"), nullptr);
}

// A puzzle's run never sees a name that is none of its variants: the registry refuses it first,
// naming the variants (exit code 2 in the CLI), whatever calls run.
TEST(Registry, RunOfAnUnknownVariantIsRefusedBeforeThePuzzle) {
  kpz::Registry& r = kpz::Registry::instance();
  kpz::PuzzleSpec spec;
  spec.name = "zz-run-guard";
  spec.variants = {{"first", "a variant", {}}, {"second", "another", {}}};
  static int calls = 0;  // static: the registry keeps the puzzle after the test
  spec.run = [](const kpz::RunRequest&) {
    ++calls;
    return kpz::RunReport{};
  };
  r.add(spec);
  const kpz::PuzzleSpec& added = *r.find("zz-run-guard");
  kpz::RunRequest req;
  req.variant = "second";
  const int before = calls;
  added.run(req);
  EXPECT_EQ(calls, before + 1);
  req.variant = "thrid";
  try {
    added.run(req);
    ADD_FAILURE() << "an unknown variant reached the puzzle";
  } catch (const kpz::UsageError& e) {
    EXPECT_STREQ(e.what(), "no variant 'thrid' in zz-run-guard (variants: first, second)");
  }
  EXPECT_EQ(calls, before + 1);
}

TEST(Registry, ChecksAndExercisesNameDeclaredVariantsOnly) {
  kpz::PuzzleSpec spec{"zz-checks", "a puzzle of the test"};
  spec.variants = {{"only", "one variant", {{"size", "N", 8, 1, 100}}}};
  EXPECT_EQ(spec.doc_page(), "puzzles/zz-checks.md");
  kpz::set_exercise(spec, "only", "kernel", {kpz::CheckCase{{"size", 1}}});
  kpz::add_checks(spec, "only", {kpz::CheckCase{{"size", 2}}, kpz::CheckCase{{"size", 3}}.team(1)});
  ASSERT_EQ(spec.variants[0].checks.size(), 3u);
  EXPECT_EQ(spec.variants[0].checks[2].team_size, 1);
  EXPECT_EQ(spec.variants[0].function, "kernel");
  // A misspelt variant is the puzzle's bug, not a silent no-op.
  EXPECT_THROW(kpz::add_checks(spec, "olny", {kpz::CheckCase{{"size", 2}}}), std::logic_error);
  EXPECT_THROW(kpz::set_exercise(spec, "olny", "kernel"), std::logic_error);
  EXPECT_THROW(kpz::set_estimate(spec, "olny", 10, kpz::Track::core), std::logic_error);
}

TEST(Params, UndeclaredOptionIsALogicError) {
  kpz::Params p;
  p.set("size", 3, true);
  EXPECT_EQ(p.get("size"), 3);
  EXPECT_TRUE(p.given("size"));
  EXPECT_THROW(p.get("tile"), std::logic_error);
}

TEST(Spaces, DefaultComesFirstAndUnknownIsRejected) {
  const auto names = kpz::enabled_space_names();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), kpz::default_space_name());
  EXPECT_THROW(kpz::with_space("opencl", [](const auto&) { return 0; }), kpz::UsageError);
}

TEST(Spaces, EveryBackendHasATeam) {
  for (const auto& name : kpz::enabled_space_names())
    kpz::with_space(name, [](const auto& space) {
      EXPECT_GE(kpz::team_size_max(space), 1);
      return 0;
    });
}

TEST(Spaces, ScratchOverLimitIsAUsageError) {
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      const std::size_t limit = kpz::scratch_size_max<Space>(0);
      EXPECT_NO_THROW(kpz::check_scratch<Space>(limit, 0, "x"));
      EXPECT_THROW(kpz::check_scratch<Space>(limit + 1, 0, "x"), kpz::UsageError);
      return 0;
    });
  }
}

}  // namespace

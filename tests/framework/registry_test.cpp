#include <gtest/gtest.h>

#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"

namespace {

TEST(Registry, RejectsDuplicatesAndEmptyPuzzles) {
  kpz::Registry& r = kpz::Registry::instance();
  kpz::PuzzleSpec spec;
  spec.name = "zz-test-puzzle";
  EXPECT_THROW(r.add(spec), std::logic_error);  // no variants
  spec.variants = {{.name = "only", .summary = "one variant"}};
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
  spec.variants = {{.name = "first", .id = 0, .summary = "a variant"},
                   {.name = "second", .id = 1, .summary = "another"}};
  static int calls = 0;  // static: the registry keeps the puzzle after the test
  spec.run = [](const kpz::RunRequest&) {
    ++calls;
    return kpz::RunReport{};
  };
  r.add(spec);
  const kpz::PuzzleSpec& added = *r.find("zz-run-guard");
  kpz::RunRequest req;
  req.variant = kpz::find_variant(added, "second");
  const int before = calls;
  added.run(req);
  EXPECT_EQ(calls, before + 1);
  const kpz::VariantSpec stranger{.name = "thrid"};  // another puzzle's, or none of this one's
  req.variant = &stranger;
  try {
    added.run(req);
    ADD_FAILURE() << "an unknown variant reached the puzzle";
  } catch (const kpz::UsageError& e) {
    EXPECT_STREQ(e.what(), "no variant 'thrid' in zz-run-guard (variants: first, second)");
  }
  req.variant = nullptr;
  EXPECT_THROW(added.run(req), kpz::UsageError);
  EXPECT_EQ(calls, before + 1);
}

// A variant is declared whole; two variants of one name or one id are the puzzle's bug, found
// when it registers (the id is how its run tells them apart).
TEST(Registry, VariantsNeedDistinctNamesAndIds) {
  kpz::Registry& r = kpz::Registry::instance();
  kpz::PuzzleSpec spec{.name = "zz-ids", .summary = "a puzzle of the test"};
  EXPECT_EQ(spec.doc_page(), "puzzles/zz-ids.md");
  spec.variants = {{.name = "a", .id = 0}, {.name = "b", .id = 0}};
  EXPECT_THROW(r.add(spec), std::logic_error);
  spec.variants = {{.name = "a", .id = 0}, {.name = "a", .id = 1}};
  EXPECT_THROW(r.add(spec), std::logic_error);
  spec.variants = {{.name = "a", .id = 0, .minutes = -5}};
  EXPECT_THROW(r.add(spec), std::logic_error);
  spec.variants = {{.name = "a", .id = 0}, {.name = "b", .id = 1}};
  spec.learning_order = {"b", "c"};
  EXPECT_THROW(r.add(spec), std::logic_error);
  EXPECT_EQ(r.find("zz-ids"), nullptr);
  spec.learning_order = {"b"};
  r.add(spec);
  EXPECT_NE(r.find("zz-ids"), nullptr);
}

// A variant that declares what its kernel needs gets the launch resolved by the registry, for the
// request's space, overrides and purpose, as launch_shape answers; a shape the backend cannot
// give is refused before the puzzle runs. A variant without needs gets the default shape.
TEST(Registry, DeclaredNeedsAreResolvedBeforeTheRun) {
  kpz::Registry& r = kpz::Registry::instance();
  const kpz::KernelNeeds needs{.gpu_team = 32, .check_team = 3, .gpu_tile = 64, .host_tile = 128};
  kpz::PuzzleSpec spec{.name = "zz-needs", .summary = "a puzzle of the test"};
  spec.variants = {{.name = "team", .id = 0, .needs = needs}, {.name = "flat", .id = 1}};
  static kpz::LaunchShape seen;
  static int calls = 0;
  spec.run = [](const kpz::RunRequest& req) {
    seen = req.launch;
    ++calls;
    return kpz::RunReport{};
  };
  r.add(spec);
  const kpz::PuzzleSpec& added = *r.find("zz-needs");
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [&](const auto& space) {
      for (const kpz::Purpose purpose : {kpz::Purpose::check, kpz::Purpose::speed}) {
        kpz::RunRequest req;
        req.variant = kpz::find_variant(added, "team");
        req.space = name;
        req.purpose = purpose;
        added.run(req);
        const kpz::LaunchShape want = kpz::launch_shape(space, needs, req);
        EXPECT_EQ(seen.to_json().dump(), want.to_json().dump()) << name;
        EXPECT_GT(seen.tile, 0) << name;
      }
      kpz::RunRequest wide;
      wide.variant = kpz::find_variant(added, "team");
      wide.space = name;
      wide.vector_length = 4;  // no vector loops: every lane would run the member's body
      const int before = calls;
      EXPECT_THROW(added.run(wide), kpz::ShapeError) << name;
      EXPECT_EQ(calls, before) << name;
      wide.variant = kpz::find_variant(added, "flat");
      added.run(wide);
      EXPECT_EQ(seen.to_json().dump(), kpz::LaunchShape{}.to_json().dump()) << name;
      return 0;
    });
  }
}

TEST(Registry, TheMainFunctionIsTheFirstNamed) {
  const kpz::VariantSpec none{.name = "x"};
  EXPECT_EQ(none.main_function(), "");
  const kpz::VariantSpec two{.name = "x", .functions = {"kernel", "helper"}};
  EXPECT_EQ(two.main_function(), "kernel");
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

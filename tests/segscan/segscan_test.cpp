// segscan through its runner: the worked examples, empty segments' zeros, segments over 3+ teams,
// heavy tails, bad input, the merge-path option and Kokkos Kernels when the build has it. The
// edge cases of every variant (N = 1, empty segments anywhere, one segment covering everything,
// all segments of length 1, N not a multiple of the tile, deep carry recursion), floats and
// integers, are the spec's checks, the team sizes its team sweeps (support/variant_checks_test.cpp).
// merge_path_test.cpp calls the framework's kernels directly.
#include <functional>
#include <string>
#include <vector>

#include "kpz/errors.hpp"
#include "kpz_test.hpp"
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"

namespace {

namespace ss = kpz::segscan;

const std::vector<std::string> kAll{"simple", "exclusive", "work-efficient", "multi-team", "reduce", "spmv"};

class Segscan : public kpz::test::PuzzleTest {
 protected:
  Segscan() : PuzzleTest("segscan") {}
  bool reference() const { return kpz::test::impl_under_test() == kpz::Impl::reference; }
};

// ---- worked examples (docs/puzzles/segscan.md) ----

TEST_P(Segscan, WorkedExampleInclusive) {
  for (int ints : {0, 1})
    for (const char* variant : {"simple", "work-efficient"}) {
      const auto r = run({variant, {{"int", ints}}});
      KPZ_EXPECT_PASS(r) << variant << " int=" << ints;
      EXPECT_EQ(r.output.dump(), "[0,1,3,3,7,5,11,18,26,9]") << variant;
      EXPECT_EQ(r.expected.dump(), "[0,1,3,3,7,5,11,18,26,9]");
      ASSERT_NE(r.extra.find("segment_totals"), nullptr);
      EXPECT_EQ(r.extra.find("segment_totals")->dump(), "[3,7,26,9]") << variant;
      EXPECT_EQ(r.inputs.find("ids")->dump(), "[0,0,0,1,1,2,2,2,2,3]");
      EXPECT_EQ(r.inputs.find("flags")->dump(), "[1,0,0,1,0,1,0,0,0,1]");
      EXPECT_EQ(r.inputs.find("offsets")->dump(), "[0,3,5,9,10]");
      EXPECT_EQ(r.inputs.find("values")->dump(), "[0,1,2,3,4,5,6,7,8,9]");
    }
}

TEST_P(Segscan, WorkedExampleStepTable) {
  const auto r = run({"simple", {}});
  std::string notes;
  for (const auto& l : r.notes) notes += l + "\n";
  // One row pair per step d = 1, 2, 4, 8, as in the docs.
  EXPECT_NE(notes.find("d = 1    v   0  1  3  3  7  5 11 13 15  9"), std::string::npos) << notes;
  EXPECT_NE(notes.find("d = 2    v   0  1  3  3  7  5 11 18 26  9"), std::string::npos) << notes;
  EXPECT_NE(notes.find("d = 8"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("d = 16"), std::string::npos) << notes;
  EXPECT_NE(notes.find("segment totals: [3,7,26,9]"), std::string::npos) << notes;
}

TEST_P(Segscan, WorkedExampleExclusive) {
  for (int ints : {0, 1}) {
    const auto r = run({"exclusive", {{"int", ints}}});
    KPZ_EXPECT_PASS(r);
    EXPECT_EQ(r.output.dump(), "[0,0,1,0,3,0,5,11,18,0]");
  }
}

// ---- edge cases, every variant, floats and integers ----

TEST_P(Segscan, EmptySegmentsGiveZero) {
  for (const char* v : {"reduce", "spmv"}) {
    const auto r = run({v, {{"size", 200}, {"shape", 4}, {"mean-length", 3}, {"int", 1}, {"tile", 8}}, 0, 5});
    KPZ_EXPECT_PASS(r) << v;
    const std::string out = r.output.dump();
    EXPECT_EQ(out.substr(0, 3), "[0,") << v << ": the first segment is empty";
    EXPECT_EQ(out.substr(out.size() - 3), ",0]") << v << ": the last segment is empty";
  }
}

TEST_P(Segscan, SegmentsSpanThreeOrMoreTeams) {
  for (int ints : {0, 1}) {
    // Tiles of 8 elements and segments of up to 80: most segments cover 3 or more teams.
    const auto r = run({"multi-team", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}}, 0, 7});
    KPZ_EXPECT_PASS(r);
    EXPECT_GE(kpz::test::config_int(r, "longest"), 3 * 8 + 2);
    EXPECT_GE(kpz::test::config_int(r, "teams"), 600);
    KPZ_EXPECT_PASS(run({"reduce", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}}, 0, 7}));
    KPZ_EXPECT_PASS(
        run({"reduce", {{"size", 5003}, {"tile", 8}, {"mean-length", 40}, {"int", ints}, {"merge-path", 1}}, 0, 7}));
  }
}

TEST_P(Segscan, HeavyTail) {
  for (const char* v : {"multi-team", "reduce", "spmv"})
    for (int ints : {0, 1}) {
      const auto r = run({v, {{"size", 20011}, {"shape", 1}, {"mean-length", 16}, {"int", ints}, {"tile", 128}}, 0, 9});
      KPZ_EXPECT_PASS(r) << v;
      EXPECT_GE(kpz::test::config_int(r, "longest"), 20 * 16) << v << ": the tail should reach far";
    }
}

TEST_P(Segscan, MergePathEveryShape) {
  for (const char* v : {"reduce", "spmv"})
    for (int shape = 0; shape <= 4; ++shape)
      for (int tile : {0, 3, 64})
        for (int ints : {0, tile == 0 ? 1 : 0})
          KPZ_EXPECT_PASS(run({v,
                               {{"size", tile == 3 ? 301 : 1001},
                                {"shape", shape},
                                {"mean-length", 6},
                                {"tile", tile},
                                {"int", ints},
                                {"merge-path", 1}},
                               0,
                               50u + shape}))
              << v << " shape " << shape << " tile " << tile << " int " << ints;
}

TEST_P(Segscan, MergePathManyChunksOfCarries) {
  // Two items per team and chunks of two carries: over 256 chunks, so the fix-up reads the
  // recursive scan of the chunk aggregates instead of combining them serially.
  for (int shape : {0, 1, 3})
    KPZ_EXPECT_PASS(run({"reduce",
                         {{"size", 4001}, {"shape", shape}, {"mean-length", 9}, {"tile", 2}, {"merge-path", 1}},
                         0,
                         70u + shape}))
        << "shape " << shape;
}

TEST_P(Segscan, DifferentSeedsGiveDifferentInputs) {
  const auto a = run({"reduce", {{"size", 64}}, 0, 1});
  const auto b = run({"reduce", {{"size", 64}}, 0, 2});
  EXPECT_NE(a.inputs.find("values")->dump(), b.inputs.find("values")->dump());
  EXPECT_NE(a.inputs.find("offsets")->dump(), b.inputs.find("offsets")->dump());
  const auto c = run({"reduce", {{"size", 64}}, 0, 1});
  EXPECT_EQ(a.inputs.find("values")->dump(), c.inputs.find("values")->dump());
}

// ---- bad input: UsageError (exit 2) before any launch ----

void expect_usage(const std::function<void()>& f, const std::string& mentions, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": no UsageError";
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << what << ": " << e.what();
  }
}

TEST_P(Segscan, BadSegmentDescriptionsAreRejected) {
  for (const auto& v : kAll) {
    const std::int64_t n = v == "spmv" ? 50 : 200;
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 1}}}); }, "are not monotone", v + " --bad-input 1");
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 2}}}); }, "is past", v + " --bad-input 2");
    expect_usage([&] { run({v, {{"size", n}, {"bad-input", 3}}}); }, "segment ids decrease", v + " --bad-input 3");
  }
  expect_usage([&] { run({"spmv", {{"size", 50}, {"bad-input", 2}}}); }, "CSR row offsets", "spmv names its offsets");
  expect_usage([&] { run({"reduce", {{"size", 1}, {"bad-input", 3}}}); }, "needs at least 2 elements", "N = 1");
}

TEST_P(Segscan, ScratchAndTileLimitsAreRejected) {
  expect_usage([&] { run({"simple", {{"size", 60000}}}); }, "team scratch", "simple, N = 60000");
  expect_usage([&] { run({"work-efficient", {{"size", 60000}}}); }, "team scratch", "work-efficient, N = 60000");
  expect_usage([&] { run({"multi-team", {{"tile", 1}}}); }, "--tile must be at least 2", "tile 1");
  expect_usage([&] { run({"multi-team", {{"tile", 8192}}}); }, "team scratch", "tile 8192");
}

// ---- Kokkos Kernels (optional) ----

TEST_P(Segscan, KokkosKernelsSpmvAgrees) {
  if (!ss::have_kokkos_kernels()) GTEST_SKIP() << "this build has no Kokkos Kernels";
  for (int shape : {0, 1, 2, 4}) {
    const auto r = run({"spmv", {{"size", 2001}, {"shape", shape}}, 0, 61});
    const kpz::Json* kk = r.extra.find("kokkos_kernels");
    ASSERT_NE(kk, nullptr) << "shape " << shape;
    EXPECT_NE(kk->dump().find("\"pass\":true"), std::string::npos) << kk->dump();
    EXPECT_NE(kk->dump().find("SPMV_NATIVE"), std::string::npos);
  }
}

TEST_P(Segscan, WithoutKokkosKernelsSpmvStillRuns) {
  const auto r = run({"spmv", {{"size", 300}}, 0, 62});
  if (reference()) KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.extra.find("kokkos_kernels") != nullptr, ss::have_kokkos_kernels());
}

// ---- large random cases (skipped by the sanitizer runs) ----

TEST_P(Segscan, LargeRandom) {
  KPZ_EXPECT_PASS(run({"multi-team", {{"size", (1 << 21) + 5}, {"mean-length", 100}}, 0, 99}));
  KPZ_EXPECT_PASS(run({"multi-team", {{"size", (1 << 20) + 5}, {"int", 1}, {"shape", 1}}, 0, 98}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 4}}, 0, 97}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 4}, {"merge-path", 1}}, 0, 96}));
  KPZ_EXPECT_PASS(run({"reduce", {{"size", (1 << 21) + 7}, {"mean-length", 1 << 16}, {"merge-path", 1}}, 0, 95}));
  KPZ_EXPECT_PASS(run({"spmv", {{"size", 1 << 17}, {"shape", 1}, {"merge-path", 1}}, 0, 94}));
}

INSTANTIATE_TEST_SUITE_P(Spaces, Segscan, ::testing::ValuesIn(kpz::enabled_space_names()));

}  // namespace

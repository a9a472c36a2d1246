#include <gtest/gtest.h>

#include <cmath>

#include "kpz/check.hpp"
#include "kpz/errors.hpp"

namespace {

TEST(Check, WithinBoundPasses) {
  kpz::RunReport r;
  kpz::compare_within(r, {1.0f, 2.0f}, {1.0, 2.0000001}, {1e-6, 1e-6}, nullptr);
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.checked, 2u);
}

TEST(Check, PoisonNeverPasses) {
  kpz::RunReport r;
  const float nan = kpz::poison_value<float>();
  kpz::compare_within(r, {1.0f, nan, 3.0f}, {1.0, 2.0, 3.0}, {1e30, 1e30, 1e30}, nullptr);
  EXPECT_FALSE(r.pass);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].index, 1u);
  EXPECT_NE(r.mismatches[0].actual.find("never written"), std::string::npos);
}

TEST(Check, ExactIntegersAndOwners) {
  kpz::RunReport r;
  const auto owner = kpz::tile_owner("openmp", 4, 2);
  kpz::compare_exact<int>(r, {0, 1, 2, 3, 4, 9}, {0, 1, 2, 3, 4, 5}, owner);
  EXPECT_FALSE(r.pass);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].owner, "team 1, member 0");             // host: contiguous halves of a tile
  EXPECT_EQ(kpz::tile_owner("cuda", 4, 2)(7), "team 1, member 1");  // GPU: cyclic
}

// The whole verdict in one call: the owner from a tile launch's shape (as tile_owner reads it on
// the request's space), and the arrays kept only when the request asks for them.
TEST(Check, VerdictTakesTheOwnerFromTheLaunchAndKeepsArraysOnRequest) {
  kpz::RunRequest req;
  req.space = "openmp";
  const kpz::LaunchShape launch{.team_size = 2, .tile = 4};
  const std::vector<int> got = {0, 1, 2, 3, 4, 9}, expected = {0, 1, 2, 3, 4, 5}, in = {7, 8};
  kpz::RunReport kept;
  kpz::compare_exact(kept, req, got, expected, launch, "in", in);
  EXPECT_FALSE(kept.pass);
  ASSERT_EQ(kept.mismatches.size(), 1u);
  EXPECT_EQ(kept.mismatches[0].owner, "team 1, member 0");
  EXPECT_EQ(kept.output.dump(), "[0,1,2,3,4,9]");
  EXPECT_EQ(kept.expected.dump(), "[0,1,2,3,4,5]");
  EXPECT_EQ(kept.inputs.dump(), R"({"in":[7,8]})");

  req.space = "cuda";  // a GPU's TeamThreadRange is cyclic
  req.keep_arrays = false;
  kpz::RunReport bare;
  kpz::compare_exact(bare, req, got, expected, launch, "in", in);
  EXPECT_EQ(bare.mismatches.at(0).owner, "team 1, member 1");
  EXPECT_EQ(bare.output.dump(), "[]");
  EXPECT_EQ(bare.inputs.dump(), "{}");

  kpz::RunReport named;  // any other owner: an OwnerFn
  kpz::compare_exact(named, req, got, expected, [](std::size_t i) { return "row " + std::to_string(i); });
  EXPECT_EQ(named.mismatches.at(0).owner, "row 5");
  EXPECT_EQ(named.checked, 6u);
}

TEST(Check, ShortOutputFails) {
  kpz::RunReport r;
  kpz::compare_exact<int>(r, {1}, {1, 2}, nullptr);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches.at(0).actual, "missing");
}

TEST(Check, ReportsAreCapped) {
  kpz::RunReport r;
  std::vector<int> got(100, 0), want(100, 1);
  kpz::compare_exact(r, got, want, nullptr);
  EXPECT_EQ(r.mismatch_count, 100u);
  EXPECT_EQ(r.mismatches.size(), kpz::kMaxReportedMismatches);
}

TEST(Check, SumBoundGrowsWithTerms) {
  EXPECT_LT(kpz::sum_error_bound(1.0, 1), kpz::sum_error_bound(1.0, 100));
  EXPECT_GT(kpz::sum_error_bound(0.0, 3), 0.0);
}

}  // namespace

namespace {

TEST(Check, NonFiniteInputIsAUsageError) {
  EXPECT_NO_THROW(kpz::require_finite({1.0f, -2.5f, 0.0f}, "input"));
  try {
    kpz::require_finite({1.0f, std::nanf(""), 3.0f}, "butterfly input");
    FAIL() << "NaN accepted";
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("butterfly input has nan at index 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kpz::require_finite({INFINITY}, "x"), kpz::UsageError);
}

}  // namespace

// distributed on the ranks of the MPI world this test binary runs in (CTest starts it with 1, 2,
// 3 and 4): the worked examples value for value whatever the split, uneven splits, the usage
// error every rank reaches alike, and one large case. Rank 0 holds the verdict's details; the
// other ranks' reports only say pass or fail.
#include <string>
#include <vector>

#include "distributed/spec.hpp"
#include "kpz/errors.hpp"
#include "kpz/spaces.hpp"
#include "kpz_test.hpp"

namespace {

namespace dd = kpz::distributed;

class Distributed : public kpz::test::PuzzleTest {
 protected:
  Distributed() : PuzzleTest("distributed") {}
};

std::vector<std::int64_t> ints(const kpz::Json& array) {
  std::vector<std::int64_t> v;
  for (const kpz::Json& x : array.items()) v.push_back(x.as_int());
  return v;
}

bool has_note(const kpz::RunReport& r, const std::string& text) {
  for (const std::string& line : r.notes)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// keys {0,0,0,1,1,1,2,2,2,3}, values 0..9: segment sums {3, 12, 21, 9} on any number of ranks.
TEST_P(Distributed, SegmentedScanWorkedExampleOnEveryRankCount) {
  for (const int uneven : {0, 1}) {
    const kpz::RunReport r = run({.variant = "segmented-scan", .options = {{"uneven", uneven}}});
    KPZ_EXPECT_PASS(r);
    if (r.follower) continue;
    EXPECT_EQ(ints(r.output), (std::vector<std::int64_t>{0, 1, 3, 3, 7, 12, 6, 13, 21, 9}));
    EXPECT_TRUE(has_note(r, "segment sums (out at each segment's end): 3 12 21 9")) << r.notes.front();
    EXPECT_EQ(r.config["ranks"].as_int(), dd::world_size());
  }
}

// a = 0..15, b = 0..3: out[i] = sum of (i + j) j over j < 4 with i + j < 16.
TEST_P(Distributed, HaloWorkedExample) {
  const kpz::RunReport r = run({.variant = "halo"});
  KPZ_EXPECT_PASS(r);
  if (r.follower) return;
  std::vector<std::int64_t> want;
  for (int i = 0; i < 16; ++i) {
    int s = 0;
    for (int j = 0; j < 4 && i + j < 16; ++j) s += (i + j) * j;
    want.push_back(s);
  }
  EXPECT_EQ(ints(r.output), want);
}

TEST_P(Distributed, GlobalSumOfOneToHundredOnEveryRank) {
  const kpz::RunReport r = run({.variant = "global-sum"});
  KPZ_EXPECT_PASS(r);
  if (r.follower) return;
  EXPECT_EQ(ints(r.output), std::vector<std::int64_t>(static_cast<std::size_t>(dd::world_size()), 5050));
}

TEST_P(Distributed, UnevenSplitsWithEmptyRanksAndShortSlices) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    KPZ_EXPECT_PASS(
        run({.variant = "halo", .options = {{"size", 11}, {"kernel-size", 7}, {"uneven", 1}}, .seed = seed}));
    KPZ_EXPECT_PASS(run({.variant = "segmented-scan", .options = {{"size", 9}, {"uneven", 1}}, .seed = seed}));
    KPZ_EXPECT_PASS(run({.variant = "global-sum", .options = {{"size", 5}, {"uneven", 1}}, .seed = seed}));
  }
}

// Every rank refuses alike, before any message: none is left waiting in a collective.
TEST_P(Distributed, AnEvenSplitSmallerThanTheWorldIsRefusedOnEveryRank) {
  const int ranks = dd::world_size();
  if (ranks < 2) GTEST_SKIP() << "one rank splits any size";
  for (const char* variant : {"halo", "global-sum", "segmented-scan"})
    EXPECT_THROW(run({.variant = variant, .options = {{"size", ranks - 1}}}), kpz::UsageError) << variant;
  KPZ_EXPECT_PASS(run({.variant = "global-sum", .options = {{"size", 7}}}));  // and the world goes on
}

TEST_P(Distributed, LargeRandomCases) {
  KPZ_EXPECT_PASS(run({.variant = "halo", .options = {{"size", 300001}, {"kernel-size", 33}}, .keep_arrays = false}));
  KPZ_EXPECT_PASS(
      run({.variant = "segmented-scan", .options = {{"size", 200003}, {"uneven", 1}}, .keep_arrays = false}));
  KPZ_EXPECT_PASS(run({.variant = "global-sum", .options = {{"size", 1000003}}, .keep_arrays = false}));
}

INSTANTIATE_TEST_SUITE_P(Spaces, Distributed, ::testing::ValuesIn(kpz::enabled_space_names()));

}  // namespace

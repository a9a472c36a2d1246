// distributed's host helpers, without MPI: the partitions (even, seeded uneven cuts) and the
// halo plan (who sends which global range to whom), checked against a brute-force reading of
// the same rule: rank r needs a[end_r, min(end_r + K - 1, N)) when its slice is not empty.
#include <string>
#include <vector>

#include "distributed/spec.hpp"
#include "kpz/errors.hpp"
#include "kpz_test.hpp"

namespace {

namespace dd = kpz::distributed;

void expect_cover(const dd::Partition& p, std::int64_t n, int ranks) {
  ASSERT_EQ(p.ranks(), ranks);
  EXPECT_EQ(p.first(0), 0);
  EXPECT_EQ(p.size(), n);
  for (int r = 0; r < ranks; ++r) EXPECT_GE(p.count(r), 0) << "rank " << r;
  for (std::int64_t i = 0; i < n; ++i) {
    const int r = p.owner(i);
    EXPECT_TRUE(p.first(r) <= i && i < p.first(r) + p.count(r)) << "element " << i << " owner " << r;
  }
}

TEST(DistributedPartition, EvenSlicesDifferByAtMostOne) {
  const dd::Partition p = dd::even_partition(10, 4);
  EXPECT_EQ(p.offsets, (std::vector<std::int64_t>{0, 3, 6, 8, 10}));
  expect_cover(p, 10, 4);
  expect_cover(dd::even_partition(1, 1), 1, 1);
}

TEST(DistributedPartition, UnevenCutsAreSeededAndMayLeaveRanksEmpty) {
  bool some_empty = false, some_differ = false;
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    const dd::Partition p = dd::uneven_partition(12, 4, seed);
    expect_cover(p, 12, 4);
    EXPECT_EQ(p.offsets, dd::uneven_partition(12, 4, seed).offsets);
    for (int r = 0; r < 4; ++r) some_empty |= p.count(r) == 0;
    some_differ |= p.offsets != dd::uneven_partition(12, 4, seed + 1).offsets;
  }
  EXPECT_TRUE(some_empty);
  EXPECT_TRUE(some_differ);
}

TEST(DistributedPartition, AnEvenSplitNeedsAnElementPerRank) {
  EXPECT_THROW(dd::checked_partition(2, 3, false, 2026), kpz::UsageError);
  EXPECT_NO_THROW(dd::checked_partition(2, 3, true, 2026));
  try {
    dd::checked_partition(2, 3, false, 2026);
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--uneven 1"), std::string::npos) << e.what();
  }
}

// Every element rank r needs is received exactly once, from its owner, at its place; every send
// matches a receive of the peer.
void expect_plan_consistent(const dd::Partition& p, int taps) {
  const std::int64_t n = p.size();
  for (int r = 0; r < p.ranks(); ++r) {
    const dd::HaloPlan plan = dd::halo_plan(p, r, taps);
    const std::int64_t end = p.first(r) + p.count(r);
    const std::int64_t want = p.count(r) == 0 ? 0 : std::min<std::int64_t>(taps - 1, n - end);
    EXPECT_EQ(plan.halo, want) << "rank " << r;
    std::vector<int> got(static_cast<std::size_t>(plan.halo), 0);
    for (const dd::HaloPiece& piece : plan.receives) {
      EXPECT_GT(piece.peer, r);
      for (std::int64_t k = 0; k < piece.count; ++k) {
        EXPECT_EQ(p.owner(piece.first + k), piece.peer);
        EXPECT_EQ(end + piece.offset + k, piece.first + k);
        ++got[static_cast<std::size_t>(piece.offset + k)];
      }
      const dd::HaloPlan theirs = dd::halo_plan(p, piece.peer, taps);
      int matches = 0;
      for (const dd::HaloPiece& s : theirs.sends)
        matches += s.peer == r && s.first == piece.first && s.count == piece.count &&
                   s.offset == piece.first - p.first(piece.peer);
      EXPECT_EQ(matches, 1) << "rank " << piece.peer << " sends rank " << r << " its piece once";
    }
    for (const int c : got) EXPECT_EQ(c, 1) << "rank " << r;
    EXPECT_EQ(plan.interior(), plan.halo == 0 ? p.count(r) : std::max<std::int64_t>(0, p.count(r) - taps + 1));
  }
}

TEST(DistributedHaloPlan, AHaloLongerThanASliceSpansSeveralRanks) {
  const dd::Partition p = dd::even_partition(12, 4);  // slices of 3
  const dd::HaloPlan plan = dd::halo_plan(p, 0, 9);   // needs a[3, 11)
  ASSERT_EQ(plan.receives.size(), 3u);
  EXPECT_EQ(plan.receives[0].peer, 1);
  EXPECT_EQ(plan.receives[2].first, 9);
  EXPECT_EQ(plan.receives[2].count, 2);
  EXPECT_EQ(plan.receives[2].offset, 6);
  EXPECT_EQ(plan.interior(), 0);
  EXPECT_TRUE(dd::halo_plan(p, 3, 9).receives.empty());  // the last rank: nothing past N
  expect_plan_consistent(p, 9);
}

TEST(DistributedHaloPlan, EveryPartitionAndFilterLength) {
  for (const int ranks : {1, 2, 3, 4, 7})
    for (const std::int64_t n : {1, 2, 5, 13, 40})
      for (const int taps : {1, 2, 4, 17, 60})
        for (std::uint64_t seed = 0; seed < 6; ++seed) {
          if (seed == 0 && n < ranks) continue;
          expect_plan_consistent(seed == 0 ? dd::even_partition(n, ranks) : dd::uneven_partition(n, ranks, seed), taps);
        }
}

}  // namespace

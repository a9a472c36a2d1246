// segscan --vector-scan: the segmented reduction written with Kokkos' vector-level parallel_scan
// and the segmented operator as a reducer (kpz::segscan::SegReducer). Edge cases (N = 1, empty
// segments, one segment of everything, segments longer than a row, a tile and a team), many
// tiles, several team sizes AND vector lengths, floats and integers, seeded random inputs on
// poisoned outputs (run_reduce poisons the sums before the launch).
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"
#include "kpz_test.hpp"
#include "segscan/launch.hpp"
#include "segscan/segscan.hpp"

namespace {

using kpz::test::Case;
namespace ss = kpz::segscan;

class VectorScan : public ::testing::TestWithParam<std::string> {
 protected:
  kpz::RunReport run(Case c, int vector_length = 0) {
    c.vector_length = vector_length;
    return kpz::test::run_case("segscan", GetParam(), c);
  }
};

// The reducer's join is only called on CUDA, where dest is the later range and src the earlier
// one: check the order on the host, since no host scan would notice a swapped join.
TEST(VectorScanReducer, JoinPutsSourceBeforeDestination) {
  ss::SegPair<int> result{};
  const ss::SegReducer<int> r(result);
  ss::SegPair<int> id{7, 1};
  r.init(id);
  EXPECT_EQ(id.value, 0);
  EXPECT_EQ(id.flag, 0);
  ss::SegPair<int> later{5, 0};
  r.join(later, ss::SegPair<int>{3, 1});  // earlier (3, head) then (5, no head): 8 with a head
  EXPECT_EQ(later.value, 8);
  EXPECT_EQ(later.flag, 1);
  ss::SegPair<int> later_head{5, 1};
  r.join(later_head, ss::SegPair<int>{3, 0});  // a head in the later range drops the earlier sum
  EXPECT_EQ(later_head.value, 5);
  EXPECT_EQ(later_head.flag, 1);
  ss::SegPair<int> x{4, 1};
  r.join(x, id);  // the identity on either side
  EXPECT_EQ(x.value, 4);
  ss::SegPair<int> y = id;
  r.join(y, ss::SegPair<int>{4, 1});
  EXPECT_EQ(y.value, 4);
  EXPECT_EQ(y.flag, 1);
}

TEST_P(VectorScan, SizeOne) {
  for (int ints : {0, 1})
    for (int shape : {0, 3})
      KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 1}, {"int", ints}, {"shape", shape}, {"mean-length", 1}}, 0, 3}))
          << "int=" << ints << " shape=" << shape;
}

TEST_P(VectorScan, EmptySegments) {
  // Shape 4: the first and the last segment are empty, and empty ones follow every other.
  for (int tile : {16, 300, 0})
    for (int ints : {0, 1}) {
      const auto r = run(
          {"vector-scan", {{"size", 2999}, {"shape", 4}, {"mean-length", 5}, {"int", ints}, {"tile", tile}}, 0, 11});
      KPZ_EXPECT_PASS(r) << "tile " << tile << " int " << ints;
      const std::string out = r.output.dump();
      EXPECT_EQ(out.substr(0, 3), "[0,") << "the first segment is empty";
      EXPECT_EQ(out.substr(out.size() - 3), ",0]") << "the last segment is empty";
    }
}

TEST_P(VectorScan, OneSegmentOfEverything) {
  for (int tile : {128, 256, 1000})
    for (int ints : {0, 1}) {
      const auto r = run({"vector-scan", {{"size", 10007}, {"shape", 3}, {"int", ints}, {"tile", tile}}, 0, 2});
      KPZ_EXPECT_PASS(r) << "tile " << tile;
      EXPECT_GE(kpz::test::config_int(r, "teams"), 10);
    }
}

TEST_P(VectorScan, AllSegmentsOfLengthOne) {
  for (int ints : {0, 1})
    KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 1025}, {"shape", 2}, {"int", ints}, {"tile", 64}}, 0, 4}));
}

TEST_P(VectorScan, SegmentsCrossRowsTilesAndTeams) {
  // Rows of kVectorScanRow (2048), tiles of 5200 (three rows, the last one short), segments of
  // up to 16000: most cross several rows and several teams; the tiles' carries run through many
  // tiles. With 32 lanes a lane's chunk is kRegisterChunk (64): the register walk, from Quads.
  static_assert(kpz::segscan::kVectorScanRow == 2048, "this test's tile cuts rows as described");
  static_assert(kpz::segscan::kVectorScanRow / 32 == kpz::segscan::kRegisterChunk, "32 lanes walk from registers");
  for (const int vl : kpz::test::vector_lengths(GetParam(), {1, 32}))
    for (int ints : {0, 1}) {
      const auto r = run(
          {"vector-scan", {{"size", 540007}, {"tile", 5200}, {"mean-length", 8000}, {"int", ints}}, 0, 7u + vl}, vl);
      KPZ_EXPECT_PASS(r) << "vector length " << vl;
      EXPECT_GE(kpz::test::config_int(r, "longest"), 2 * 5200 + 2);
      EXPECT_GE(kpz::test::config_int(r, "teams"), 100);
    }
  // Tiny tiles: thousands of tiles, the carries' scan over many of Kokkos' blocks or threads.
  KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 40000}, {"tile", 4}, {"mean-length", 50}, {"shape", 1}}, 0, 8}));
  KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 30000}, {"tile", 1}, {"mean-length", 3}, {"int", 1}}, 0, 9}));
}

TEST_P(VectorScan, SizesNotAMultipleOfTheTileOrRow) {
  // Around a register batch (16), a GPU lane's chunk (64, or 16 in rows of 512), a Quad (4), a
  // row (2048 or 512) and a tile; segments of 6 (rows of 512) and of 40 (rows of 2048); one lane
  // (a CPU's walk) and 32 (a GPU's: from registers, from Quads only where a tile starts on a
  // multiple of 4).
  for (const int vl : kpz::test::vector_lengths(GetParam(), {1, 32}))
    for (const int mean : {6, 40})
      for (int tile : {15, 17, 63, 65, 511, 513, 1000, 2047, 2049})
        for (int n : {tile - 1, tile + 1, 3 * tile + 5}) {
          if (n < 1) continue;
          const auto r =
              run({"vector-scan", {{"size", n}, {"tile", tile}, {"mean-length", mean}}, 0, 13u + n + mean}, vl);
          KPZ_EXPECT_PASS(r) << "N=" << n << " tile=" << tile << " mean length " << mean << " vector length " << vl;
          // Both rows run: a few dozen elements already make the mean decide.
          if (n >= 64)
            EXPECT_EQ(kpz::test::config_int(r, "row"),
                      mean == 6 ? kpz::segscan::kShortSegmentRow : kpz::segscan::kVectorScanRow)
                << "N=" << n << " mean length " << mean;
        }
}

TEST_P(VectorScan, RowsGivenByTheOption) {
  // --row: many short rows per tile (the race check's configuration: rows of 4), rows of two,
  // rows that do not divide the tile, and rows longer than the tile.
  for (const int vl : kpz::test::vector_lengths(GetParam(), {1, 4, 32}))
    for (const int row : {2, 4, 7, 5000})
      for (const int mean : {3, 40}) {
        const auto r = run(
            {"vector-scan", {{"size", 3001}, {"tile", 32}, {"row", row}, {"mean-length", mean}}, 0, 21u + row + mean},
            vl);
        KPZ_EXPECT_PASS(r) << "row " << row << " mean length " << mean << " vector length " << vl;
        EXPECT_EQ(kpz::test::config_int(r, "row"), row);
      }
}

TEST(VectorScanRow, ShortSegmentsGetShortRows) {
  namespace ss = kpz::segscan;
  EXPECT_EQ(ss::vector_scan_row(100, 20), ss::kShortSegmentRow);  // a mean of 5
  EXPECT_EQ(ss::vector_scan_row(799, 100), ss::kShortSegmentRow);
  EXPECT_EQ(ss::vector_scan_row(800, 100), ss::kVectorScanRow);  // a mean of 8
  EXPECT_EQ(ss::vector_scan_row(std::int64_t{1} << 30, 1), ss::kVectorScanRow);
  EXPECT_EQ(ss::vector_scan_row(0, 0), ss::kVectorScanRow);    // no segments
  EXPECT_EQ(ss::vector_scan_row(0, 5), ss::kShortSegmentRow);  // only empty segments
}

TEST_P(VectorScan, HeavyTailAndDefaults) {
  for (int ints : {0, 1}) {
    const auto r =
        run({"vector-scan", {{"size", 20011}, {"shape", 1}, {"mean-length", 16}, {"int", ints}, {"tile", 256}}, 0, 9});
    KPZ_EXPECT_PASS(r);
    EXPECT_GE(kpz::test::config_int(r, "longest"), 20 * 16) << "the tail should reach far";
  }
  const auto r = run({"vector-scan", {}});  // the defaults: 2^20 + 3 values, the shape's tile
  KPZ_EXPECT_PASS(r);
  EXPECT_GE(kpz::test::config_int(r, "teams"), 3);
  EXPECT_GE(kpz::test::config_int(r, "tile"), 1024);
}

TEST_P(VectorScan, TeamSizesAndVectorLengthsDoNotChangeResults) {
  for (const int team : kpz::test::team_sizes(GetParam()))
    for (const int vl : kpz::test::vector_lengths(GetParam())) {
      if (!kpz::test::shape_fits(GetParam(), team, vl)) continue;
      const auto r = run({"vector-scan", {{"size", 9001}, {"tile", 512}, {"mean-length", 300}}, team, 31}, vl);
      KPZ_EXPECT_PASS(r) << "team " << team << " vector length " << vl;
      EXPECT_EQ(kpz::test::config_int(r, "team_size"), team);
      EXPECT_EQ(kpz::test::config_int(r, "vector_length"), vl);
      KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 3001}, {"tile", 200}, {"shape", 4}, {"int", 1}}, team, 32}, vl))
          << "empty segments, team " << team << " vector length " << vl;
      KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 5001}, {"tile", 300}, {"shape", 3}}, team, 33}, vl))
          << "one segment, team " << team << " vector length " << vl;
    }
}

TEST_P(VectorScan, SeedsAndIntegersAreExact) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto r = run({"vector-scan", {{"size", 4099}, {"tile", 1024}, {"mean-length", 40}, {"int", 1}}, 0, seed});
    KPZ_EXPECT_PASS(r) << "seed " << seed;
  }
}

// Past kMaxCarryTiles tiles the carries go through chunks of tiles (scan_tile_carries): the
// tiles of a chunk folded in order, one scan of the chunks, the chunks walked from their carry-in.
// On every backend; CUDA is where the limit comes from (a single scan of 2^22 tiles was wrong there).
TEST_P(VectorScan, CarriesOfMoreTilesThanOneScanTakes) {
  const std::int64_t most = kpz::segscan::kMaxCarryTiles;
  for (const std::int64_t tiles : {most, most + 1, 2 * most + 3, 5 * most})
    for (const int ints : {1, 0}) {
      // Segments of about 40 values, tiles of 2: carries run through about 20 tiles, across chunks.
      const auto r = run({"vector-scan", {{"size", 2 * tiles - 1}, {"tile", 2}, {"mean-length", 40}, {"int", ints}}});
      KPZ_EXPECT_PASS(r) << tiles << " tiles of 2, int " << ints;
    }
  // Long segments: one carry crosses many chunks.
  KPZ_EXPECT_PASS(run({"vector-scan", {{"size", 6 * most}, {"tile", 2}, {"shape", 3}, {"int", 1}}}));
}

TEST_P(VectorScan, BadRequestsAreRejected) {
  EXPECT_THROW(run({"vector-scan", {{"size", 100}}}, 3), kpz::UsageError);  // not a power of two
  EXPECT_THROW(run({"vector-scan", {{"size", 100}, {"bad-input", 1}}}), kpz::UsageError);
  EXPECT_THROW(run({"vector-scan", {{"size", 100}}, 100000}), kpz::UsageError);  // team too large
}

INSTANTIATE_TEST_SUITE_P(Spaces, VectorScan, ::testing::ValuesIn(kpz::enabled_space_names()));

}  // namespace

// kpz::segscan::segments: conversions between segment ids, head flags and CSR offsets, their validation
// (one-line UsageErrors), and the seeded generators.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "kpz/errors.hpp"
#include "segscan/spec.hpp"

namespace {

namespace seg = kpz::segscan::segments;
using Offsets = seg::Offsets;

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const kpz::UsageError& e) {
    return e.what();
  }
  return "no UsageError";
}

TEST(Segments, WorkedExampleConversions) {
  const std::vector<std::int64_t> ids{0, 0, 0, 1, 1, 2, 2, 2, 2, 3};
  const Offsets offsets = seg::offsets_from_ids(ids);
  EXPECT_EQ(offsets, (Offsets{0, 3, 5, 9, 10}));
  const auto flags = seg::flags_from_offsets(offsets, 10);
  EXPECT_EQ(flags, (std::vector<std::uint8_t>{1, 0, 0, 1, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(seg::offsets_from_flags(flags), offsets);
  EXPECT_EQ(seg::ids_from_offsets(offsets, 10), ids);
  EXPECT_EQ(seg::count(offsets), 4);
  EXPECT_EQ(seg::longest(offsets), 4);
}

TEST(Segments, EmptySegmentsFromIds) {
  // Ids that skip a value leave empty segments; trailing ones can be declared.
  EXPECT_EQ(seg::offsets_from_ids({0, 0, 2}), (Offsets{0, 2, 2, 3}));
  EXPECT_EQ(seg::offsets_from_ids({1, 1}), (Offsets{0, 0, 2}));
  EXPECT_EQ(seg::offsets_from_ids({0, 1}, 4), (Offsets{0, 1, 2, 2, 2}));
  EXPECT_EQ(seg::offsets_from_ids({}, 2), (Offsets{0, 0, 0}));
  // Flags cannot say "empty": converting back keeps only the non-empty segments.
  const auto flags = seg::flags_from_offsets({0, 0, 2, 2, 3}, 3);
  EXPECT_EQ(flags, (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(seg::offsets_from_flags(flags), (Offsets{0, 2, 3}));
}

TEST(Segments, FlagsAlwaysStartAtZero) {
  EXPECT_EQ(seg::offsets_from_flags({0, 0, 1}), (Offsets{0, 2, 3}));
  EXPECT_EQ(seg::offsets_from_flags({1}), (Offsets{0, 1}));
  EXPECT_EQ(seg::offsets_from_flags({}), (Offsets{0}));
}

TEST(Segments, RoundTripsOnRandomSegments) {
  kpz::Rng rng(5);
  for (int rep = 0; rep < 20; ++rep) {
    const std::int64_t n = rng.integer(1, 500);
    const Offsets o = seg::random_offsets(rng, n, rng.integer(1, 20));
    seg::validate_offsets(o, n);
    EXPECT_EQ(seg::offsets_from_ids(seg::ids_from_offsets(o, n), seg::count(o)), o);
  }
}

TEST(Segments, ValidationMessages) {
  EXPECT_NE(usage_message([] {
              seg::validate_offsets({0, 3, 2, 5}, 5);
            }).find("are not monotone: offsets[2] = 2 is less than offsets[1] = 3"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              seg::validate_offsets({0, 3, 7}, 5);
            }).find("offsets[2] = 7 is past N = 5"),
            std::string::npos);
  EXPECT_NE(usage_message([] { seg::validate_offsets({1, 5}, 5); }).find("start at offsets[0] = 1"), std::string::npos);
  EXPECT_NE(usage_message([] {
              seg::validate_offsets({0, 4}, 5);
            }).find("end at offsets[1] = 4, not at N = 5"),
            std::string::npos);
  EXPECT_NE(usage_message([] { seg::validate_offsets({}, 5); }).find("are empty"), std::string::npos);
  EXPECT_NE(usage_message([] { seg::validate_offsets({0, -1, 5}, 5); }).find("is negative"), std::string::npos);
  EXPECT_NE(usage_message([] {
              seg::validate_offsets({0, 9}, 8, "CSR row offsets", "nnz");
            }).find("CSR row offsets: offsets[1] = 9 is past nnz = 8"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              seg::offsets_from_ids({0, 2, 1});
            }).find("segment ids decrease: ids[2] = 1 is less than ids[1] = 2"),
            std::string::npos);
  EXPECT_NE(usage_message([] { seg::offsets_from_ids({0, -1}); }).find("is negative"), std::string::npos);
  EXPECT_NE(usage_message([] { seg::offsets_from_ids({0, 3}, 2); }).find("only 2 segments"), std::string::npos);
  EXPECT_EQ(usage_message([] { seg::validate_offsets({0, 0, 5, 5}, 5); }), "no UsageError");
  EXPECT_EQ(usage_message([] { seg::validate_offsets({0}, 0); }), "no UsageError");
  // Every message is one line and says what is allowed.
  const std::string m = usage_message([] { seg::validate_offsets({0, 3, 2, 5}, 5); });
  EXPECT_EQ(m.find('\n'), std::string::npos);
  EXPECT_NE(m.find("must start at 0, never decrease and end at N = 5"), std::string::npos) << m;
}

TEST(Segments, RandomLengthsStayInRange) {
  kpz::Rng rng(11);
  const Offsets o = seg::random_offsets(rng, 100000, 8);
  seg::validate_offsets(o, 100000);
  std::int64_t empty = 0;
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    EXPECT_LE(o[s + 1] - o[s], 16);
    empty += o[s + 1] == o[s];
  }
  EXPECT_GT(empty, 0) << "lengths 0..2L include 0";
  const double mean = 100000.0 / static_cast<double>(seg::count(o));
  EXPECT_NEAR(mean, 8.0, 0.5);
}

TEST(Segments, GeneratorsAreSeeded) {
  kpz::Rng a(3), b(3), c(4);
  EXPECT_EQ(seg::random_offsets(a, 1000, 5), seg::random_offsets(b, 1000, 5));
  EXPECT_NE(seg::random_offsets(a, 1000, 5), seg::random_offsets(c, 1000, 5));
}

TEST(Segments, HeavyTailHasLongAndEmptySegments) {
  kpz::Rng rng(13);
  const Offsets o = seg::heavy_tail_offsets(rng, 1 << 20, 16);
  seg::validate_offsets(o, 1 << 20);
  std::int64_t empty = 0;
  for (std::size_t s = 0; s + 1 < o.size(); ++s) empty += o[s + 1] == o[s];
  EXPECT_GT(empty, seg::count(o) / 8);
  EXPECT_GT(seg::longest(o), 100 * 16) << "a heavy tail reaches far past the mean";
}

TEST(Segments, ShapesForEdgeCases) {
  EXPECT_EQ(seg::unit_offsets(3), (Offsets{0, 1, 2, 3}));
  EXPECT_EQ(seg::single_offsets(7), (Offsets{0, 7}));
  kpz::Rng rng(17);
  const Offsets g = seg::gappy_offsets(rng, 1000, 4);
  seg::validate_offsets(g, 1000);
  EXPECT_EQ(g[0], g[1]) << "first segment empty";
  EXPECT_EQ(g[g.size() - 2], g.back()) << "last segment empty";
  for (std::size_t s = 0; s + 2 < g.size(); ++s)
    EXPECT_FALSE(g[s + 1] > g[s] && g[s + 2] > g[s + 1]) << "an empty segment follows every non-empty one";
  EXPECT_THROW(seg::random_offsets(rng, 10, 0), kpz::UsageError);
  // The generators speak of values; segscan's runner names the flag (--mean-length).
  EXPECT_EQ(usage_message([&] { seg::heavy_tail_offsets(rng, 10, 0); }), "mean segment length must be >= 1, got 0");
}

}  // namespace

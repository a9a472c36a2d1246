// bin-extract --one-read (one_read_extract): the selection of --extract reading the input once.
// Seeded asymmetric inputs against the host oracle: edge cases (one element, empty and full
// bins, a last tile of a few elements, one chunk of many tiles, chunks of one tile, chunk counts
// that do not divide the tiles), every team size and vector length, the chunk offsets the kernel
// leaves behind when called as the benchmark calls it, and the shape rules.
#include <map>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"
#include "selection_checks.hpp"

namespace {

namespace be = kpz::bin_extract;

class OneRead : public ::testing::TestWithParam<std::string> {
 protected:
  kpz::RunReport run(std::map<std::string, std::int64_t> options, int team_size = 0, int vector_length = 0,
                     std::uint64_t seed = 2026) {
    return kpz::test::run_case("bin-extract", GetParam(), {"one-read", options, team_size, seed, vector_length});
  }
};

using kpz::test::count_of;
using kpz::test::oracle_count;

// Whether teams of `team` members fit the backend's level-0 scratch (one mask buffer per member).
bool scratch_fits(const std::string& space, int team) {
  return kpz::with_space(space, [&](const auto& s) {
    using Space = std::decay_t<decltype(s)>;
    return static_cast<std::size_t>(team) * be::one_read_scratch_bytes<Space>() <= kpz::scratch_size_max<Space>(0);
  });
}

TEST_P(OneRead, EdgeCases) {
  struct C {
    int n, bins, target, chunks, pattern;
  };
  for (const C c : {C{1, 8, 3, 0, be::kOneBin},           // one element, selected
                    C{1, 8, 3, 0, be::kOutside},          // one element, not selected
                    C{1000, 8, 3, 0, be::kOutside},       // an empty bin
                    C{1000, 8, 0, 2, be::kOutside},       // negatives clamp into bin 0
                    C{1000, 8, 7, 3, be::kOutside},       // 1.0 and larger into the last bin
                    C{1000, 8, 5, 1, be::kOneBin},        // every element selected, one chunk
                    C{999, 8, 2, 4, be::kEdges},          // 0.25 = 2/8 is in bin 2, a chunk per tile
                    C{5003, 10, 3, 7, be::kMixed},        // NUM_BINS not a power of two
                    C{5003, 1, 0, 5, be::kMixed},         // one bin: everything
                    C{257, 8, 3, 2, be::kMixed},          // a last tile of one element
                    C{256, 8, 3, 9, be::kMixed},          // exactly one tile, more chunks asked
                    C{20000, 8, 3, 1000, be::kMixed},     // chunks of zero or one tile
                    C{65537, 8, 3, 3, be::kDescending}})  // long chunks, stable order
  {
    const std::uint64_t seed = 500u + c.n + c.chunks;
    const auto r = run(
        {{"size", c.n}, {"num-bins", c.bins}, {"target-bin", c.target}, {"chunks", c.chunks}, {"pattern", c.pattern}},
        0, 0, seed);
    KPZ_EXPECT_PASS(r) << " N=" << c.n << " bins=" << c.bins << " target=" << c.target << " chunks=" << c.chunks
                       << " pattern=" << c.pattern;
    EXPECT_EQ(count_of(r), static_cast<long long>(oracle_count(c.n, c.bins, c.target, c.pattern, seed)));
  }
}

// Teams of every size the backend allows, members of 1 to 32 lanes (fewer lanes than runs: a lane
// takes several), several chunk counts (fewer than a team's members too): the result must not
// depend on the shape. Teams whose members' masks do not fit the scratch are refused (exit 2).
TEST_P(OneRead, EveryTeamSizeVectorLengthAndChunkCount) {
  for (const int team : kpz::test::team_sizes(GetParam()))
    for (const int lanes : {1, 2, 4, 8, 32})
      for (const int chunks : {1, 3, 16}) {
        if (!kpz::test::shape_fits(GetParam(), team, lanes)) continue;
        if (!scratch_fits(GetParam(), team)) {
          EXPECT_THROW(run({{"size", 10007}, {"chunks", chunks}}, team, lanes), kpz::UsageError)
              << "team size " << team;
          continue;
        }
        const auto r =
            run({{"size", 10007}, {"chunks", chunks}, {"pattern", be::kMixed}}, team, lanes, 70u + team + lanes);
        KPZ_EXPECT_PASS(r) << " team size " << team << ", vector length " << lanes << ", chunks " << chunks;
        EXPECT_NE(r.config.dump().find("\"vector_length\":" + std::to_string(lanes)), std::string::npos)
            << r.config.dump();
      }
}

// The kernel called directly, as the benchmark does, at the check and the speed shapes: the
// entries it leaves in chunk_offsets are the exclusive scan of the chunks' counts and the last
// entry is the total; twice on the same views (poisoned in between); nothing written past the
// selection.
TEST_P(OneRead, LeavesTheChunkOffsetsAtTheCheckAndSpeedShapes) {
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const int bins = 8, target = 3;
    for (const kpz::Purpose purpose : {kpz::Purpose::check, kpz::Purpose::speed})
      for (const std::size_t n : {std::size_t{100003}, std::size_t{3 * be::kOneReadTile + 5}}) {
        const kpz::LaunchShape shape = be::one_read_shape(space, {}, purpose);
        const int chunks = be::one_read_chunks(space, static_cast<long>(n), purpose == kpz::Purpose::check ? 7 : 0);
        const auto host = be::make_input(n, bins, target, be::kMixed, 99);
        auto in = kpz::to_device(space, "in", host);
        const std::string what =
            shape.to_json().dump() + " chunks " + std::to_string(chunks) + " N " + std::to_string(n);
        const long tiles = be::one_read_tiles(static_cast<long>(n));
        std::vector<int> want_offsets(chunks + 1, 0);
        std::vector<float> want;
        for (std::size_t i = 0; i < n; ++i)
          if (be::bin_of(host[i], bins) == target) {
            want.push_back(host[i]);
            int c = 0;  // the chunk that holds element i's tile
            while (c + 1 < chunks && be::chunk_begin(tiles, chunks, c + 1) <= static_cast<long>(i) / be::kOneReadTile)
              ++c;
            ++want_offsets[c + 1];
          }
        for (int c = 0; c < chunks; ++c) want_offsets[c + 1] += want_offsets[c];
        kpz::View<int*, Space> offsets("chunk_offsets", chunks + 1);
        kpz::View<float*, Space> staging("staging", n), out("out", n);
        for (int call = 1; call <= 2; ++call) {
          kpz::poison(out);
          kpz::poison(staging);
          Kokkos::deep_copy(offsets, 0);
          (kpz::test::impl_under_test() == kpz::Impl::reference
               ? be::reference::one_read_extract<Space>
               : be::exercise::one_read_extract<Space>)(space, shape, chunks, bins, target,
                                                        kpz::View<const float*, Space>(in), staging, offsets, out);
          space.fence();
          kpz::test::expect_packed_selection(kpz::to_host(offsets), want_offsets, kpz::to_host(out), want,
                                             what + " call " + std::to_string(call));
        }
      }
  });
}

TEST_P(OneRead, ShapesAndUsageErrors) {
  const auto r = run({{"size", 1000}});
  for (const char* key : {"\"team_size\":", "\"vector_length\":", "\"tile\":256", "\"chunks\":"})
    EXPECT_NE(r.config.dump().find(key), std::string::npos) << key << " in " << r.config.dump();
  KPZ_EXPECT_PASS(run({{"size", 3000}, {"chunks", 5}}, 1));   // teams of one member
  EXPECT_THROW(run({{"size", 100}}, 0, 3), kpz::UsageError);  // not a power of two
  EXPECT_THROW(run({{"num-bins", 4}, {"target-bin", 4}}), kpz::UsageError);
  EXPECT_THROW(run({{"size", 100}, {"pattern", be::kWithNan}}), kpz::UsageError);
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    const kpz::LaunchShape speed = be::one_read_shape(space, {}, kpz::Purpose::speed);
    EXPECT_EQ(speed.tile, be::kOneReadTile);
    if (kpz::is_gpu_v<Space>) {
      EXPECT_EQ(speed.vector_length, be::kOneReadRuns);  // a member is a warp
      EXPECT_EQ(speed.team_size, 8);
    } else {
      EXPECT_EQ(speed.team_size, 1);  // Kokkos' recommendation on a CPU: one thread per team
    }
    EXPECT_EQ(be::one_read_chunks(space, 1, 0), 1);  // never more chunks than tiles
    EXPECT_EQ(be::one_read_chunks(space, 100L * be::kOneReadTile, 7), 7);
    EXPECT_LE(be::one_read_scratch_bytes<Space>(), kpz::scratch_size_max<Space>(0));
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, OneRead, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

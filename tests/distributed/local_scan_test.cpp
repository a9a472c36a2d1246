// distributed's given rank-local segmented scan (local_segmented_scan), without MPI, checked
// element by element against a sequential scan, with the slice's summary and first head, on
// slices without a head, with a head only at either end, and random ones. The sizes reach
// 2^22: Kokkos' CUDA scan accumulates a block's elements in a strided order once a block has
// more of them than threads, which a scan whose join is not commutative gets wrong there. The
// scan works in tiles (fast/local_scan.hpp): sizes around a tile check the carries between them, and
// teams of several members on a CPU take the path a GPU takes (the tile staged in scratch).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "distributed/distributed.hpp"
#include "kpz/random.hpp"
#include "kpz_test.hpp"

namespace {

namespace dd = kpz::distributed;
using Space = Kokkos::DefaultExecutionSpace;

template <class T>
kpz::View<T*, Space> on_device(const std::vector<T>& host, const std::string& label) {
  kpz::View<T*, Space> v(label, host.size());
  const auto mirror = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(v, mirror);
  return v;
}

void expect_scan(const std::vector<std::int64_t>& values, const std::vector<std::uint8_t>& heads,
                 const std::string& what, const dd::LocalScanShape shape = dd::local_scan_shape<Space>()) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  kpz::View<std::int64_t*, Space> out("out", values.size());
  Kokkos::deep_copy(out, std::int64_t{-777});  // poisoned: an element never written fails
  const dd::LocalScan got =
      dd::local_segmented_scan(Space(), kpz::View<const std::int64_t*, Space>(on_device(values, "values")),
                               kpz::View<const std::uint8_t*, Space>(on_device(heads, "heads")), out, shape);
  const auto out_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::int64_t sum = 0, first_head = n;
  bool any_head = false;
  for (std::int64_t i = 0; i < n; ++i) {
    if (heads[i]) {
      sum = 0;
      if (!any_head) first_head = i;
      any_head = true;
    }
    sum += values[i];
    ASSERT_EQ(out_host(i), sum) << what << ": element " << i << " of " << n;
  }
  EXPECT_EQ(got.total.value, sum) << what;
  EXPECT_EQ(got.total.flag, any_head ? 1 : 0) << what;
  EXPECT_EQ(got.first_head, first_head) << what;
}

TEST(DistributedLocalScan, EverySlicePatternMatchesASequentialScan) {
  kpz::Rng rng(77);
  for (const std::int64_t n : {1, 2, 3, 7, 64, 1000, 100003, 1 << 22}) {
    std::vector<std::int64_t> values(n);
    for (auto& v : values) v = rng.integer(-5, 20);
    const auto pattern = [&](auto head_at) {
      std::vector<std::uint8_t> heads(n);
      for (std::int64_t i = 0; i < n; ++i) heads[i] = head_at(i) ? 1 : 0;
      return heads;
    };
    const std::string size = "n = " + std::to_string(n);
    expect_scan(values, pattern([](std::int64_t) { return false; }), size + ", no head");
    expect_scan(values, pattern([](std::int64_t i) { return i == 0; }), size + ", a head at 0 only");
    expect_scan(values, pattern([&](std::int64_t i) { return i == n - 1; }), size + ", a head at the end only");
    expect_scan(values, pattern([&](std::int64_t) { return rng.integer(0, 5) == 0; }), size + ", random heads");
    expect_scan(values, pattern([&](std::int64_t) { return rng.integer(0, 999) == 0; }), size + ", rare heads");
  }
}

// Sizes around the tile (the carry between tiles), one segment across many tiles, every element
// a head, and values past 32 bits; with the backend's shape and, where the backend gives teams
// of several members, a short tile walked by 2 and 4 members through scratch (the GPU's path).
TEST(DistributedLocalScan, TileEdgesAndTeamShapes) {
  kpz::Rng rng(2026);
  std::vector<dd::LocalScanShape> shapes{dd::local_scan_shape<Space>()};
  const int widest = Kokkos::TeamPolicy<Space>(Space(), 1, 1)
                         .team_size_max(dd::local_scan_detail::TileCarries<Space>{}, Kokkos::ParallelForTag{});
  for (const int members : {2, 3, 4})
    if (members <= widest) shapes.push_back(dd::LocalScanShape{.tile = 64, .team_size = members});
  for (const dd::LocalScanShape shape : shapes) {
    const std::int64_t t = shape.tile;
    // 2^20 + 3 with the backend's shape only: with 64-element tiles it is 2^14 teams' barriers.
    const bool backend_shape = shape.tile == dd::local_scan_shape<Space>().tile;
    for (const std::int64_t n :
         {std::int64_t{1}, t - 1, t, t + 1, 3 * t + 5, 37 * t + 11, (std::int64_t{1} << 20) + 3}) {
      if (n > 37 * t + 11 && !backend_shape) continue;
      std::vector<std::int64_t> values(n);
      for (auto& v : values) v = rng.integer(-(std::int64_t{1} << 40), std::int64_t{1} << 41);
      const auto pattern = [&](auto head_at) {
        std::vector<std::uint8_t> heads(n);
        for (std::int64_t i = 0; i < n; ++i) heads[i] = head_at(i) ? 1 : 0;
        return heads;
      };
      const std::string what =
          "tile " + std::to_string(t) + ", team " + std::to_string(shape.team_size) + ", n = " + std::to_string(n);
      expect_scan(values, pattern([](std::int64_t) { return false; }), what + ", no head", shape);
      expect_scan(values, pattern([](std::int64_t i) { return i == 0; }), what + ", a head at 0 only", shape);
      expect_scan(values, pattern([&](std::int64_t i) { return i == n - 1; }), what + ", a head at the end only",
                  shape);
      expect_scan(values, pattern([](std::int64_t) { return true; }), what + ", every element a head", shape);
      expect_scan(values, pattern([&](std::int64_t i) { return i == 3 || i == n - 2; }),
                  what + ", one segment across the tiles", shape);
      expect_scan(values, pattern([&](std::int64_t) { return rng.integer(0, 3) == 0; }), what + ", random heads",
                  shape);
      expect_scan(values, pattern([&](std::int64_t) { return rng.integer(0, 4 * t) == 0; }), what + ", rare heads",
                  shape);
    }
  }
}

TEST(DistributedLocalScan, AnEmptySliceIsTheIdentity) {
  kpz::View<std::int64_t*, Space> out("out", 0);
  const dd::LocalScan got =
      dd::local_segmented_scan(Space(), kpz::View<const std::int64_t*, Space>(on_device<std::int64_t>({}, "values")),
                               kpz::View<const std::uint8_t*, Space>(on_device<std::uint8_t>({}, "heads")), out);
  EXPECT_EQ(got.total.value, 0);
  EXPECT_EQ(got.total.flag, 0);
  EXPECT_EQ(got.first_head, 0);
}

}  // namespace

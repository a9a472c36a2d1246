// distributed's given rank-local segmented scan (local_segmented_scan), without MPI, checked
// element by element against a sequential scan, with the slice's summary and first head, on
// slices without a head, with a head only at either end, and random ones. The sizes reach
// 2^22: Kokkos' CUDA scan accumulates a block's elements in a strided order once a block has
// more of them than threads, which a scan whose join is not commutative gets wrong there.
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
                 const std::string& what) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  kpz::View<std::int64_t*, Space> out("out", values.size());
  Kokkos::deep_copy(out, std::int64_t{-777});  // poisoned: an element never written fails
  const dd::LocalScan got =
      dd::local_segmented_scan(Space(), kpz::View<const std::int64_t*, Space>(on_device(values, "values")),
                               kpz::View<const std::uint8_t*, Space>(on_device(heads, "heads")), out);
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

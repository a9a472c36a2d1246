// kpz::copy_as_parallel_for (kpz/bench.hpp), the benchmarks' "copy as parallel_for" row: four
// elements per work item and a tail item, so every element of every size must arrive, and
// nothing past the end is written.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "kpz/bench.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

TEST(CopyBaseline, EverySizeArrivesWholeAndNothingPastTheEnd) {
  for (const std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 1027, 4096}) {
    Kokkos::View<int*, Host::memory_space> src("src", n), dst("dst", n + 3);
    for (std::size_t i = 0; i < n; ++i) src(i) = static_cast<int>(7 * i) - 50;
    Kokkos::deep_copy(dst, -999);  // poison: an element the copy misses stays -999
    const auto head = Kokkos::subview(dst, Kokkos::make_pair(std::size_t{0}, n));
    kpz::copy_as_parallel_for(Host(), Kokkos::View<const int*, Host::memory_space>(src), head);
    Host().fence();
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(dst(i), src(i)) << "n = " << n << ", element " << i;
    for (std::size_t i = n; i < n + 3; ++i) EXPECT_EQ(dst(i), -999) << "n = " << n << ", written past the end at " << i;
  }
}

}  // namespace

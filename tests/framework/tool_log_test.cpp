// kpz::ToolLog and the rules read from it (kpz/tool_log.hpp), on the host's default execution
// space (one test on the default execution space, a GPU's in a CUDA build): a copy nobody waits
// for, and a reduction that waits for a host result, are what the values of a host run cannot show.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kpz/tool_log.hpp"

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;

std::vector<kpz::ToolEvent> events_of(const auto& work) {
  const kpz::ToolLog log;
  work();
  return log.events();
}

TEST(ToolLog, ACopyBackIsFencedOnlyByAWaitAfterIt) {
  const Space space;
  Kokkos::View<float*, Space::memory_space> d("d", 64);
  Kokkos::View<float*, Kokkos::HostSpace> h("h", 64);
  EXPECT_FALSE(kpz::last_copy_is_fenced(events_of([&] { Kokkos::deep_copy(space, h, d); })));
  EXPECT_TRUE(kpz::last_copy_is_fenced(events_of([&] {
    Kokkos::deep_copy(space, h, d);
    space.fence();
  })));
  EXPECT_TRUE(kpz::last_copy_is_fenced(events_of([&] { Kokkos::deep_copy(h, d); }))) << "waits itself";
  EXPECT_FALSE(kpz::last_copy_is_fenced(events_of([&] {
    space.fence();
    Kokkos::deep_copy(space, h, d);
  }))) << "a fence before the copy is not one after it";
  // Freeing a View fences, after the function used what it copied: that is no wait for the copy.
  EXPECT_FALSE(kpz::last_copy_is_fenced(events_of([&] {
    Kokkos::View<float*, Space::memory_space> scratch("scratch", 64);
    Kokkos::deep_copy(space, h, scratch);
  })));
}

// LateCopies::emulated: a copy into host memory that did not wait reads NaN until a fence or a
// launch, then holds what was copied; one that waited (deep_copy without an instance) lands at
// once. Into a separate host View and into the same allocation (a host backend's mirror).
TEST(ToolLog, EmulatedCopiesLandAtTheNextFenceOrLaunch) {
  const Space space;
  Kokkos::View<float*, Space::memory_space> d("d", 64);
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<Space>(space, 0, 64),
                       [=](int i) { d(i) = static_cast<float>(i) + 0.5f; });
  space.fence();
  Kokkos::View<float*, Kokkos::HostSpace> h("h", 64);
  const auto landed = [&](const auto& v) {
    for (int i = 0; i < 64; ++i)
      if (v(i) != static_cast<float>(i) + 0.5f) return false;
    return true;
  };
  const auto poisoned = [&](const auto& v) {
    for (int i = 0; i < 64; ++i)
      if (!std::isnan(v(i))) return false;
    return true;
  };
  {
    const kpz::ToolLog log(kpz::LateCopies::emulated);
    Kokkos::deep_copy(space, h, d);
    EXPECT_TRUE(poisoned(h)) << "read before the copy landed";
    EXPECT_TRUE(kpz::is_late_copy_poison(h(0)));
    space.fence();
    EXPECT_TRUE(landed(h)) << "landed at the fence";
    Kokkos::deep_copy(h, 0.0f);
    Kokkos::deep_copy(h, d);
    EXPECT_TRUE(landed(h)) << "deep_copy(h, d) waits itself";
    Kokkos::deep_copy(h, 0.0f);
    Kokkos::deep_copy(space, h, d);
    Kokkos::parallel_for("after", Kokkos::RangePolicy<Space>(space, 0, 1), [](int) {});
    EXPECT_TRUE(landed(h)) << "a launch comes after the copy on its instance";
    // The mirror of a host View is the View itself: the copy is no copy, and h still reads NaN
    // until it lands, as a GPU's separate host memory would read stale values.
    const auto mirror = Kokkos::create_mirror_view(d);
    Kokkos::deep_copy(space, mirror, d);
    EXPECT_TRUE(poisoned(mirror));
    space.fence();
    EXPECT_TRUE(landed(mirror));
  }
  {
    const kpz::ToolLog log;  // LateCopies::real
    Kokkos::deep_copy(h, 0.0f);
    Kokkos::deep_copy(space, h, d);
    EXPECT_TRUE(landed(h)) << "a host backend's copy is done when it returns";
  }
}

// From the default execution space's memory (a GPU's in a CUDA build, whose copy may land before
// or after the host reads): held back by the log, so the host reads poison on every run, then
// what was copied once the program waits.
TEST(ToolLog, EmulatedCopiesFromTheDefaultSpaceLandAtTheFence) {
  using Default = Kokkos::DefaultExecutionSpace;
  const Default space;
  constexpr int n = 1 << 16;
  Kokkos::View<float*, Kokkos::HostSpace> src("src", n), h("h", n);
  for (int i = 0; i < n; ++i) src(i) = static_cast<float>(i) + 0.25f;
  Kokkos::View<float*, Default::memory_space> d("d", n);
  Kokkos::deep_copy(d, src);
  int poisoned = 0, landed = 0;
  {
    const kpz::ToolLog log(kpz::LateCopies::emulated);
    Kokkos::deep_copy(space, h, d);
    for (int i = 0; i < n; ++i) poisoned += kpz::is_late_copy_poison(h(i));
    space.fence();
    for (int i = 0; i < n; ++i) landed += h(i) == src(i);
  }
  EXPECT_EQ(poisoned, n) << "read before the program waited";
  EXPECT_EQ(landed, n) << "landed at the fence";
}

TEST(ToolLog, AReductionIntoAHostValueWaitsIntoAViewItDoesNot) {
  const Space space;
  Kokkos::View<int, Space::memory_space> result("result");
  const auto sum_into = [&](auto& target) {
    Kokkos::parallel_reduce(
        "sum", Kokkos::RangePolicy<Space>(space, 0, 100), [](int i, int& acc) { acc += i; }, target);
  };
  int host = 0;
  const auto waited = [](const std::vector<kpz::ToolEvent>& events) {
    return std::any_of(events.begin(), events.end(), kpz::is_reduction_wait);
  };
  EXPECT_TRUE(waited(events_of([&] { sum_into(host); })));
  EXPECT_FALSE(waited(events_of([&] { sum_into(result); })));
  space.fence();
  EXPECT_EQ(host, 4950);
}

TEST(ToolLog, OneLogAtATime) {
  const kpz::ToolLog log;
  EXPECT_THROW(kpz::ToolLog{}, std::logic_error);
}

}  // namespace

// kpz::ToolLog and the rules read from it (kpz/tool_log.hpp), on the host's default execution
// space: a copy nobody waits for, and a reduction that waits for a host result, are what the
// values of a host run cannot show.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
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

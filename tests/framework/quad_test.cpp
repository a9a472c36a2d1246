// kpz::quads_of (kpz/quad.hpp): a 4-byte array read as 16-byte Quads where its data is aligned,
// and an empty View (the caller loads elements) where it is not.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "kpz/quad.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

TEST(Quads, AnAlignedViewIsReadAsItsWholeQuads) {
  Kokkos::View<int*, Host::memory_space> a("a", 103);  // 25 whole Quads and 3 elements
  for (int i = 0; i < 103; ++i) a(i) = 7 * i - 50;
  const auto quads = kpz::quads_of<Host, int>(a);
  ASSERT_NE(quads.data(), nullptr) << "Kokkos allocations are 16-byte aligned";
  ASSERT_EQ(quads.extent(0), 25u);
  for (int q = 0; q < 25; ++q)
    for (int e = 0; e < 4; ++e) EXPECT_EQ(quads(q).v[e], a(4 * q + e)) << "quad " << q << " element " << e;
}

TEST(Quads, AViewThatStartsMidQuadHasNone) {
  Kokkos::View<float*, Host::memory_space> a("a", 64);
  for (const int start : {1, 2, 3}) {
    const auto tail = Kokkos::subview(a, Kokkos::make_pair(start, 64));
    const auto none = kpz::quads_of<Host, float>(tail);
    EXPECT_EQ(none.data(), nullptr) << "a subview from element " << start;
  }
  const auto from_four = Kokkos::subview(a, Kokkos::make_pair(4, 64));
  const auto quads = kpz::quads_of<Host, float>(from_four);
  EXPECT_EQ(quads.data(), reinterpret_cast<const kpz::Quad<float>*>(a.data() + 4));
  EXPECT_EQ(quads.extent(0), 15u);
  const auto empty = kpz::quads_of<Host, float>(Kokkos::View<float*, Host::memory_space>());
  EXPECT_EQ(empty.data(), nullptr) << "an empty View";
}

}  // namespace

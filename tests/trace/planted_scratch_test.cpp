// Planted scratch requests: the launches learners write for bin-extract's histogram and conv1d's
// simple kernel, kept here with the request as a parameter (the answer to their TODOs: never in a
// file an exercise includes). The race check must stop every request below what the views need
// (the sum of their shmem_size), with the bytes of both sides and the first view that does not
// fit, whatever the size: Kokkos pads a view only as far as its pointer needs, so a hand-counted
// request (4 bytes per float and per int) fits whenever the sizes keep the views aligned. The
// exact request is clean.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "conv1d/conv1d.hpp"
#include "kpz/trace/analysis.hpp"
#include "kpz/transfer.hpp"
#include "source_line.hpp"

namespace kpz::planted_scratch {

// bin-extract --histogram: one team stages the input and its bins, then compacts every bin.
template <class Space>
void histogram(const Space& space, int team_size, int num_bins, View<const float*, Space> in, View<float**, Space> out,
               View<int*, Space> counts, std::size_t request) {
  const int n = static_cast<int>(in.extent(0));
  const auto policy = TeamPolicy<Space>(space, 1, team_size).set_scratch_size(0, Kokkos::PerTeam(request));
  Kokkos::parallel_for(
      "bin_extract::planted_histogram", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_x(team.team_scratch(0), n);
        ScratchView<int*, Space> s_bin(team.team_scratch(0), n);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
          s_x(i) = in(i);
          s_bin(i) = bin_extract::bin_of(s_x(i), num_bins);
        });
        team.team_barrier();
        for (int k = 0; k < num_bins; ++k)
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, n), [&](int i, int& offset, const bool final) {
            const int selected = s_bin(i) == k ? 1 : 0;
            if (final) {
              if (selected) out(k, offset) = s_x(i);
              if (i == n - 1) counts(k) = offset + selected;
            }
            offset += selected;
          });
      });
}

// conv1d --simple: one team stages all of a and the taps of b, then convolves.
template <class Space>
void simple(const Space& space, int team_size, View<const float*, Space> a, View<const float*, Space> b,
            View<float*, Space> out, std::size_t request) {
  const int n = static_cast<int>(a.extent(0));
  const int taps = conv1d::effective_taps(a.extent(0), b.extent(0));
  const auto policy = TeamPolicy<Space>(space, 1, team_size).set_scratch_size(0, Kokkos::PerTeam(request));
  Kokkos::parallel_for(
      "conv1d::planted_simple", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_a(team.team_scratch(0), n);
        ScratchView<float*, Space> s_b(team.team_scratch(0), taps);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) { s_a(i) = a(i); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, taps), [&](int j) { s_b(j) = b(j); });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
          const int last = Kokkos::min(taps, n - i);
          float sum = 0.0f;
          for (int j = 0; j < last; ++j) sum += s_a(i + j) * s_b(j);
          out(i) = sum;
        });
      });
}

}  // namespace kpz::planted_scratch

namespace {

using S = Kokkos::Serial;
using kpz::trace::Distribution;
using Floats = kpz::ScratchView<float*, S>;
using Ints = kpz::ScratchView<int*, S>;

constexpr Distribution kBoth[] = {Distribution::cyclic, Distribution::blockwise};
const std::string kFile = "planted_scratch_test.cpp";

int line_of(const char* statement) {
  return kpz::test::line_of(__FILE__, statement);
}

// A traced launch: the error that stopped it, or nothing and the outputs.
struct Outcome {
  std::optional<std::string> error;
  std::vector<float> values;
  std::vector<int> counts;
};

template <class F>
Outcome traced(Distribution d, const F& launch) {
  Outcome o;
  kpz::trace::Session s(d);
  try {
    launch(o);
  } catch (const kpz::trace::KernelError& e) {
    o.error = e.what();
  }
  return o;
}

// ---- bin-extract --histogram ----------------------------------------------------------------

constexpr int kBins = 3;

std::vector<float> histogram_input(int n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>((i * 7) % n) / static_cast<float>(n);
  return x;
}

Outcome histogram(Distribution d, int n, int team_size, std::size_t request) {
  return traced(d, [&](Outcome& o) {
    auto in = kpz::to_device(S{}, "in", histogram_input(n));
    kpz::View<float**, S> out("out", kBins, n);
    kpz::View<int*, S> counts("counts", kBins);
    kpz::planted_scratch::histogram<S>(S{}, team_size, kBins, in, out, counts, request);
    o.counts = kpz::to_host(counts);
    for (int k = 0; k < kBins; ++k)
      for (int j = 0; j < o.counts[k]; ++j)
        o.values.push_back(static_cast<const Kokkos::View<float**, Kokkos::HostSpace>&>(out)(k, j));
  });
}

// The bins in input order, as the kernel compacts them.
Outcome histogram_expected(int n) {
  Outcome o;
  o.counts.assign(kBins, 0);
  const auto x = histogram_input(n);
  for (int k = 0; k < kBins; ++k)
    for (float v : x)
      if (kpz::bin_extract::bin_of(v, kBins) == k) {
        o.values.push_back(v);
        ++o.counts[k];
      }
  return o;
}

std::size_t histogram_needs(int n) {
  return Floats::shmem_size(n) + Ints::shmem_size(n);
}

// "scratch level 0: the scratch views need N bytes per team (...), the launch requested M"
void expect_too_small(const Outcome& o, const std::string& need, std::size_t requested, const char* first_short) {
  ASSERT_TRUE(o.error.has_value()) << "the request of " << requested << " bytes passed";
  const std::string& e = *o.error;
  EXPECT_EQ(e.rfind("scratch level 0: the scratch views need " + need + " bytes per team", 0), 0u) << e;
  EXPECT_NE(e.find("the launch requested " + std::to_string(requested) + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("set_scratch_size asks for too little"), std::string::npos) << e;
  ASSERT_GT(line_of(first_short), 0);
  EXPECT_NE(e.find(kFile + ":" + std::to_string(line_of(first_short))), std::string::npos) << e;
}

const char* const kBinView = "ScratchView<int*, Space> s_bin(team.team_scratch(0), n);";

TEST(PlantedScratch, HistogramExactRequestIsClean) {
  for (Distribution d : kBoth)
    for (int n : {12, 13, 16})
      for (int team : {1, 3, 4}) {
        const Outcome o = histogram(d, n, team, histogram_needs(n));
        ASSERT_FALSE(o.error) << *o.error;
        const Outcome want = histogram_expected(n);
        EXPECT_EQ(o.counts, want.counts);
        EXPECT_EQ(o.values, want.values);
      }
}

// 8n is 4 bytes per value and per bin: without the views' padding. With n even the second view
// starts aligned and Kokkos hands out both; the check must not depend on that.
TEST(PlantedScratch, HistogramHandCountedRequestFailsForEverySize) {
  for (Distribution d : kBoth)
    for (int n : {12, 16})
      for (int team : {1, 4}) {
        SCOPED_TRACE("n " + std::to_string(n) + ", team " + std::to_string(team));
        expect_too_small(histogram(d, n, team, 8 * n), std::to_string(histogram_needs(n)), 8 * n, kBinView);
      }
  // n odd: the bins' view does not fit at all (Kokkos hands out a null pointer); the trace runs on
  // to the end all the same, to report everything the views need.
  expect_too_small(histogram(Distribution::cyclic, 13, 4, 8 * 13), std::to_string(histogram_needs(13)), 8 * 13,
                   kBinView);
}

TEST(PlantedScratch, HistogramOneByteOrOneElementShortFails) {
  for (Distribution d : kBoth)
    for (int n : {12, 13, 16}) {
      SCOPED_TRACE("n " + std::to_string(n));
      const std::size_t need = histogram_needs(n);
      expect_too_small(histogram(d, n, 4, need - 1), std::to_string(need), need - 1, kBinView);
      const std::size_t element_short = Floats::shmem_size(n) + Ints::shmem_size(n - 1);
      const Outcome o = histogram(d, n, 4, element_short);
      ASSERT_TRUE(o.error.has_value());
      EXPECT_EQ(o.error->rfind("scratch level 0: the scratch views need ", 0), 0u) << *o.error;
    }
}

// ---- conv1d --simple -------------------------------------------------------------------------

constexpr int kTaps = 4;

Outcome simple(Distribution d, int n, int team_size, std::size_t request) {
  return traced(d, [&](Outcome& o) {
    std::vector<float> a(static_cast<std::size_t>(n)), b(kTaps);
    for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i);
    for (int j = 0; j < kTaps; ++j) b[j] = static_cast<float>(j);
    kpz::View<float*, S> out("out", n);
    kpz::planted_scratch::simple<S>(S{}, team_size, kpz::to_device(S{}, "a", a), kpz::to_device(S{}, "b", b), out,
                                    request);
    o.values = kpz::to_host(out);
  });
}

std::vector<float> simple_expected(int n) {
  std::vector<float> out(static_cast<std::size_t>(n), 0.0f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < kTaps && i + j < n; ++j) out[i] += static_cast<float>((i + j) * j);
  return out;
}

std::size_t simple_needs(int n) {
  return Floats::shmem_size(n) + Floats::shmem_size(kTaps);
}

const char* const kTapsView = "ScratchView<float*, Space> s_b(team.team_scratch(0), taps);";
const char* const kInputView = "ScratchView<float*, Space> s_a(team.team_scratch(0), n);";

TEST(PlantedScratch, Conv1dExactRequestIsClean) {
  for (Distribution d : kBoth)
    for (int n : {15, 16})
      for (int team : {1, 3, 4}) {
        const Outcome o = simple(d, n, team, simple_needs(n));
        ASSERT_FALSE(o.error) << *o.error;
        EXPECT_EQ(o.values, simple_expected(n));
      }
}

TEST(PlantedScratch, Conv1dShortRequestsFail) {
  for (Distribution d : kBoth) {
    // No request at all (the skeleton's placeholder launch): every view gets a null pointer.
    const Outcome none = simple(d, 6, 2, 0);
    expect_too_small(none, std::to_string(simple_needs(6)), 0, kInputView);
    EXPECT_NE(none.error->find("Kokkos hands out a null pointer silently"), std::string::npos) << *none.error;
    // Short by one byte: both views fit here, which the message says is luck.
    const Outcome short_one = simple(d, 16, 4, simple_needs(16) - 1);
    ASSERT_TRUE(short_one.error.has_value());
    EXPECT_NE(short_one.error->find("every view fit here only because"), std::string::npos) << *short_one.error;
    // 4 bytes per float of a and of b: it fits when n keeps s_b aligned (16), not otherwise (15).
    expect_too_small(simple(d, 16, 4, 4 * (16 + kTaps)), std::to_string(simple_needs(16)), 4 * (16 + kTaps), kTapsView);
    expect_too_small(simple(d, 15, 4, 4 * (15 + kTaps)), std::to_string(simple_needs(15)), 4 * (15 + kTaps), kTapsView);
    for (int n : {15, 16}) {
      expect_too_small(simple(d, n, 4, simple_needs(n) - 1), std::to_string(simple_needs(n)), simple_needs(n) - 1,
                       kTapsView);
      const std::size_t element_short = Floats::shmem_size(n) + Floats::shmem_size(kTaps - 1);
      expect_too_small(simple(d, n, 4, element_short), std::to_string(simple_needs(n)), element_short, kTapsView);
    }
  }
}

// ---- The rule itself --------------------------------------------------------------------------

// thread_scratch: each view is carved once per member, padded once for the team.
TEST(PlantedScratch, PerThreadViewsNeedTheirBytesTimesTheTeamPlusThePadding) {
  constexpr int kTeam = 4, kN = 6;
  const std::size_t need = kTeam * kN * sizeof(float) + (Floats::shmem_size(kN) - kN * sizeof(float));
  for (std::size_t per_thread : {std::size_t{0}, Floats::shmem_size(kN)}) {
    const std::size_t per_team = per_thread == 0 ? need : 0;
    const Outcome o = traced(Distribution::cyclic, [&](Outcome&) {
      Kokkos::parallel_for(
          kpz::TeamPolicy<S>(S{}, 1, kTeam)
              .set_scratch_size(0, Kokkos::PerTeam(per_team), Kokkos::PerThread(per_thread)),
          KOKKOS_LAMBDA(const kpz::TeamMember<S>& team) {
            Floats mine(team.thread_scratch(0), kN);
            for (int i = 0; i < kN; ++i) mine(i) = 1.0f;
          });
    });
    EXPECT_FALSE(o.error) << *o.error;
  }
  const Outcome o = traced(Distribution::cyclic, [&](Outcome&) {
    Kokkos::parallel_for(
        kpz::TeamPolicy<S>(S{}, 1, kTeam).set_scratch_size(0, Kokkos::PerTeam(need - 1)),
        KOKKOS_LAMBDA(const kpz::TeamMember<S>& team) {
          Floats mine(team.thread_scratch(0), kN);
          mine(0) = 1.0f;
        });
  });
  ASSERT_TRUE(o.error.has_value());
  EXPECT_EQ(o.error->rfind("scratch level 0: the scratch views need " + std::to_string(need), 0), 0u) << *o.error;
}

// An empty view never fails in Kokkos: a request may leave it out.
TEST(PlantedScratch, EmptyViewsNeedNothing) {
  const Outcome o = traced(Distribution::cyclic, [&](Outcome&) {
    Kokkos::parallel_for(
        kpz::TeamPolicy<S>(S{}, 1, 2).set_scratch_size(0, Kokkos::PerTeam(Ints::shmem_size(3))),
        KOKKOS_LAMBDA(const kpz::TeamMember<S>& team) {
          Ints used(team.team_scratch(0), 3);
          Ints empty(team.team_scratch(0), 0);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { used(0) = 1; });
        });
  });
  EXPECT_FALSE(o.error) << *o.error;
}

}  // namespace

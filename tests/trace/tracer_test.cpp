// The tracer's own tests: tiny kernels with a known race and without one, the executor's
// determinism, misuse of the team API, and the Kokkos team API subset the trace build models.
#include <gtest/gtest.h>

#include "kpz/trace/analysis.hpp"
#include "kpz/types.hpp"

namespace {

using S = Kokkos::Serial;
using kpz::trace::Distribution;

template <class F>
kpz::trace::Recording record(Distribution d, const F& f) {
  kpz::trace::Session s(d);
  f();
  return s.take();
}

template <class F>
void team_kernel(int league, int team_size, std::size_t scratch_bytes, const F& f) {
  Kokkos::parallel_for("test", kpz::TeamPolicy<S>(S{}, league, team_size)
                                   .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
                       f);
}

using Scratch = kpz::ScratchView<float*, S>;

TEST(Tracer, MissingBarrierIsARace) {
  for (Distribution d : {Distribution::cyclic, Distribution::blockwise}) {
    kpz::View<float*, S> out("out", 8);
    const auto rec = record(d, [&] {
      team_kernel(1, 4, Scratch::shmem_size(8), KOKKOS_LAMBDA(const kpz::TeamMember<S>& team) {
        Scratch s(team.team_scratch(0), 8);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { s(i) = static_cast<float>(i); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int i) { out(i) = s(7 - i); });
      });
    });
    const auto a = kpz::trace::analyze(rec);
    EXPECT_EQ(a.races.size(), 8u) << kpz::trace::problems_text(rec, a);
    ASSERT_FALSE(a.races.empty());
    EXPECT_EQ(rec.views[a.races[0].view].name, "s");
    EXPECT_EQ(a.races[0].first.epoch, 0);
    EXPECT_NE(a.races[0].first.rank, a.races[0].second.rank);
  }
}

}  // namespace

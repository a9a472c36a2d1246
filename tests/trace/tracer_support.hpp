#pragma once
// What the tracer's own tests share (tracer_test.cpp: races, determinism, misuse;
// tracer_model_test.cpp: the team API and the element types the trace build models): tiny team
// kernels on Serial, recorded by the trace build's executor.
#include <cstddef>
#include <vector>

#include "kpz/trace/analysis.hpp"
#include "kpz/types.hpp"

namespace kpz::test::tracer {

using S = Kokkos::Serial;
using kpz::trace::Distribution;
using Scratch = kpz::ScratchView<float*, S>;
using Member = kpz::TeamMember<S>;

inline constexpr Distribution kBoth[] = {Distribution::cyclic, Distribution::blockwise};

template <class F>
kpz::trace::Recording record(Distribution d, const F& f) {
  kpz::trace::Session s(d);
  f();
  return s.take();
}

template <class F>
void team_kernel(int league, int team_size, std::size_t scratch_bytes, const F& f, int vector = 1) {
  Kokkos::parallel_for(
      "test", kpz::TeamPolicy<S>(S{}, league, team_size, vector).set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
      f);
}

// One team of team_size members that share n elements of T in scratch: body(team, s), s the
// kpz::ScratchView<T*, S> carved out here. The trace names a scratch view after the variable
// declared on its line, so every view carved here is "s"; a test that asserts on a name carves
// its view itself (tracer_test.cpp's reverse).
template <class T, class Body>
kpz::trace::Recording record_scratch_team(Distribution d, int team_size, int n, const Body& body) {
  return record(d, [&] {
    team_kernel(
        1, team_size, kpz::ScratchView<T*, S>::shmem_size(n), KOKKOS_LAMBDA(const Member& team) {
          kpz::ScratchView<T*, S> s(team.team_scratch(0), n);
          body(team, s);
        });
  });
}

inline std::vector<float> host(const kpz::View<float*, S>& v) {
  std::vector<float> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<const Kokkos::View<float*, Kokkos::HostSpace>&>(v)(i);
  return out;
}

}  // namespace kpz::test::tracer

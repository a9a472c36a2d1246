#pragma once
// The trace build's Kokkos::single (KPZ_TRACE): PerTeam (team rank 0, and a broadcast where a value
// is given) and PerThread (once per member, on lane 0), overloaded in namespace Kokkos for
// kpz::trace::Member (team_member.hpp), as nested.hpp does for the nested ranges.
#include <Kokkos_Core.hpp>

#include "kpz/trace/runtime.hpp"
#include "kpz/trace/team_member.hpp"

namespace Kokkos {

template <class Space>
kpz::trace::SingleTeam<Space> PerTeam(const kpz::trace::Member<Space>& m) {
  return {m};
}
template <class Space>
kpz::trace::SingleThread<Space> PerThread(const kpz::trace::Member<Space>& m) {
  return {m};
}
// single(PerTeam): team rank 0 only, no barrier.
template <class Space, class F>
void single(const kpz::trace::SingleTeam<Space>& s, const F& f) {
  kpz::trace::MemberCore& c = s.member.core();
  if (c.rank != 0) return;
  ++c.single_depth;
  struct Guard {
    kpz::trace::MemberCore& c;
    ~Guard() { --c.single_depth; }
  } guard{c};
  f();
}
// single(PerTeam, f, value): rank 0 computes value, then every member gets it (a broadcast).
template <class Space, class F, class T>
void single(const kpz::trace::SingleTeam<Space>& s, const F& f, T& value, kpz::trace::Loc loc = KPZ_TRACE_HERE) {
  kpz::trace::MemberCore& c = s.member.core();
  if (c.rank == 0) {
    ++c.single_depth;
    f(value);
    --c.single_depth;
  }
  s.member.team_broadcast(value, 0, loc);
}
// single(PerThread): once per member (lane 0).
template <class Space, class F>
void single(const kpz::trace::SingleThread<Space>& s, const F& f) {
  kpz::trace::MemberCore& c = s.member.core();
  const int lane = c.lane;
  if (c.distribution == kpz::trace::Distribution::cyclic) c.lane = 0;
  ++c.thread_single_depth;
  struct Guard {
    kpz::trace::MemberCore& c;
    int lane;
    ~Guard() {
      --c.thread_single_depth;
      c.lane = lane;
    }
  } guard{c, lane};
  f();
}
template <class Space, class F, class T>
void single(const kpz::trace::SingleThread<Space>& s, const F& f, T& value) {
  single(s, [&] { f(value); });
  s.member.core().end_vector_loop();
}

}  // namespace Kokkos

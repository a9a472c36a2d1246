#pragma once
// The launches the rungs of the ladder share (reference/reduce/reduce.cpp and its skeleton): the
// team policy, the scratch slots, the tile each team owns and, where no rung makes them its
// lesson, the load and the final write, so that a rung holds only its team body.
#include "reduce/reduce.hpp"

namespace kpz::reduce {

// A team's scratch slots: s(i) is the running sum of lane i.
template <class Space, class T>
using Slots = ScratchView<T*, Space>;

// The 32-lane exchange the warp finish goes through where a team is not whole CUDA warps.
template <class Space, class T>
using Warp = team::XorExchange<Space, T>;

namespace detail {

// launch.league teams of launch.team_size members, `scratch` bytes of level-0 scratch each.
template <class Space>
TeamPolicy<Space> ladder_policy(const Space& space, const Launch& launch, std::size_t scratch) {
  return TeamPolicy<Space>(space, launch.league, launch.team_size).set_scratch_size(0, Kokkos::PerTeam(scratch));
}

}  // namespace detail

// neighbored, neighbored_less, interleaved: team t owns [t * lanes, (t + 1) * lanes); lane i
// starts with in(t * lanes + i) (0 past N). After a barrier, tree(team, s, lanes) adds the lanes'
// slots into s(0), and one member writes s(0) to partial(t).
template <class Space, class T, class Tree>
void ladder_launch(const Space& space, const Launch& launch, const char* name, View<const T*, Space> in,
                   View<T*, Space> partial, Tree tree) {
  const int n = static_cast<int>(in.extent(0));
  const int lanes = launch.lanes;
  Kokkos::parallel_for(
      name, detail::ladder_policy(space, launch, tree_scratch_bytes<Space, T>(lanes)),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Slots<Space, T> s(team.team_scratch(0), lanes);
        const int first = team.league_rank() * lanes;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lanes),
                             [&](int i) { s(i) = first + i < n ? in(first + i) : T(0); });
        team.team_barrier();
        tree(team, s, lanes);
        Kokkos::single(Kokkos::PerTeam(team), [&] { partial(team.league_rank()) = s(0); });
      });
}

// The unrolled rungs: team t owns the Unroll * lanes elements from first = t * lanes * Unroll;
// body(team, s, first) loads them into the slots (load_tile) and adds the slots into s(0), which
// one member writes to partial(t).
template <int Unroll, class Space, class T, class Body>
void unrolled_launch(const Space& space, const Launch& launch, const char* name, View<T*, Space> partial, Body body) {
  const int lanes = launch.lanes;
  Kokkos::parallel_for(
      name, detail::ladder_policy(space, launch, tree_scratch_bytes<Space, T>(lanes)),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Slots<Space, T> s(team.team_scratch(0), lanes);
        body(team, s, team.league_rank() * lanes * Unroll);
        Kokkos::single(Kokkos::PerTeam(team), [&] { partial(team.league_rank()) = s(0); });
      });
}

// The rungs that end with warp_finish (unroll 8): team t owns the 8 * lanes elements from
// first = t * lanes * 8; its scratch holds a 32-lane XorExchange (carved first) and the slots.
// body(team, s, warp, first) loads, reduces and writes partial(t) (warp_finish).
template <class Space, class T, class Body>
void warp_launch(const Space& space, const Launch& launch, const char* name, Body body) {
  const int lanes = launch.lanes;
  Kokkos::parallel_for(
      name, detail::ladder_policy(space, launch, warp_scratch_bytes<Space, T>(lanes)),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Warp<Space, T> warp(team, 32, 32);
        const Slots<Space, T> s(team.team_scratch(0), lanes);
        body(team, s, warp, team.league_rank() * lanes * 8);
      });
}

}  // namespace kpz::reduce

// butterfly exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run butterfly`
// (or the tests). Host builds race-check every pass; `kpuzzles trace butterfly --<variant>`
// draws the accesses. The solution is in reference/butterfly/, but try first: the hints are in
// docs/puzzles/butterfly.md. Generated from the reference: `kpuzzles reset butterfly` restores it
// (your work is kept as a backup).
#include "butterfly/butterfly.hpp"

namespace kpz::butterfly::exercise {

template <class Space>
void pair_swap(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  const int n = static_cast<int>(in.extent(0));
  const int size = launch.tile;  // lanes per tile
  // A team (CUDA: a block) per tile of `size` consecutive lanes, the last tile cut short by n;
  // each team holds its tile in level-0 scratch (CUDA: __shared__ memory): the view `lane` below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 3 lines): make policy the launch the comment above describes, with
  //   launch.team_size members of launch.vector_length lanes per team, and a level-0 request,
  //   per team, for the bytes `lane` carves.
  Kokkos::parallel_for(
      "butterfly::pair_swap", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * size;
        const Tile tile{
            .index = team.league_rank(), .first = first, .count = Kokkos::min(size, n - first), .size = size};
        Lanes<Space> lane(team.team_scratch(0), tile.size);  // lane(i): the value lane i holds
        // Every lane of the tile holds its input (0 past the tile's count); then the team waits.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                             [&](int i) { lane(i) = i < tile.count ? in(tile.first + i) : 0.0f; });
        team.team_barrier();
        // TODO(roughly 3 lines): each of the tile's tile.count real lanes writes its output
        //   (out, from tile.first on): the value its partner holds, the lane of its pair, whose
        //   index differs from its own in the lowest bit.
      });
}

template <class Space>
void all_reduce(const Space& space, const Launch& launch, Op op, View<const float*, Space> in,
                View<float*, Space> out) {
  tile_launch(
      space, launch, "butterfly::all_reduce", in.extent(0), scratch_bytes<Space>(launch.tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const int group = launch.group;  // lanes per group: a power of two dividing the tile
        // Two buffers: a step reads `cur` and writes `next`, so one barrier per step suffices.
        Lanes<Space> cur(team.team_scratch(0), tile.size), next(team.team_scratch(0), tile.size);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                             [&](int i) { cur(i) = i < tile.count ? in(tile.first + i) : 0.0f; });
        team.team_barrier();
        // TODO(roughly 8 lines): afterwards cur(i) holds op over all of lane i's group, for
        //   every lane, by the butterfly exchange between cur and next (apply,
        //   Kokkos::kokkos_swap).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) { out(tile.first + i) = cur(i); });
      });
}

template <class Space>
void conditional(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  const int group = launch.group;
  tile_launch(
      space, launch, "butterfly::conditional", in.extent(0), scratch_bytes<Space>(launch.tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        // hi(i) climbs to the group max, lo(i) falls to the group min, in place: the lower lane
        // of each XOR pair updates both lanes, so one barrier per step suffices.
        Lanes<Space> hi(team.team_scratch(0), tile.size), lo(team.team_scratch(0), tile.size);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                             [&](int i) { hi(i) = lo(i) = i < tile.count ? in(tile.first + i) : 0.0f; });
        team.team_barrier();
        // TODO(roughly 12 lines): in place, no second buffer: afterwards hi(i) holds the
        //   maximum and lo(i) the minimum of lane i's group; within a step, no lane writes a slot
        //   that another reads.
        // TODO(roughly 3 lines): each of the tile's tile.count real lanes writes its output
        //   (out, from tile.first on): even lanes their group's maximum, odd lanes its minimum.
      });
}

// Bug hunt: in the exercise, this kernel has a bug that gives the right maxima on Serial and on
// OpenMP, by luck. It is the exchange through shared memory as CUDA code writes it: each lane
// keeps its running max to itself (`val`, a register in CUDA) and posts it in `slot`, where its
// partner reads it. Build the trace preset and run `kpuzzles trace butterfly --bug-in-place`: the
// race report shows what goes wrong; fix it.
template <class Space>
void bug_in_place(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  tile_launch(
      space, launch, "butterfly::bug_in_place", in.extent(0), scratch_bytes<Space>(launch.tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const int group = launch.group;  // lanes per group: a power of two dividing the tile
        // val(i): lane i's running max, which only lane i reads or writes; slot(i): what lane i
        // shows its partner in the current step.
        Lanes<Space> val(team.team_scratch(0), tile.size), slot(team.team_scratch(0), tile.size);
        // No barrier after this load: lane i's member is the one that posts val(i) below (the same
        // TeamThreadRange), so nothing crosses members until the first post.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                             [&](int i) { val(i) = i < tile.count ? in(tile.first + i) : 0.0f; });
        for (int mask = group / 2; mask >= 1; mask /= 2) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size), [&](int i) { slot(i) = val(i); });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.size),
                               [&](int i) { val(i) = apply(Op::max, val(i), slot(i ^ mask)); });
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) { out(tile.first + i) = val(i); });
      });
}

// The same group max/min as `conditional`, the way Kokkos spells a warp reduction: no scratch, no
// barrier, no lane exchange written by hand. The team level walks rows of U groups, the vector
// level is the group: on CUDA its W lanes are lanes of one warp and the nested reduction is
// Kokkos' own shuffle tree; on a CPU the lanes are one loop of W iterations that the compiler
// vectorises. One reduction takes a whole row (GroupsMinMax, a custom reducer), so every lane
// has U loads in flight before the first shuffle. `vector_minmax` runs the version for
// launch.in_flight (kVectorGroups unless the bench asks for another).
template <int U, class Space>
void vector_minmax_in_flight(const Space& space, const Launch& launch, View<const float*, Space> in,
                             View<float*, Space> out) {
  using Extremes = GroupsExtremes<U>;
  const int group = launch.group;
  const int groups = static_cast<int>(in.extent(0)) / group;
  const int per_team = launch.tile / group;
  const TeamPolicy<Space> policy(space, (groups + per_team - 1) / per_team, launch.team_size, launch.vector_length);
  Kokkos::parallel_for(
      "butterfly::vector_minmax", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int begin = team.league_rank() * per_team;
        const int end = begin + per_team < groups ? begin + per_team : groups;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (end - begin + U - 1) / U), [&](int row) {
          const int g0 = begin + row * U;  // this row's groups: g0 .. g0 + U - 1, those below end
          Extremes e;
          // TODO(roughly 12 lines): the minimum and maximum of each of this row's groups (g0 +
          //   u, u < U, below end) into e, reduced over the vector lanes with GroupsMinMax<U>.
          // TODO(roughly 6 lines): write the row's groups (those below end) to out from e: in
          //   each group, even positions get the group's maximum, odd positions its minimum.
        });
      });
}

template <class Space>
void vector_minmax(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  with_in_flight(launch.in_flight,
                 [&](auto in_flight) { vector_minmax_in_flight<decltype(in_flight)::value>(space, launch, in, out); });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BUTTERFLY_KERNELS)

}  // namespace kpz::butterfly::exercise

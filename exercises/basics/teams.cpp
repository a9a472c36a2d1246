// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void team_reverse(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile;
  const int teams = (n + tile - 1) / tile;
  // `teams` teams (CUDA: blocks) of launch.team_size members (CUDA: threads of a block).
  Kokkos::parallel_for(
      "basics::team_reverse", TeamPolicy<Space>(space, teams, launch.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;  // this team's first element
        // TODO(roughly 4 lines): reverse this team's elements of in into out. count: how many
        //   it owns (tile, fewer in the last team); out(first + i), i < count, gets the i-th of
        //   them from the end; the members share them with a TeamThreadRange.
      });
}

template <class Space>
void scratch_reverse(const Space& space, const Launch& launch, View<const float*, Space> in, View<float*, Space> out) {
  using Scratch = ScratchView<float*, Space>;
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile;
  const int teams = (n + tile - 1) / tile;
  // Each team asks for one tile of floats of level-0 scratch (CUDA: __shared__ memory).
  const auto policy = TeamPolicy<Space>(space, teams, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes<Space>(tile)));
  Kokkos::parallel_for(
      "basics::scratch_reverse", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;
        const int count = Kokkos::min(tile, n - first);
        Scratch s(team.team_scratch(0), tile);
        // TODO(roughly 2 lines): stage this team's elements in s, then wait for every member.
        //   The count elements from in(first), copied by the members together (TeamThreadRange).
        // TODO(roughly 2 lines): reverse s into out(first) .. out(first + count - 1). With a
        //   TeamThreadRange, reading only s.
      });
}

template <class Space>
void row_dots(const Space& space, const Launch& launch, View<const float*, Space> a, View<const float*, Space> x,
              View<float*, Space> y, View<float*, Space> out) {
  const int rows = static_cast<int>(y.extent(0));
  const int cols = static_cast<int>(x.extent(0));
  const int tile = launch.tile;
  const int teams = (rows + tile - 1) / tile;
  // The third size is the vector length: each member has launch.vector_length lanes (CUDA: a block
  // of vector_length x team_size threads, the lane is threadIdx.x).
  const auto policy = TeamPolicy<Space>(space, teams, launch.team_size, launch.vector_length);
  Kokkos::parallel_for(
      "basics::row_dots", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;        // this team's first row
        const int count = Kokkos::min(tile, rows - first);  // its rows
        // TODO(roughly 7 lines): y(first + r) for each of this team's rows r < count: that
        //   row of a times x. The rows shared among the members; the cols products of one row
        //   among the vector lanes of its member, which Kokkos sums; y written by one lane.
        // TODO(roughly 5 lines): out(r, j) for the team's count x cols elements, y(r) times
        //   a(r, j): one flat range over all of them, shared by every lane of every member at
        //   once. Another member wrote y(r): make sure it is there.
      });
}

template <class Space>
void center_segments(const Space& space, const Launch& launch, View<const int*, Space> offsets,
                     View<const float*, Space> values, View<float*, Space> sums, View<float*, Space> centered) {
  const int segments = static_cast<int>(sums.extent(0));
  // One team per segment, one lane per member.
  Kokkos::parallel_for(
      "basics::center_segments", TeamPolicy<Space>(space, segments, launch.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int s = team.league_rank();  // this team's segment
        int begin = 0, end = 0;
        // TODO(roughly 6 lines): begin and end of segment s, offsets(s) and offsets(s + 1):
        //   read by member 0 alone, then known to every member.
        float total = 0.0f;
        // TODO(roughly 3 lines): total, the sum of values(begin) .. values(end - 1), on every
        //   member: each member adds up its share of them, then the team combines the members'
        //   sums. sums(s) gets it, written once.
        const float mean = end > begin ? total / static_cast<float>(end - begin) : 0.0f;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int i) { centered(i) = values(i) - mean; });
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TEAM_KERNELS)

}  // namespace kpz::basics::exercise

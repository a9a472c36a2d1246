// basics reference solution, steps 10-13: TeamPolicy and TeamThreadRange, team scratch, the vector
// lanes of a member, then the team's collectives.
// exercises/basics/teams.cpp is generated from this file by cmake/kpz-skeletons: each
// KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "basics/basics.hpp"

namespace kpz::basics::reference {

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
        // KPZ-TODO(roughly 4 lines): reverse this team's elements of in into out. count: how many
        //   it owns (tile, fewer in the last team); out(first + i), i < count, gets the i-th of
        //   them from the end; the members share them with a TeamThreadRange.
        const int count = Kokkos::min(tile, n - first);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count),
                             [&](int i) { out(first + i) = in(first + count - 1 - i); });
        // KPZ-END
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
        // KPZ-TODO(roughly 2 lines): stage this team's elements in s, then wait for every member.
        //   The count elements from in(first), copied by the members together (TeamThreadRange).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) { s(i) = in(first + i); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 2 lines): reverse s into out(first) .. out(first + count - 1). With a
        //   TeamThreadRange, reading only s.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int i) { out(first + i) = s(count - 1 - i); });
        // KPZ-END
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
        // KPZ-TODO(roughly 7 lines): y(first + r) for each of this team's rows r < count: that
        //   row of a times x. The rows shared among the members; the cols products of one row
        //   among the vector lanes of its member, which Kokkos sums; y written by one lane.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int r) {
          const int row = first + r;
          float dot = 0.0f;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, cols), [&](int j, float& sum) { sum += a(row * cols + j) * x(j); }, dot);
          Kokkos::single(Kokkos::PerThread(team), [&]() { y(row) = dot; });
        });
        // KPZ-END
        // KPZ-TODO(roughly 5 lines): out(r, j) for the team's count x cols elements, y(r) times
        //   a(r, j): one flat range over all of them, shared by every lane of every member at
        //   once. Another member wrote y(r): make sure it is there.
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, count * cols), [&](int e) {
          const int k = first * cols + e;  // element (first + e / cols, e % cols)
          out(k) = y(first + e / cols) * a(k);
        });
        // KPZ-END
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
        // KPZ-TODO(roughly 6 lines): begin and end of segment s, offsets(s) and offsets(s + 1):
        //   read by member 0 alone, then known to every member.
        if (team.team_rank() == 0) {
          begin = offsets(s);
          end = offsets(s + 1);
        }
        team.team_broadcast(begin, 0);
        team.team_broadcast(end, 0);
        // KPZ-END
        float total = 0.0f;
        // KPZ-TODO(roughly 3 lines): total, the sum of values(begin) .. values(end - 1), on every
        //   member: each member adds up its share of them, then the team combines the members'
        //   sums. sums(s) gets it, written once.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int i) { total += values(i); });
        team.team_reduce(Kokkos::Sum<float>(total));
        Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(s) = total; });
        // KPZ-END
        const float mean = end > begin ? total / static_cast<float>(end - begin) : 0.0f;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int i) { centered(i) = values(i) - mean; });
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_TEAM_KERNELS)

}  // namespace kpz::basics::reference

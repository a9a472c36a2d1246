// basics exercise: fill in every TODO, then run `kpuzzles run basics`
// (or the tests). Host builds race-check every pass; `kpuzzles trace basics --<variant>`
// draws the accesses. The solution is in reference/basics/, but try first: the hints are in
// docs/puzzles/basics.md. Generated from the reference: `kpuzzles reset basics` restores it
// (your work is kept as a backup).
#include "basics/basics.hpp"

namespace kpz::basics::exercise {

template <class Space>
void histogram_levels(const Space& space, const Launch& launch, int fast_bins, View<const int*, Space> values,
                      View<int*, Space> bins) {
  using Table = ScratchView<int*, Space>;
  const int n = static_cast<int>(values.extent(0));
  const int num_bins = static_cast<int>(bins.extent(0));
  const int slow_bins = num_bins - fast_bins;
  const int tile = launch.tile;
  Kokkos::deep_copy(space, bins, 0);
  // A team (CUDA: a block) per tile of `tile` values, the last one cut short by n. Its private
  // table of num_bins counters is in two parts: the first fast_bins in level-0 scratch (CUDA:
  // __shared__ memory), the other slow_bins in level-1 scratch (CUDA: the team's slice of a
  // pool in global memory): the views `fast` and `slow` below.
  TeamPolicy<Space> policy(space, 1, 1);
  // TODO(roughly 4 lines): make policy that launch: launch.team_size members of
  //   launch.vector_length lanes per team, a level-0 request per team for the bytes `fast`
  //   carves and a level-1 request for the bytes `slow` carves.
  Kokkos::parallel_for(
      "basics::histogram_levels", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;     // this team's first value
        const int count = Kokkos::min(tile, n - first);  // its values
        Table fast(team.team_scratch(0), fast_bins);     // fast(b): bin b, for b < fast_bins
        Table slow(team.team_scratch(1), slow_bins);     // slow(b - fast_bins): bin b, for the others
        // TODO(roughly 10 lines): the team's table counts its count values from first on, in
        //   the part of the table that holds each one's bin. Every counter starts from 0; every
        //   lane of every member works at once, on both phases.
        // TODO(roughly 9 lines): add the table to bins once every member has counted: the
        //   counters that are not 0, each added by one lane; other teams add to bins at the same
        //   time.
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_LEVEL_KERNELS)

}  // namespace kpz::basics::exercise

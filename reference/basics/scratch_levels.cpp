// basics reference solution, the last step: scratch at both levels, level 0 (CUDA: __shared__
// memory) for what fits in it, level 1 (CUDA: a per-team slice of global memory) for the rest.
// exercises/basics/scratch_levels.cpp is generated from this file by cmake/kpz-skeletons: each
// KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "basics/basics.hpp"

namespace kpz::basics::reference {

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
  // KPZ-TODO(roughly 4 lines): make policy that launch: launch.team_size members of
  //   launch.vector_length lanes per team, a level-0 request per team for the bytes `fast`
  //   carves and a level-1 request for the bytes `slow` carves.
  policy = TeamPolicy<Space>(space, (n + tile - 1) / tile, launch.team_size, launch.vector_length)
               .set_scratch_size(0, Kokkos::PerTeam(Table::shmem_size(fast_bins)))
               .set_scratch_size(1, Kokkos::PerTeam(Table::shmem_size(slow_bins)));
  // KPZ-END
  Kokkos::parallel_for(
      "basics::histogram_levels", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;     // this team's first value
        const int count = Kokkos::min(tile, n - first);  // its values
        Table fast(team.team_scratch(0), fast_bins);     // fast(b): bin b, for b < fast_bins
        Table slow(team.team_scratch(1), slow_bins);     // slow(b - fast_bins): bin b, for the others
        // KPZ-TODO(roughly 10 lines): the team's table counts its count values from first on, in
        //   the part of the table that holds each one's bin. Every counter starts from 0; every
        //   lane of every member works at once, on both phases.
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, fast_bins), [&](int b) { fast(b) = 0; });
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slow_bins), [&](int b) { slow(b) = 0; });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, count), [&](int i) {
          const int b = values(first + i);
          if (b < fast_bins)
            Kokkos::atomic_add(&fast(b), 1);
          else
            Kokkos::atomic_add(&slow(b - fast_bins), 1);
        });
        // KPZ-END
        // KPZ-TODO(roughly 9 lines): add the table to bins once every member has counted: the
        //   counters that are not 0, each added by one lane; other teams add to bins at the same
        //   time.
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, fast_bins), [&](int b) {
          const int c = fast(b);
          if (c != 0) Kokkos::atomic_add(&bins(b), c);
        });
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slow_bins), [&](int b) {
          const int c = slow(b);
          if (c != 0) Kokkos::atomic_add(&bins(fast_bins + b), c);
        });
        // KPZ-END
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BASICS_LEVEL_KERNELS)

}  // namespace kpz::basics::reference

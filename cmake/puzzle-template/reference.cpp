// @name@ reference solution. exercises/@name@/@name@.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "@name@/@name@.hpp"

namespace kpz::@ns@::reference {

template <class Space>
void tiled(const Space& space, const LaunchShape& launch, View<const float*, Space> in, View<float*, Space> out) {
  tile_launch(
      space, launch, "@name@::tiled", in.extent(0), tile_scratch_bytes<Space>,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const ScratchView<float*, Space> s(team.team_scratch(0), tile.size);
        // KPZ-TODO(roughly 3 lines): copy this tile's elements of `in` into s, then make the
        //   whole team wait until every element is there.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) { s(i) = in(tile.first + i); });
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 2 lines): write the staged tile back to `out` in reverse order.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count),
                             [&](int i) { out(tile.first + i) = s(tile.count - 1 - i); });
        // KPZ-END
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_@NS@_KERNELS)

}  // namespace kpz::@ns@::reference

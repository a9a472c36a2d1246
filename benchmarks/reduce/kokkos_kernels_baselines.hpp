#pragma once
// Kokkos Kernels' ways to sum, the library rows of `kpuzzles bench reduce` (tests/kokkos-kernels/
// checks them against the oracle on every space):
//  - device level: KokkosBlas::sum, one call for the whole array;
//  - team level: what --team-reduce's team body does (a team sums one tile), by the library:
//    KokkosBlas::Experimental::dot(team, tile, ones), since Kokkos Kernels has no team sum, then
//    KokkosBlas::sum over the teams' partial sums. The ones are one tile long and shared by every
//    team, so they stay in cache: the bytes that reach memory are the values', as for the puzzle.
// Built only with Kokkos Kernels (cmake/KpzKokkosKernels.cmake defines KPZ_HAS_KOKKOSKERNELS).
#if defined(KPZ_HAS_KOKKOSKERNELS)
#include <KokkosBlas1_sum.hpp>
#include <KokkosBlas1_team_dot.hpp>

#include <algorithm>
#include <cstddef>

#include "kpz/types.hpp"

namespace kpz::reduce::kokkos_kernels {

// result(0) = the sum of `in`, by KokkosBlas::sum (asynchronous: a rank-0 result view).
template <class Space, class T>
void device_sum(const Space& space, View<const T*, Space> in, View<T*, Space> result) {
  KokkosBlas::sum(space, Kokkos::subview(result, 0), in);
}

// A team of `team_size` threads per `tile` values, each calling the team-level dot; then
// KokkosBlas::sum over the partial sums. Owns its ones and partial sums.
template <class Space, class T>
class TeamDotSum {
 public:
  TeamDotSum(const Space& space, std::size_t n, int tile, int team_size)
      : space_(space),
        n_(n),
        tile_(static_cast<std::size_t>(tile)),
        team_size_(team_size),
        ones_(Kokkos::view_alloc(space, "kokkos_kernels::ones"), tile_),
        partial_(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kokkos_kernels::partial"),
                 std::max<std::size_t>(1, (n + tile_ - 1) / tile_)) {
    Kokkos::deep_copy(space, ones_, T(1));
  }

  std::size_t teams() const { return partial_.extent(0); }

  void operator()(View<const T*, Space> in, View<T*, Space> result) const {
    const auto n = n_;
    const auto tile = tile_;
    const auto ones = ones_;
    const auto partial = partial_;
    Kokkos::parallel_for(
        "reduce::kokkos_kernels::team_dot", TeamPolicy<Space>(space_, static_cast<int>(teams()), team_size_),
        KOKKOS_LAMBDA(const TeamMember<Space>& team) {
          const std::size_t first = static_cast<std::size_t>(team.league_rank()) * tile;
          const std::size_t last = first + tile < n ? first + tile : n;
          const auto values = Kokkos::subview(in, Kokkos::make_pair(first, last));
          const auto weights = Kokkos::subview(ones, Kokkos::make_pair(std::size_t{0}, last - first));
          const T sum = KokkosBlas::Experimental::dot(team, values, weights);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { partial(team.league_rank()) = sum; });
        });
    KokkosBlas::sum(space_, Kokkos::subview(result, 0), View<const T*, Space>(partial_));
  }

 private:
  Space space_;
  std::size_t n_, tile_;
  int team_size_;
  View<T*, Space> ones_, partial_;
};

}  // namespace kpz::reduce::kokkos_kernels
#endif

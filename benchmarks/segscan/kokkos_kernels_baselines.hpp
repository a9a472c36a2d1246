#pragma once
// Kokkos Kernels' ways to take segment totals, library rows of `kpuzzles bench segscan`
// (tests/kokkos-kernels/ checks them against the oracle on every space):
//  - device level: KokkosSparse::spmv with SPMV_NATIVE on the matrix whose row s holds segment
//    s's values, every column index 0, times x = [1]: the library's segmented sum. It reads a
//    column index per value on top of the values (4 bytes more per value than the puzzle);
//  - team level: what "team per segment, nested parallel_reduce" does, by the library: a team
//    per segment calling KokkosBlas::Experimental::dot(team, segment, ones) (Kokkos Kernels
//    has no team sum). The ones are as long as the longest segment.
// Built only with Kokkos Kernels (cmake/KpzKokkosKernels.cmake defines KPZ_HAS_KOKKOSKERNELS).
#if defined(KPZ_HAS_KOKKOSKERNELS)
#include <KokkosBlas1_team_dot.hpp>

#include <cstdint>
#include <memory>

#include "kpz/types.hpp"
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan::kokkos_kernels {

// sums(s) = the total of values[offsets(s), offsets(s + 1)) by KokkosSparse::spmv.
template <class Space>
class SpmvSegmentSums {
 public:
  SpmvSegmentSums(const Space& space, View<float*, Space> values, View<int*, Space> offsets, View<float*, Space> sums)
      : columns_(Kokkos::view_alloc(space, "kokkos_kernels::zero_columns"), values.extent(0)),
        one_(Kokkos::view_alloc(space, "kokkos_kernels::one"), 1) {
    Kokkos::deep_copy(space, one_, 1.0f);
    spmv_ = std::make_unique<KokkosKernelsSpmv<Space, float>>(space, static_cast<int>(sums.extent(0)), 1, offsets,
                                                              columns_, values, one_, sums);
  }
  void operator()() const { (*spmv_)(); }

 private:
  View<int*, Space> columns_;
  View<float*, Space> one_;
  std::unique_ptr<KokkosKernelsSpmv<Space, float>> spmv_;
};

// A team of `team_size` threads per segment, each calling the team-level dot with ones.
template <class Space>
class TeamDotSegmentSums {
 public:
  TeamDotSegmentSums(const Space& space, std::int64_t longest, int team_size)
      : space_(space),
        team_size_(team_size),
        ones_(Kokkos::view_alloc(space, "kokkos_kernels::ones"), static_cast<std::size_t>(longest)) {
    Kokkos::deep_copy(space, ones_, 1.0f);
  }

  void operator()(View<const float*, Space> values, View<const int*, Space> offsets, View<float*, Space> sums) const {
    const auto ones = ones_;
    Kokkos::parallel_for(
        "segscan::kokkos_kernels::team_dot", TeamPolicy<Space>(space_, static_cast<int>(sums.extent(0)), team_size_),
        KOKKOS_LAMBDA(const TeamMember<Space>& team) {
          const int s = team.league_rank();
          const auto segment = Kokkos::subview(values, Kokkos::make_pair(offsets(s), offsets(s + 1)));
          const auto weights = Kokkos::subview(ones, Kokkos::make_pair(0, offsets(s + 1) - offsets(s)));
          const float sum = KokkosBlas::Experimental::dot(team, segment, weights);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(s) = sum; });
        });
  }

 private:
  Space space_;
  int team_size_;
  View<float*, Space> ones_;
};

}  // namespace kpz::segscan::kokkos_kernels
#endif

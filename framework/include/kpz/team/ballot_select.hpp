#pragma once
// Stable ranking of a group's selected elements, one element per member and step: the warp
// ballot behind CUB's BlockScan of selection flags in its DeviceSelect, with the member passed
// first as in Kokkos Kernels' team interfaces. It is BallotBinRank with one bin, so one ballot
// and one popcount per element instead of three ballots and two shuffles.
//
// A group is a CUDA warp (`Warps`: 32 lanes, team size a multiple of 32, vector length 1; see
// BallotBinRank::warps_possible) or, on every other backend, one member. Step j holds the group's
// elements j * group + lane (the striped arrangement): "earlier" is an earlier step, or the same
// step and a lower lane. No scratch, no barrier.
#include <Kokkos_Core.hpp>

#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

template <class Space, bool Warps>
class BallotSelect {
 public:
  static constexpr int group_size = Warps ? 32 : 1;

  KOKKOS_INLINE_FUNCTION explicit BallotSelect(const TeamMember<Space>& team)
      : lane_(Warps ? team.team_rank() & 31 : 0), lower_(Warps ? (1u << lane_) - 1u : 0u) {}

  // The member's place in its group (0 .. group_size - 1).
  KOKKOS_INLINE_FUNCTION int lane() const { return lane_; }

  // Starts a new set of elements (the count restarts from zero).
  KOKKOS_INLINE_FUNCTION void reset() { seen_ = 0; }

  // Collective over the group. Returns the number of the group's earlier selected elements (the
  // element's place among the selected ones, if it is selected itself).
  KOKKOS_INLINE_FUNCTION int step(bool selected) {
    if constexpr (Warps) {
      const unsigned lanes = detail::ballot(selected);
      const int before = seen_ + Kokkos::popcount(lanes & lower_);
      seen_ += Kokkos::popcount(lanes);
      return before;
    } else {
      const int before = seen_;
      seen_ += selected ? 1 : 0;
      return before;
    }
  }

  // The group's selected elements since reset() (the same on every lane).
  KOKKOS_INLINE_FUNCTION int count() const { return seen_; }

 private:
  int lane_;
  unsigned lower_;  // warp: the lanes below this one
  int seen_ = 0;
};

}  // namespace kpz::team

#pragma once
// Stable ranking by bin (up to 8 bins) of a group's elements, one element per member and step,
// modelled on the warp-level match of CUB's BlockRadixRankMatch (three ballots of a 3-bit digit
// tell every lane which lanes share its digit), with the member passed first as in Kokkos
// Kernels' team interfaces.
//
// A group is a CUDA warp (`Warps`: 32 lanes, team size a multiple of 32, vector length 1) or,
// on every other backend, one member. A group's elements of a tile are taken in steps, one
// element per member and step: step j holds the group's elements j * group + lane (the striped
// arrangement), so "earlier" is an earlier step, or the same step and a lower lane, and a rank
// that counts those is stable. step() gives an element its rank among the group's earlier
// elements of its bin; counts() gives the group's elements per bin so far.
//
// Warp path, per step and element: three ballots of the bin's bits; lane l (bins l = 0..7)
// turns them into the mask of the step's lanes NOT in bin l and counts them; an element reads
// its bin's mask and its bin's running count from lane `bin` (two shuffles) and adds the lanes
// of its bin below it (one popcount). No scratch, no barrier: nothing waits for another warp.
// Elsewhere: one member, a running count per bin.
//
// Values per bin (counts, places) travel as PerBin: on a warp lane b holds bin b's value (lanes
// b + 8k hold copies), elsewhere the member holds all eight.
#include <Kokkos_Core.hpp>

#include "kpz/backend_traits.hpp"
#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

template <class Space, bool Warps>
class BallotBinRank {
 public:
  static constexpr int max_bins = 8;
  static constexpr int group_size = Warps ? 32 : 1;

  // Warps where a team is made of whole CUDA warps (kpz::warp_groups); one member per group
  // everywhere else.
  KOKKOS_INLINE_FUNCTION static constexpr bool warps_possible(int team_size) { return warp_groups<Space>(team_size); }

  struct PerBin {
    int v[Warps ? 1 : max_bins];
  };

  KOKKOS_INLINE_FUNCTION explicit BallotBinRank(const TeamMember<Space>& team)
      : lane_(Warps ? team.team_rank() & 31 : 0) {
    if constexpr (Warps) {
      lower_ = (1u << lane_) - 1u;
      for (int k = 0; k < 3; ++k) lane_bits_[k] = (lane_ >> k) & 1 ? ~0u : 0u;
    }
    reset();
  }

  // The member's place in its group (0 .. group_size - 1).
  KOKKOS_INLINE_FUNCTION int lane() const { return lane_; }

  // Starts a new set of elements (the counts restart from zero).
  KOKKOS_INLINE_FUNCTION void reset() {
    if constexpr (Warps) {
      seen_ = 0;
      others_ = 0;
    } else {
      for (int b = 0; b < max_bins; ++b) run_[b] = 0;
    }
  }

  // Collective over the group. `bin` (0 .. 7) is the member's element of this step; an element
  // with `valid` false is not counted (its result means nothing). MaybeInvalid = false promises
  // that every element of the step is valid. Returns bin + 32 * rank, the rank being the number
  // of the group's earlier valid elements of the same bin: packed so that the low 5 bits, all a
  // warp shuffle reads of a lane index, are the bin (see get()).
  template <bool MaybeInvalid>
  KOKKOS_INLINE_FUNCTION unsigned step(int bin, bool valid) {
    if constexpr (Warps) {
      const unsigned b = static_cast<unsigned>(bin);
      const unsigned b0 = detail::ballot_bit(b, 1), b1 = detail::ballot_bit(b, 2), b2 = detail::ballot_bit(b, 4);
      unsigned not_mine = (b0 ^ lane_bits_[0]) | (b1 ^ lane_bits_[1]) | (b2 ^ lane_bits_[2]);  // lane's bin: lane & 7
      if constexpr (MaybeInvalid) not_mine |= ~detail::ballot(valid);
      const unsigned others_of_bin = detail::shfl_words(not_mine, bin);
      const int before = detail::shfl_words(seen_ - others_, bin);
      others_ += Kokkos::popcount(not_mine);
      seen_ += 32;
      return b + (static_cast<unsigned>(before + Kokkos::popcount(~others_of_bin & lower_)) << 5);
    } else {
      const int before = run_[bin];
      run_[bin] += valid ? 1 : 0;
      return static_cast<unsigned>(bin) + (static_cast<unsigned>(before) << 5);
    }
  }

  // The group's valid elements per bin since reset().
  KOKKOS_INLINE_FUNCTION PerBin counts() const {
    PerBin out;
    if constexpr (Warps)
      out.v[0] = seen_ - others_;
    else
      for (int b = 0; b < max_bins; ++b) out.v[b] = run_[b];
    return out;
  }

  // Bin b's value of p, where b is any int whose low 3 bits are the bin (a step() result will
  // do). Collective on a warp.
  KOKKOS_INLINE_FUNCTION int get(const PerBin& p, unsigned b) const {
    if constexpr (Warps)
      return detail::shfl_words(p.v[0], static_cast<int>(b));
    else
      return p.v[b & 7];
  }

  // f(b) for every bin the member holds.
  template <class F>
  KOKKOS_INLINE_FUNCTION PerBin make(const F& f) const {
    PerBin out;
    if constexpr (Warps)
      out.v[0] = f(lane_ & 7);
    else
      for (int b = 0; b < max_bins; ++b) out.v[b] = f(b);
    return out;
  }

  // f(b, value) once per bin over the group (on a warp by lanes 0..7).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each(const PerBin& p, const F& f) const {
    if constexpr (Warps) {
      if (lane_ < max_bins) f(lane_, p.v[0]);
    } else {
      for (int b = 0; b < max_bins; ++b) f(b, p.v[b]);
    }
  }

  // Per bin b, f(b, a_b, c_b).
  template <class F>
  KOKKOS_INLINE_FUNCTION PerBin zip(const PerBin& a, const PerBin& c, const F& f) const {
    PerBin out;
    if constexpr (Warps)
      out.v[0] = f(lane_ & 7, a.v[0], c.v[0]);
    else
      for (int b = 0; b < max_bins; ++b) out.v[b] = f(b, a.v[b], c.v[b]);
    return out;
  }

  // Per bin, the sum of p over the lower bins. Collective on a warp.
  KOKKOS_INLINE_FUNCTION PerBin exclusive_scan(const PerBin& p) const {
    PerBin out;
    if constexpr (Warps) {
      int inclusive = p.v[0];
      for (int d = 1; d < max_bins; d *= 2) {
        const int u = detail::shfl_up_words(inclusive, d);
        if ((lane_ & 7) >= d) inclusive += u;  // every eight lanes scan their own copy
      }
      out.v[0] = inclusive - p.v[0];
    } else {
      int run = 0;
      for (int b = 0; b < max_bins; ++b) {
        out.v[b] = run;
        run += p.v[b];
      }
    }
    return out;
  }

 private:
  int lane_;
  unsigned lower_ = 0;                      // warp: the lanes below this one
  unsigned lane_bits_[Warps ? 3 : 1] = {};  // warp: bit k of the lane's bin as 0 or ~0
  int seen_ = 0, others_ = 0;               // warp: elements so far, and those not of bin lane & 7
  int run_[Warps ? 1 : max_bins] = {};      // one member: elements so far per bin
};

}  // namespace kpz::team

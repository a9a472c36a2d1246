#pragma once
// Stable ranking by bin of one group's tile, with no team barrier: modelled on the warp-level
// ranking of CUB's onesweep radix sort (each warp ranks its own keys with shuffles, no
// __syncthreads), with the member passed first as in Kokkos Kernels' team interfaces.
//
// A group is a CUDA warp (32 lanes, team size a multiple of 32, vector length 1) or, on every
// other backend, one member. Each member owns `Items` consecutive elements of its group's tile
// (the blocked arrangement). After rank() every member can ask, element after element in its own
// order, where that element goes in the bin-ordered group tile, and knows where each bin starts
// there and how many elements it has. Groups never wait for each other: a team's groups can be
// at different tiles, which is the point (a team barrier per tile made every warp of a team wait
// for the slowest one's loads).
//
// Counts live in registers, packed: 16 bits per bin, four bins per 64-bit word, two words for up
// to 8 bins. Adding two packed words adds every bin at once (no field ever exceeds the tile), and
// multiplying a word by 0x0001000100010001 gives in every field the sum of the fields up to it.
// Warp path: a 5-step __shfl_up_sync scan of the two words gives each lane the counts of the
// lanes before it, and one shuffle from lane 31 gives the tile's counts. No scratch.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

template <class Space>
class GroupBinRank {
 public:
  using Word = unsigned long long;
  static constexpr int max_bins = 8;       // two words of four 16-bit fields
  static constexpr int max_tile = 65535;   // a field holds any count of a group's tile
  static constexpr Word kOnes = 0x0001000100010001ull;

  // True when a group is a warp: CUDA, team size a multiple of 32 (vector length 1 assumed).
  KOKKOS_INLINE_FUNCTION static constexpr bool uses_warps(int team_size) {
#if defined(KOKKOS_ENABLE_CUDA) && !defined(KPZ_TRACE)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return team_size % 32 == 0;
#endif
    (void)team_size;
    return false;
  }
  // Members per group.
  KOKKOS_INLINE_FUNCTION static constexpr int group_size(int team_size) { return uses_warps(team_size) ? 32 : 1; }

  // What rank() gives one member: where its elements go, and the group tile's bins.
  struct Ranks {
    Word next[2];   // per bin: the place of the member's next element of that bin
    Word start[2];  // per bin: where the bin starts in the bin-ordered group tile
    Word count[2];  // per bin: its elements in the group tile

    // The place of the member's next element, of bin b (call it for the member's valid elements
    // in their order: the k-th call for bin b gives its k-th element of bin b).
    KOKKOS_INLINE_FUNCTION int take(int b) {
      const int shift = 16 * (b & 3);
      const bool low = b < 4;
      const int place = static_cast<int>(((low ? next[0] : next[1]) >> shift) & 0xffff);
      const Word one = Word(1) << shift;
      next[0] += low ? one : 0;
      next[1] += low ? 0 : one;
      return place;
    }
    KOKKOS_INLINE_FUNCTION int bin_start(int b) const { return GroupBinRank::field(start, b); }
    KOKKOS_INLINE_FUNCTION int bin_count(int b) const { return GroupBinRank::field(count, b); }
  };

  KOKKOS_INLINE_FUNCTION explicit GroupBinRank(const TeamMember<Space>& team)
      : warps_(uses_warps(team.team_size())), lane_(warps_ ? team.team_rank() & 31 : 0) {}

  // The member's place in its group (0 .. group_size - 1).
  KOKKOS_INLINE_FUNCTION int lane() const { return lane_; }

  // Collective over the group (all its members call it; on the warp path the whole warp).
  // bin_at(k) is the bin (0 .. max_bins - 1) of the member's k-th element; the first `valid` of
  // its elements are counted. No barrier and no scratch.
  template <int Items, class BinAt>
  KOKKOS_INLINE_FUNCTION Ranks rank(const BinAt& bin_at, int valid) const {
    static_assert(Items * 32 <= max_tile, "a group tile must fit a 16-bit field");
    Word c[2] = {0, 0};
    count<Items>(bin_at, valid, c);
    const Word c0 = c[0], c1 = c[1];
    Word before0 = 0, before1 = 0, total0 = c0, total1 = c1;
    if (warps_) {
      Word s0 = c0, s1 = c1;
      for (int d = 1; d < 32; d *= 2) {
        const Word u0 = detail::shfl_up_words(s0, d), u1 = detail::shfl_up_words(s1, d);
        s0 += lane_ >= d ? u0 : 0;
        s1 += lane_ >= d ? u1 : 0;
      }
      before0 = s0 - c0;
      before1 = s1 - c1;
      total0 = detail::shfl_words(s0, 31);
      total1 = detail::shfl_words(s1, 31);
    }
    // Exclusive prefix over the bins: within each word by the multiply, and the second word's
    // bins start after all of the first word's (its top inclusive field).
    const Word incl0 = total0 * kOnes;
    Ranks out;
    out.start[0] = incl0 - total0;
    out.start[1] = total1 * kOnes - total1 + (incl0 >> 48) * kOnes;
    out.count[0] = total0;
    out.count[1] = total1;
    out.next[0] = out.start[0] + before0;
    out.next[1] = out.start[1] + before1;
    return out;
  }

  // Adds the bins of the member's first `valid` elements to its packed counts c (counting
  // without ranking; each field must stay below 65536).
  template <int Items, class BinAt>
  KOKKOS_INLINE_FUNCTION static void count(const BinAt& bin_at, int valid, Word (&c)[2]) {
    for (int k = 0; k < Items; ++k) {
      const int b = bin_at(k);
      const Word inc = Word(k < valid) << (16 * (b & 3));
      c[0] += b < 4 ? inc : 0;
      c[1] += b < 4 ? 0 : inc;
    }
  }
  // Field b of packed counts.
  KOKKOS_INLINE_FUNCTION static int field(const Word (&c)[2], int b) {
    return static_cast<int>(((b < 4 ? c[0] : c[1]) >> (16 * (b & 3))) & 0xffff);
  }

  // The sum of v over the group; every member gets it (a butterfly of shuffles on a warp).
  KOKKOS_INLINE_FUNCTION int sum(int v) const {
    if (warps_)
      for (int m = 16; m >= 1; m /= 2) v += detail::shfl_xor_words(v, m);
    return v;
  }

  // The group's barrier: orders its members' scratch writes before their later reads.
  KOKKOS_INLINE_FUNCTION void sync() const {
    if (warps_) detail::sync_warp();
  }

 private:
  bool warps_;
  int lane_;
};

}  // namespace kpz::team

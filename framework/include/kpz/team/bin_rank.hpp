#pragma once
// Stable ranking of a tile's elements by bin (a counting sort of the tile), modelled on CUB's
// BlockRadixRank: one collective, its scratch request stated next to it, the team member passed
// first. Each member owns `items` consecutive elements of the tile (the blocked arrangement);
// after rank() every member can ask, element after element in its own order, where that element
// goes in the bin-ordered tile, and every member knows where each bin starts in the tile and how
// many elements it has there.
//
// Counts live in registers, packed: 16 bits per bin, four bins per 64-bit word, two words for up
// to 8 bins. Adding two packed words adds every bin at once (no field ever exceeds the tile, so
// nothing carries into the next field), and multiplying a word by 0x0001000100010001 gives in
// every field the sum of the fields up to it: the inclusive prefix over its four bins.
//
// The members are grouped; each group's counts are summed and published once:
// - warp path (CUDA only): a group is a warp of 32 members (team size a multiple of 32, vector
//   length 1). A 5-step __shfl_up_sync scan of the packed words gives every lane the counts of
//   the lanes before it, and the last lane publishes the warp's total: two words per warp;
// - portable path (every backend; what the host backends run): a group is one member, which
//   publishes its own counts.
// One team barrier, then every member adds up the groups' words in registers: the groups before
// its own (its place within each bin) and all of them (the tile's bin counts, whose packed
// prefix gives the bins' starts). Cost per element: a bin, a shift and an add while counting,
// the same again while placing; per tile: one barrier and 2 x groups shared-memory reads.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

enum class BinRankPath { best, portable };

namespace detail {
using PackedCounts = unsigned long long;

// Inclusive sum over the 32 lanes of a warp of a packed word (all lanes must call it).
KOKKOS_INLINE_FUNCTION PackedCounts warp_inclusive_sum(PackedCounts v, int lane) {
  KOKKOS_IF_ON_DEVICE((
      for (int d = 1; d < 32; d *= 2) {
        const PackedCounts u = shfl_up_words(v, d);
        if (lane >= d) v += u;
      }))
  (void)lane;
  return v;
}
}  // namespace detail

template <class Space>
class BinRank {
 public:
  using Word = detail::PackedCounts;
  static constexpr int max_bins = 8;       // two words of four 16-bit fields
  static constexpr int max_tile = 65535;   // a field holds any count of a tile
  static constexpr Word kOnes = 0x0001000100010001ull;

  // True when a group is a warp: CUDA, team size a multiple of 32 (vector length 1 assumed).
  KOKKOS_INLINE_FUNCTION static bool uses_warps(int team_size, BinRankPath path = BinRankPath::best) {
#if defined(KOKKOS_ENABLE_CUDA) && !defined(KPZ_TRACE)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return path == BinRankPath::best && team_size % 32 == 0;
#endif
    (void)team_size;
    (void)path;
    return false;
  }
  KOKKOS_INLINE_FUNCTION static int groups(int team_size, BinRankPath path = BinRankPath::best) {
    return uses_warps(team_size, path) ? team_size / 32 : team_size;
  }

  // Level-0 scratch one team requests: two buffers (tiles alternate between them, so a tile's
  // words can be written while slower members still read the previous tile's) of two words per
  // group.
  static std::size_t scratch_bytes(int team_size, BinRankPath path = BinRankPath::best) {
    return ScratchView<Word*, Space>::shmem_size(4 * static_cast<std::size_t>(groups(team_size, path)));
  }

  // What rank() gives one member: where its elements go, and the tile's bins.
  struct Ranks {
    Word next[2];   // per bin: the place of the member's next element of that bin
    Word start[2];  // per bin: where the bin starts in the bin-ordered tile
    Word count[2];  // per bin: its elements in the tile

    // The place in the bin-ordered tile of the member's next element, of bin b (call it for the
    // member's valid elements in their order: the k-th call for bin b gives its k-th element).
    KOKKOS_INLINE_FUNCTION int take(int b) {
      const int shift = 16 * (b & 3);
      const bool low = b < 4;
      const int place = static_cast<int>(((low ? next[0] : next[1]) >> shift) & 0xffff);
      const Word one = Word(1) << shift;
      next[0] += low ? one : 0;
      next[1] += low ? 0 : one;
      return place;
    }
    KOKKOS_INLINE_FUNCTION int bin_start(int b) const { return field(start, b); }
    KOKKOS_INLINE_FUNCTION int bin_count(int b) const { return field(count, b); }

   private:
    KOKKOS_INLINE_FUNCTION static int field(const Word (&w)[2], int b) {
      return static_cast<int>(((b < 4 ? w[0] : w[1]) >> (16 * (b & 3))) & 0xffff);
    }
  };

  // Carves its buffers out of level-0 scratch (in the order the caller's views expect).
  KOKKOS_INLINE_FUNCTION BinRank(const TeamMember<Space>& team, BinRankPath path = BinRankPath::best)
      : warps_(uses_warps(team.team_size(), path)),
        groups_(groups(team.team_size(), path)),
        words_(team.team_scratch(0), 4 * groups_) {}

  // Collective (every member calls it, with the same `half`, 0 or 1, alternating between tiles).
  // bin_at(k) is the bin (0 .. max_bins - 1) of the member's k-th element; the first `valid` of
  // its elements are counted. Contains exactly one team barrier, and nothing after it writes
  // scratch: whatever a member wrote to scratch before the call is visible to all after it.
  // Requires: every bin < max_bins, tile <= max_tile, items per member <= 2047 on the warp path.
  template <int Items, class BinAt>
  KOKKOS_INLINE_FUNCTION Ranks rank(const TeamMember<Space>& team, const BinAt& bin_at, int valid, int half) const {
    Word c0 = 0, c1 = 0;
    for (int k = 0; k < Items; ++k) {
      const int b = bin_at(k);
      const Word inc = Word(k < valid) << (16 * (b & 3));
      c0 += b < 4 ? inc : 0;
      c1 += b < 4 ? 0 : inc;
    }
    const int r = team.team_rank();
    const int group = warps_ ? r / 32 : r;
    Word lane0 = 0, lane1 = 0;  // this member's place within its group, per bin
    const int base = 2 * groups_ * half;
    if (warps_) {
      const int lane = r & 31;
      const Word s0 = detail::warp_inclusive_sum(c0, lane), s1 = detail::warp_inclusive_sum(c1, lane);
      lane0 = s0 - c0;
      lane1 = s1 - c1;
      if (lane == 31) {
        words_(base + 2 * group) = s0;
        words_(base + 2 * group + 1) = s1;
      }
    } else {
      words_(base + 2 * group) = c0;
      words_(base + 2 * group + 1) = c1;
    }
    team.team_barrier();
    Word before0 = 0, before1 = 0, total0 = 0, total1 = 0;
    for (int g = 0; g < groups_; ++g) {
      const Word w0 = words_(base + 2 * g), w1 = words_(base + 2 * g + 1);
      before0 += g < group ? w0 : 0;
      before1 += g < group ? w1 : 0;
      total0 += w0;
      total1 += w1;
    }
    // Exclusive prefix over the bins: within each word by the multiply, and the second word's
    // bins start after all of the first word's (its top inclusive field).
    const Word incl0 = total0 * kOnes;
    Ranks out;
    out.start[0] = incl0 - total0;
    out.start[1] = total1 * kOnes - total1 + (incl0 >> 48) * kOnes;
    out.count[0] = total0;
    out.count[1] = total1;
    out.next[0] = out.start[0] + before0 + lane0;
    out.next[1] = out.start[1] + before1 + lane1;
    return out;
  }

 private:
  bool warps_;
  int groups_;
  ScratchView<Word*, Space> words_;
};

}  // namespace kpz::team

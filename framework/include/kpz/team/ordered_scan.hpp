#pragma once
// A team scan under any associative operator, commutative or not: one element per member, in
// team-rank order. Kokkos' team scans are sum-only and apply their operands in a
// backend-dependent order, so a segmented scan's (value, flag) operator cannot use them.
//
// Two implementations behind one call, picked per launch:
// - scratch (portable): every member writes its element, and member m joins elements 0..m-1
//   serially (host teams have at most 64 members; two barriers in all);
// - shuffle (CUDA only): when the team's threads form whole warps -- team size a multiple of 32,
//   vector length 1 -- a Kogge-Stone scan inside each warp with __shfl_up_sync (5 steps, no
//   barrier), the warps' totals through scratch, and one serial join over the earlier warps'
//   totals (team size / 32 of them): two barriers instead of log2(team size) rounds of them.
// join(earlier, later) is always called with the earlier operand first.
#include <Kokkos_Core.hpp>

#include <cstddef>

#include "kpz/backend_traits.hpp"
#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

enum class ScanPath { best, scratch };

template <class P>
struct ScanResult {
  P exclusive;  // the join of the elements of lower ranks (the identity for rank 0)
  P inclusive;  // the same joined with this member's element
};

template <class Space, class P>
class OrderedScan {
 public:
  using Buffer = ScratchView<P*, Space>;

  // Level-0 scratch one team requests (either path).
  static std::size_t scratch_bytes(int team_size) { return Buffer::shmem_size(static_cast<std::size_t>(team_size)); }

  // True when the shuffle path runs: the team is made of whole warps (kpz::warp_groups: CUDA,
  // team size a multiple of 32; vector length 1, which kpz::check_warp_launch checks before a
  // launch).
  KOKKOS_INLINE_FUNCTION static bool uses_shuffle(int team_size, ScanPath path = ScanPath::best) {
    return path == ScanPath::best && warp_groups<Space>(team_size);
  }

  // Carves team_size elements out of level-0 scratch (every member constructs it in the same
  // order relative to the kernel's other scratch views).
  KOKKOS_INLINE_FUNCTION OrderedScan(const TeamMember<Space>& team, ScanPath path = ScanPath::best)
      : buffer_(team.team_scratch(0), team.team_size()), shuffle_(uses_shuffle(team.team_size(), path)) {}

  // Collective: every member calls it, in code all members reach (not inside a
  // TeamThreadRange or a divergent branch). Starts and ends with barriers, so the scratch
  // buffer is free again on return.
  template <class Join>
  KOKKOS_INLINE_FUNCTION ScanResult<P> scan(const TeamMember<Space>& team, const P& x, const P& identity,
                                            const Join& join) const {
    const int rank = team.team_rank();
    if (shuffle_) {
      const int lane = rank % 32;  // vector length 1: team rank r is thread r of the block
      const int warp = rank / 32;
      P inclusive = x;
      for (int d = 1; d < 32; d *= 2) {
        const P before = detail::shfl_up_words(inclusive, d);
        if (lane >= d) inclusive = join(before, inclusive);
      }
      P exclusive = detail::shfl_up_words(inclusive, 1);
      if (lane == 0) exclusive = identity;
      if (lane == 31) buffer_(warp) = inclusive;
      team.team_barrier();
      P prefix = identity;
      for (int w = 0; w < warp; ++w) prefix = join(prefix, buffer_(w));
      team.team_barrier();  // the caller may reuse the buffer's scratch after the call
      return ScanResult<P>{join(prefix, exclusive), join(prefix, inclusive)};
    }
    buffer_(rank) = x;
    team.team_barrier();
    P exclusive = identity;
    for (int r = 0; r < rank; ++r) exclusive = join(exclusive, buffer_(r));
    team.team_barrier();
    return ScanResult<P>{exclusive, join(exclusive, x)};
  }

 private:
  Buffer buffer_;
  bool shuffle_;
};

}  // namespace kpz::team

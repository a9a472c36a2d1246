#pragma once
// XOR exchange (the butterfly) over logical lanes, modelled on CUB's block primitives: one
// collective, its scratch request stated next to it, the team member passed first.
//
// Lanes are logical. A team owns a tile of `lanes` values; value i is lane i % group of group
// i / group (group a power of two). Members visit the lanes with TeamThreadRange, so any team
// size works: OpenMP teams of 1, 2 or 8 threads, Serial's single member, a CUDA block of 256.
//
// Two implementations behind one call, picked per launch:
// - scratch (portable): lane values in team scratch, updated in place: the lower lane of each
//   XOR pair reads both values and writes both results (pairs never overlap), so one
//   team_barrier per step and one buffer suffice;
// - shuffle (CUDA only): when each warp holds whole groups -- team size a multiple of 32, lanes a
//   multiple of 4 x the team size, group <= 32, vector length 1 -- lane i and lane i ^ mask are
//   threads of one warp in the same TeamThreadRange iteration, and __shfl_xor_sync swaps the
//   registers with no barrier at all between steps.
#include <Kokkos_Core.hpp>

#include <cstddef>

#include "kpz/backend_traits.hpp"
#include "kpz/team/warp_shuffle.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

enum class XorPath { best, scratch };

template <class Space, class T>
class XorExchange {
 public:
  using Buffer = ScratchView<T*, Space>;

  // Level-0 scratch one team requests for a tile of `lanes` lanes (both paths use it: the lane
  // values live there between the caller's loads and stores).
  static std::size_t scratch_bytes(int lanes) { return Buffer::shmem_size(lanes); }

  // True when the team's threads form whole warps of 32 consecutive team ranks (kpz::warp_groups:
  // CUDA, team size a multiple of 32; vector length 1, which kpz::check_warp_launch checks before
  // a launch). shuffle() is then valid in code that all 32 threads of a warp execute together:
  // straight-line code outside any range, or one TeamThreadRange(team, 32) iteration (ranks
  // 0..31, which make up warp 0).
  KOKKOS_INLINE_FUNCTION static bool full_warps(int team_size) { return warp_groups<Space>(team_size); }

  // True when the shuffle path runs for this launch (the test suite checks both paths agree).
  KOKKOS_INLINE_FUNCTION static bool uses_shuffle(int team_size, int lanes, int group, XorPath path = XorPath::best) {
    return path == XorPath::best && full_warps(team_size) && lanes % (4 * team_size) == 0 && group <= 32;
  }

  // Register-level exchange for kernels that keep lane values in registers (the fastest CUDA
  // kernels: no scratch, no barrier). Returns the value of the thread whose team rank is
  // rank ^ mask (mask < 32). Valid only where full_warps() holds (uses_shuffle() implies it), in
  // code that every thread of the warp executes; elsewhere it returns `value` unchanged.
  KOKKOS_INLINE_FUNCTION static T shuffle(const T& value, int mask) { return detail::shfl_xor_words(value, mask); }

  // Carves its buffer out of level-0 scratch: construct it before any other scratch view.
  KOKKOS_INLINE_FUNCTION XorExchange(const TeamMember<Space>& team, int lanes, int group, XorPath path = XorPath::best)
      : values_(team.team_scratch(0), lanes),
        lanes_(lanes),
        group_(group),
        shuffle_(uses_shuffle(team.team_size(), lanes, group, path)) {}

  // The lane values: write them before a collective, read them after.
  KOKKOS_INLINE_FUNCTION const Buffer& values() const { return values_; }

  // Collective (every member calls it). For mask = from, from/2, ..., to:
  //   value(i) <- combine(i, value(i), value(i ^ mask)) for every lane i.
  // Starts and ends with the barriers that make the caller's writes and reads safe.
  template <class Combine>
  KOKKOS_INLINE_FUNCTION void butterfly(const TeamMember<Space>& team, int from, int to, const Combine& combine) {
    team.team_barrier();
    const Buffer v = values_;
    if (shuffle_) {
      // Four independent lanes per member and iteration (q, q + Q, q + 2Q, q + 3Q with
      // Q = lanes / 4, a multiple of the team size): four shuffle chains in flight at once.
      const int quarter = lanes_ / 4;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, quarter), [&](int q) {
        T x[4];
        for (int k = 0; k < 4; ++k) x[k] = v(q + k * quarter);
        for (int mask = from; mask >= to; mask /= 2)
          for (int k = 0; k < 4; ++k) x[k] = combine(q + k * quarter, x[k], detail::shfl_xor_words(x[k], mask));
        for (int k = 0; k < 4; ++k) v(q + k * quarter) = x[k];
      });
      team.team_barrier();
      return;
    }
    for (int mask = from; mask >= to; mask /= 2) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lanes_), [&](int i) {
        const int j = i ^ mask;
        if (j < i) return;  // the lower lane of the pair does the work for both
        const T a = v(i), b = v(j);
        v(i) = combine(i, a, b);
        v(j) = combine(j, b, a);
      });
      team.team_barrier();  // the next step reads what other members wrote in this one
    }
  }

  // One exchange: value(i) <- combine(i, value(i), value(i ^ mask)).
  template <class Combine>
  KOKKOS_INLINE_FUNCTION void exchange(const TeamMember<Space>& team, int mask, const Combine& combine) {
    butterfly(team, mask, mask, combine);
  }

  // Every lane ends with op over its group (masks group/2 ... 1).
  template <class Op>
  KOKKOS_INLINE_FUNCTION void all_reduce(const TeamMember<Space>& team, const Op& op) {
    butterfly(team, group_ / 2, 1, [&](int, const T& a, const T& b) { return op(a, b); });
  }

 private:
  Buffer values_;
  int lanes_, group_;
  bool shuffle_;
};

}  // namespace kpz::team

#pragma once
// Register exchange between the 32 threads of a CUDA warp, for the shuffle paths of the team
// collectives in this folder (XorExchange, OrderedScan, BallotBinRank). Kokkos 5.0.2 has no public
// lane-exchange API, so the collectives call these inside code that every thread of a full warp
// executes, and only where their `uses_...` predicate says a team is made of whole warps.
// Any trivially copyable value travels 32 bits at a time. On the host (and in host code) the
// functions return `value` unchanged: the portable paths never call them for an exchange.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace kpz::team::detail {

enum class Shuffle { xor_lane, up, from_lane };

// Moves any trivially copyable value between lanes, one 32-bit word at a time.
template <Shuffle How, class T>
KOKKOS_INLINE_FUNCTION T shuffle_words(const T& value, int operand) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0);
  T out = value;
  KOKKOS_IF_ON_DEVICE((unsigned words[sizeof(T) / 4]; memcpy(words, &value, sizeof(T));
                       for (std::size_t w = 0; w < sizeof(T) / 4; ++w) {
                         if constexpr (How == Shuffle::xor_lane)
                           words[w] = __shfl_xor_sync(0xffffffffu, words[w], operand, 32);
                         else if constexpr (How == Shuffle::up)
                           words[w] = __shfl_up_sync(0xffffffffu, words[w], operand, 32);
                         else
                           words[w] = __shfl_sync(0xffffffffu, words[w], operand, 32);
                       } memcpy(&out, words, sizeof(T));))
  (void)operand;
  return out;
}

// The value of lane (lane ^ mask).
template <class T>
KOKKOS_INLINE_FUNCTION T shfl_xor_words(const T& value, int mask) {
  return shuffle_words<Shuffle::xor_lane>(value, mask);
}

// The value of lane (lane - delta); lanes below delta get their own value back.
template <class T>
KOKKOS_INLINE_FUNCTION T shfl_up_words(const T& value, int delta) {
  return shuffle_words<Shuffle::up>(value, delta);
}

// The value of lane `src` (every lane gets the same).
template <class T>
KOKKOS_INLINE_FUNCTION T shfl_words(const T& value, int src) {
  return shuffle_words<Shuffle::from_lane>(value, src);
}

// The lanes of a full warp whose `value` has bit `bit` set (__ballot_sync). Written as one PTX
// block so that ptxas sees the mask test next to the vote: for three bits of one value it then
// makes the three predicates with a single R2P (__ballot_sync(~0u, v & bit) compiled to a shift,
// a mask and a compare per bit). On the host: `value`'s bit as 0 or 1 (a group of one lane).
KOKKOS_INLINE_FUNCTION unsigned ballot_bit(unsigned value, unsigned bit) {
  unsigned lanes = (value & bit) != 0u;
  KOKKOS_IF_ON_DEVICE((asm("{\n .reg .pred p;\n .reg .b32 t;\n and.b32 t, %1, %2;\n setp.ne.u32 p, t, 0;\n"
                           " vote.sync.ballot.b32 %0, p, 0xffffffff;\n}"
                           : "=r"(lanes)
                           : "r"(value), "r"(bit));))
  return lanes;
}

// The lanes of a full warp whose `predicate` holds.
KOKKOS_INLINE_FUNCTION unsigned ballot(bool predicate) {
  unsigned lanes = predicate ? 1u : 0u;
  KOKKOS_IF_ON_DEVICE((lanes = __ballot_sync(0xffffffffu, predicate);))
  return lanes;
}

}  // namespace kpz::team::detail

namespace kpz::team {

// The sum of `value` over the 32 lanes of a full CUDA warp, in every lane (five xor shuffles).
// Call it only where every lane of the warp runs it (a team of whole warps); on the host a group
// is one lane, so the sum is `value`.
template <class T>
KOKKOS_INLINE_FUNCTION T warp_sum(T value) {
  KOKKOS_IF_ON_DEVICE((for (int mask = 16; mask > 0; mask /= 2) value += detail::shfl_xor_words(value, mask);))
  return value;
}

}  // namespace kpz::team

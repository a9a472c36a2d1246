#pragma once
// A team's ring of `Slots` tiles in level-0 scratch, filled from global memory ahead of use. On
// Hopper (CUDA sm_90) one member starts a bulk copy of the whole tile (cp.async.bulk, the TMA
// unit) that completes on an mbarrier in scratch: the next tiles' loads are in flight without
// holding a single register while the team works on the current one. Elsewhere (host backends,
// older GPUs, or a source that is not 16-byte aligned) fill() copies the tile with the whole
// team at once and wait() has nothing to wait for.
//
// Contract (both paths): the constructor, fill() and wait() are collective (every member calls
// them). A slot is filled again only after every member is done with it, which the caller orders
// with a team barrier; a filled slot is read only after a team barrier that follows the fill (the
// synchronous copy needs it) and after wait() with the parity of that fill (the k-th fill of a
// slot has parity k & 1).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "kpz/backend_traits.hpp"
#include "kpz/types.hpp"

namespace kpz::team {

namespace detail {
#if KPZ_CUDA_ARCH >= 900
inline constexpr bool kBulkCopy = true;
#else
inline constexpr bool kBulkCopy = false;
#endif

// The PTX of the bulk path; empty where there is no bulk copy (those builds never call them).
KOKKOS_INLINE_FUNCTION void mbarrier_init(std::uint64_t* bar) {
#if KPZ_CUDA_ARCH >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(bar)))
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)bar;
#endif
}
KOKKOS_INLINE_FUNCTION void bulk_copy(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
#if KPZ_CUDA_ARCH >= 900
  const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src), "r"(bytes), "r"(b)
               : "memory");
#else
  (void)dst, (void)src, (void)bytes, (void)bar;
#endif
}
KOKKOS_INLINE_FUNCTION void mbarrier_wait(std::uint64_t* bar, unsigned parity) {
#if KPZ_CUDA_ARCH >= 900
  asm volatile(
      "{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra "
      "WAIT_%=;\n}\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(bar))),
      "r"(parity)
      : "memory");
#else
  (void)bar, (void)parity;
#endif
}
}  // namespace detail

template <class Space, int Slots>
class TileRing {
 public:
  // Level-0 scratch of a ring of `tile`-float tiles: the slots, one mbarrier per slot, and
  // slack for the 16-byte alignment the bulk copy needs.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes(int tile) {
    return Slots * static_cast<std::size_t>(tile) * sizeof(float) + Slots * sizeof(std::uint64_t) + 16;
  }

  // `bulk`: the caller allows bulk copies (its source is 16-byte aligned and tiles are whole
  // Quads); they happen only where the device has them.
  KOKKOS_INLINE_FUNCTION TileRing(const TeamMember<Space>& team, int tile, bool bulk) : tile_(tile) {
    char* base = static_cast<char*>(team.team_scratch(0).get_shmem_aligned(scratch_bytes(tile) - 16, 16));
    data_ = reinterpret_cast<float*>(base);
    bars_ = reinterpret_cast<std::uint64_t*>(base + Slots * static_cast<std::size_t>(tile) * sizeof(float));
    bulk_ = bulk && is_cuda_v<Space> && detail::kBulkCopy && tile % 4 == 0;
    if (bulk_ && team.team_rank() == 0)
      for (int s = 0; s < Slots; ++s) detail::mbarrier_init(bars_ + s);
    // ptxas may run member 0's initialisation on the warp's uniform datapath, which
    // compute-sanitizer's racecheck then attributes to another lane of the warp: a barrier
    // orders it before any fill for every checker too (once per team).
    team.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION float* slot(int s) const { return data_ + static_cast<std::size_t>(s) * tile_; }

  // Starts filling slot s with the tile at src (tile floats).
  KOKKOS_INLINE_FUNCTION void fill(const TeamMember<Space>& team, int s, const float* src) const {
    if (bulk_) {
      if (team.team_rank() == 0)
        detail::bulk_copy(slot(s), src, static_cast<unsigned>(tile_ * sizeof(float)), bars_ + s);
    } else {
      float* dst = slot(s);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile_), [&](int i) { dst[i] = src[i]; });
    }
  }

  // Waits until slot s holds the tile of its fill with parity `parity`.
  KOKKOS_INLINE_FUNCTION void wait(int s, unsigned parity) const {
    if (bulk_) detail::mbarrier_wait(bars_ + s, parity);
  }

 private:
  int tile_;
  float* data_;
  std::uint64_t* bars_;
  bool bulk_;
};

}  // namespace kpz::team

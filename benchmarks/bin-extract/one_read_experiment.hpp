#pragma once
// A candidate lesson form for bin-extract --team-scan that reads the input once (the bench's
// experiment rows). Plain Kokkos: no ballot, no bulk copies, no backend branch. Team c walks chunk
// c of the input tile after tile; member r of a tile owns `items` consecutive elements (a blocked
// arrangement, so the members' order is the elements' order), counts its selected ones, and
// team_scan with the chunk's running count as its `global` accumulator gives the member its place
// in the chunk's region of `staging` (the running count plus the lower members' counts). The
// member then writes its selected elements there. The fast extract's place launch moves every
// chunk's selection to `out`. Bytes: the input once, the selection three times (written to
// staging, read, written to out): 5.5N for 8 bins, against 8.5N for the two-read lesson.
#include <Kokkos_Core.hpp>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/fast/common.hpp"
#include "bin-extract/fast/kernels.hpp"

namespace kpz::bin_extract {

// Registers: K loads per member issued before any compare (K = items on a GPU, where they stay in
// registers across the team_scan); a host member's run is read twice, the second time from L1.
template <int K, class Space>
void one_read_compact(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                      View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts) {
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks;
  const long tiles = layout.tiles;
  const int items = tile / layout.team_size;
  const auto policy = TeamPolicy<Space>(space, chunks, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(1)));
  Kokkos::parallel_for(
      "bin_extract::one_read_compact", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<int*, Space> s_kept(team.team_scratch(0), 1);  // the chunk's selected elements so far
        Kokkos::single(Kokkos::PerTeam(team), [&]() { s_kept(0) = 0; });
        team.team_barrier();
        const int c = team.league_rank();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        const long region = t0 * tile;  // where the chunk's selection goes in staging
        for (long t = t0; t < t1; ++t) {
          const long first = t * tile + static_cast<long>(team.team_rank()) * items;
          const int mine_n = static_cast<int>(Kokkos::max(0L, Kokkos::min(static_cast<long>(items), n - first)));
          if (items == K) {
            float x[K];
            unsigned keep = 0;
            for (int u = 0; u < K; ++u) x[u] = u < mine_n ? in(first + u) : 0.0f;
            for (int u = 0; u < K; ++u)
              keep |= (u < mine_n && bin_of(x[u], num_bins) == target_bin ? 1u : 0u) << u;
            int at = team.team_scan(static_cast<int>(Kokkos::Experimental::popcount_builtin(keep)), &s_kept(0));
            for (int u = 0; u < K; ++u)
              if ((keep >> u) & 1u) staging(region + at++) = x[u];
          } else {
            // Word by word: a word's selection as a bit mask (a loop a CPU vectorises), counted
            // with popcount, recomputed after the scan from L1, and only its set bits visited.
            const auto mask = [&](long w0, int len) {
              unsigned bits = 0;
              for (int j = 0; j < len; ++j) bits |= (bin_of(in(w0 + j), num_bins) == target_bin ? 1u : 0u) << j;
              return bits;
            };
            int mine = 0;
            for (int w = 0; w < mine_n; w += 32)
              mine += static_cast<int>(Kokkos::Experimental::popcount_builtin(mask(first + w, Kokkos::min(32, mine_n - w))));
            int at = team.team_scan(mine, &s_kept(0));
            for (int w = 0; w < mine_n; w += 32)
              for (unsigned bits = mask(first + w, Kokkos::min(32, mine_n - w)); bits != 0; bits &= bits - 1)
                staging(region + at++) = in(first + w + Kokkos::Experimental::countr_zero_builtin(bits));
          }
        }
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&]() { chunk_counts(c) = s_kept(0); });
      });
}

}  // namespace kpz::bin_extract

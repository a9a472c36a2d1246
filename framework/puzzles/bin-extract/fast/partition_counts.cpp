// Pass 1 of the framework's fast partition (`kpuzzles bench bin-extract --partition`): per-chunk
// (or per-part) histograms of the bins, which the last team to finish turns into every chunk's
// places in the output.
#include "bin-extract/fast/common.hpp"
#include "kpz/relaxed_load.hpp"
#include "kpz/team/warp_shuffle.hpp"

namespace kpz::bin_extract {

// The end of every pass-1 team, after it wrote its (bin, part) counts: the last team to finish
// (the one whose arrival makes `teams`: CUDA's "threadfence reduction") turns all the counts into
// places, so the scan needs no launch of its own. Entries [0, E) of `counts` are the counts,
// bin-major (bin b starts at entry b * per_bin); entry E receives the total and entry E + 1
// counts the arrivals (zeroed before the launch). The last team also writes bin_offsets.
template <class Space>
KOKKOS_INLINE_FUNCTION void places_if_last(const TeamMember<Space>& team, const View<int*, Space>& counts, int entries,
                                           int teams, int num_bins, int per_bin, const View<int*, Space>& bin_offsets) {
  Kokkos::memory_fence();  // the member's counts are visible to every team before its team arrives
  team.team_barrier();
  int last = 0;
  Kokkos::single(
      Kokkos::PerTeam(team),
      [&](int& is_last) { is_last = Kokkos::atomic_fetch_add(&counts(entries + 1), 1) == teams - 1; }, last);
  if (!last) return;  // the whole team leaves: `last` is the same for every member
  // Every member has read `last` before the team_scan below: Kokkos' Threads backend broadcasts it
  // in the word its team_scan writes first (the team root's, with no barrier before the write), and
  // a member reading the root's partial sum there instead left the kernel (a crash, or a hang).
  team.team_barrier();
  Kokkos::memory_fence();  // every other team's counts are visible from here on
  // Written by other teams: relaxed atomic loads (kpz/relaxed_load.hpp), which no L1 serves stale.
  const int* from = counts.data();
  // Member r scans entries [lo, hi): up to kHeld of them are read once, into registers (all
  // loads in flight together); a longer share (a huge league) is read again after the team scan.
  constexpr int kHeld = 24;
  const int T = team.team_size(), per = (entries + T - 1) / T;
  const int lo = Kokkos::min(entries, team.team_rank() * per), hi = Kokkos::min(entries, lo + per);
  int held[kHeld];  // constant indices only: registers, not local memory
  int sum = 0;
  for (int i = 0; i < kHeld; ++i) {
    held[i] = lo + i < hi ? load_relaxed(&from[lo + i]) : 0;
    sum += held[i];
  }
  for (int e = lo + kHeld; e < hi; ++e) sum += load_relaxed(&from[e]);
  int run = team.team_scan(sum);  // every member has read its entries before any writes
  for (int i = 0; i < kHeld; ++i)
    if (lo + i < hi) {
      counts(lo + i) = run;
      run += held[i];
    }
  for (int e = lo + kHeld; e < hi; ++e) {
    const int count = load_relaxed(&from[e]);
    counts(e) = run;
    run += count;
  }
  if (hi == entries && lo < hi) counts(entries) = run;  // the member with the last entry
  team.team_barrier();                                  // the places are written
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins + 1),
                       [&](int b) { bin_offsets(b) = counts(b < num_bins ? b * per_bin : entries); });
}

// Pass 1, a chunk per team (table rank): per-chunk histograms, bin-major: entry
// b * chunks + c. Nothing is ranked here: each member counts its elements per bin (in registers,
// added to its own column of a scratch table after each tile), and the team adds the columns up
// once, at the end of its chunk.
template <class Space>
void partition_histograms_teams(const Space& space, const PartitionLayout& layout, int num_bins,
                                View<const float*, Space> in, View<int*, Space> chunk_offsets,
                                View<int*, Space> bin_offsets) {
  constexpr int Items = fast_items<Space>();
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks, entries = num_bins * chunks;
  const long tiles = layout.tiles;
  const int table_ints = fast_table_ints(layout.team_size, num_bins);
  const bool aligned = is_quad_aligned(in.data());
  const auto count_policy = ChunkPolicy<Space>(space, layout.chunks, layout.team_size)
                                .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(table_ints)));
  Kokkos::parallel_for(
      "bin_extract::partition_histograms", count_policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<int*, Space> table(team.team_scratch(0), table_ints);
        const int c = team.league_rank(), r = team.team_rank(), T = team.team_size();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = 0;  // only this member touches its column
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, r, [&](long, long first, const float(&x)[Items]) {
          if (packed_counts<Items>(num_bins)) {
            PackedCounts counts;  // 8 bits per bin: at most Items < 256 per tile
            for (int k = 0; k < Items; ++k) counts.add(bin_of(x[k], num_bins), U64(first + k < n));
            for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) += counts.get(b);
          } else {
            for (int k = 0; k < Items; ++k)
              if (first + k < n) ++table(padded(bin_of(x[k], num_bins) * T + r));
          }
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins), [&](int b) {
          int sum = 0;
          for (int m = 0; m < T; ++m) sum += table(padded(b * T + m));
          chunk_offsets(b * chunks + c) = sum;
        });
        places_if_last<Space>(team, chunk_offsets, entries, chunks, num_bins, chunks, bin_offsets);
      });
}

// Pass 1 of the ballot partition: a team per part of a chunk (layout.parts per chunk), counting
// the part's tiles. A group (a warp when the team is made of warps, else one member) reads its
// own contiguous share of a tile, 4 Quads per member: step j's Quads are share + j * G + lane, so
// every load instruction of a warp reads 512 contiguous bytes and its four read 2 KB. Counts go
// into 8-bit fields of one word (1 << 8 * bin: no selects), moved to 32-bit totals before a field
// can overflow; the team adds its members' totals at the end of its part, and the last team to
// finish turns all the counts into places.
template <class Space, bool Warps>
void partition_histograms_parts_run(const Space& space, const PartitionLayout& layout, int num_bins,
                                    View<const float*, Space> in, View<int*, Space> chunk_offsets,
                                    View<int*, Space> bin_offsets) {
  constexpr int Items = kBallotItems, Quads = Items / 4, B = 8;
  constexpr int flush_every = 255 / Items;  // tiles an 8-bit field can count
  static_assert(Items % 4 == 0 && flush_every >= 1);
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, parts = layout.chunks * layout.parts, entries = num_bins * parts;
  const long tiles = layout.tiles;
  const bool aligned = is_quad_aligned(in.data());
  const int chunks = layout.chunks, P = layout.parts;
  // Each member's 32-bit totals live in scratch (its own column of a (bin, member) table, touched
  // once per flush_every tiles), not in eight registers.
  const auto policy =
      BallotPolicy<Space, kBallotPass1TeamsPerSm>(space, parts, layout.team_size)
          .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(B * layout.team_size)));
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "bin_extract::partition_histograms_parts", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int k = team.league_rank(), r = team.team_rank(), T = team.team_size();
        ScratchView<int*, Space> s_total(team.team_scratch(0), B * T);  // entry b * T + r: member r's bin b
        constexpr int G = Warps ? 32 : 1;                    // a compile-time step: the four loads share one address
        const int first_quad = (r / G) * G * Quads + r % G;  // step j: + j * G
        // Part p of chunk c counts every P-th tile of the chunk from its p-th on, last to first.
        // Pass 2 needs only whole chunks' counts, so how a chunk is dealt to its parts is free:
        // dealt this way, every part ends on the chunk's first tiles, which pass 2 reads first,
        // and when it starts the most recently read of them are still in L2.
        const int c = k / P, p = k % P;
        const long c0 = chunk_begin(tiles, chunks, c), c1 = chunk_begin(tiles, chunks, c + 1);
        const long mine = c1 - c0 > p ? (c1 - c0 - p + P - 1) / P : 0;
        for (int b = 0; b < B; ++b) s_total(b * T + r) = 0;
        U64 packed = 0;
        int since = 0;
        for (long i = mine - 1; i >= 0; --i) {
          const long t = c0 + p + i * P;
          if (aligned && (t + 1) * tile <= n) {
            const Quad* q = reinterpret_cast<const Quad*>(in.data() + t * tile) + first_quad;
            Quad v[Quads];
            for (int j = 0; j < Quads; ++j) v[j] = q[j * G];  // all loads issued before any use
            for (int j = 0; j < Quads; ++j)
              for (int e = 0; e < 4; ++e) packed += U64(1) << (8 * bin_of(v[j].v[e], num_bins));
          } else {  // the input's partial last tile, or a misaligned input: element by element
            for (int j = 0; j < Quads; ++j)
              for (int e = 0; e < 4; ++e) {
                const long x = t * tile + 4 * (static_cast<long>(first_quad) + j * G) + e;
                if (x < n) packed += U64(1) << (8 * bin_of(in(x), num_bins));
              }
          }
          if (++since == flush_every) {
            for (int b = 0; b < B; ++b) s_total(b * T + r) += static_cast<int>((packed >> (8 * b)) & 0xff);
            packed = 0;
            since = 0;
          }
        }
        for (int b = 0; b < B; ++b) s_total(b * T + r) += static_cast<int>((packed >> (8 * b)) & 0xff);
        // The part's count of bin b: column sums of the table, one barrier and a group per bin
        // (on a warp: each lane adds T / 32 entries, five shuffles add the lanes), instead of a
        // team reduction per bin (two barriers each).
        team.team_barrier();
        const int g = r / G, lane = r % G, groups = T / G;
        for (int b = g; b < num_bins; b += groups) {
          int sum = 0;
          for (int m = lane; m < T; m += G) sum += s_total(b * T + m);
          if constexpr (Warps) sum = kpz::team::warp_sum(sum);
          if (lane == 0) chunk_offsets(b * parts + k) = sum;
        }
        places_if_last<Space>(team, chunk_offsets, entries, parts, num_bins, parts, bin_offsets);
      });
}

template <class Space>
void partition_histograms_parts(const Space& space, const PartitionLayout& layout, int num_bins,
                                View<const float*, Space> in, View<int*, Space> chunk_offsets,
                                View<int*, Space> bin_offsets) {
  with_warp_groups<Space>(layout.team_size, [&](auto warps) {
    partition_histograms_parts_run<Space, decltype(warps)::value>(space, layout, num_bins, in, chunk_offsets,
                                                                  bin_offsets);
  });
}

template <class Space>
void partition_histograms(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                          View<int*, Space> chunk_offsets, View<int*, Space> bin_offsets) {
  // The arrival counter of places_if_last starts at zero (a memset, no kernel).
  const std::size_t counter = static_cast<std::size_t>(num_bins) * layout.chunks * layout.parts + 1;
  Kokkos::deep_copy(space, Kokkos::subview(chunk_offsets, std::make_pair(counter, counter + 1)), 0);
  if (layout.rank == PartitionRank::ballot)
    partition_histograms_parts(space, layout, num_bins, in, chunk_offsets, bin_offsets);
  else
    partition_histograms_teams(space, layout, num_bins, in, chunk_offsets, bin_offsets);
}

#define KPZ_BIN_EXTRACT_FAST_COUNTS_INSTANTIATE(S)                                                                   \
  template void partition_histograms<S>(const S&, const PartitionLayout&, int, View<const float*, S>, View<int*, S>, \
                                        View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_COUNTS_INSTANTIATE)

}  // namespace kpz::bin_extract

// The kernels `kpuzzles bench bin-extract` measures against CUB and Kokkos (compiled once per
// space: a kernel lambda in a header that several translation units instantiate is an ODR trap
// under nvcc). The learner's kernels are in reference/ and exercises/; these are what the docs'
// "solution explained" section walks through as the fast versions.
#include <cstdint>

#include "bin-extract/bin-extract.hpp"
#include "kpz/check.hpp"

namespace kpz::bin_extract {

void validate_input(const std::vector<float>& values) { require_finite(values, "bin-extract input"); }

namespace {

using U64 = unsigned long long;

// Loads member-owned elements first .. first + Items - 1 (0 past n) into x: 16-byte loads when the
// whole range is inside the input and the data is 16-byte aligned, scalar loads otherwise.
template <int Items, class Space>
KOKKOS_INLINE_FUNCTION void load_items(const View<const float*, Space>& in, long n, long first, bool aligned,
                                       float (&x)[Items]) {
  if (aligned && first + Items <= n) {
    const Quad* q = reinterpret_cast<const Quad*>(in.data() + first);
    Quad v[Items / 4];
    for (int j = 0; j < Items / 4; ++j) v[j] = q[j];  // all loads issued before any use
    for (int j = 0; j < Items / 4; ++j)
      for (int e = 0; e < 4; ++e) x[4 * j + e] = v[j].v[e];
  } else {
    for (int k = 0; k < Items; ++k) x[k] = first + k < n ? in(first + k) : 0.0f;
  }
}

// Entry f of the (bin, member) count table with one padding slot per 32 entries: in the scan a
// member reads its num_bins consecutive entries, so without padding the members of a warp would
// meet in a few banks (stride num_bins); with it, in distinct ones.
KOKKOS_INLINE_FUNCTION int padded(int f) { return f + (f >> 5); }

// Per-member counts in registers, 8 bits per bin, two words: for up to 16 bins when a member owns
// fewer than 256 elements (a GPU; a host member owns 1024 and counts in scratch).
template <int Items>
KOKKOS_INLINE_FUNCTION bool packed_counts(int num_bins) {
  return Items < 256 && num_bins <= 16;
}

// Ranks a tile's elements by bin (a stable counting sort of the tile). Member r's count of bin b
// goes to table entry b * T + r (bin-major), and one exclusive scan over all entries in that order
// leaves in entry (b, r) the place in the bin-ordered tile of member r's first element of bin b:
// every element of a lower bin, and of bin b held by lower ranks, comes before it. Member r owns
// entries r * num_bins .. r * num_bins + num_bins - 1 of the scan, so a single team_scan of one
// int per member does it. Ends with a barrier: the table is complete for everyone.
template <int Items, class Space>
KOKKOS_INLINE_FUNCTION void rank_tile_by_bin(const TeamMember<Space>& team, const ScratchView<int*, Space>& table,
                                             int num_bins, const float (&x)[Items], long first, long n) {
  const int T = team.team_size(), r = team.team_rank();
  if (packed_counts<Items>(num_bins)) {
    U64 lo = 0, hi = 0;
    for (int k = 0; k < Items; ++k) {
      const int b = bin_of(x[k], num_bins);
      const U64 inc = U64(first + k < n) << (8 * (b & 7));
      if (b < 8) lo += inc;
      else hi += inc;
    }
    for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = static_cast<int>(((b < 8 ? lo : hi) >> (8 * (b & 7))) & 0xff);
  } else {
    for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = 0;  // only this member touches its column
    for (int k = 0; k < Items; ++k)
      if (first + k < n) ++table(padded(bin_of(x[k], num_bins) * T + r));
  }
  team.team_barrier();
  int sum = 0;
  for (int j = 0; j < num_bins; ++j) sum += table(padded(r * num_bins + j));
  int run = team.team_scan(sum);  // every member has read its chunk before any returns
  for (int j = 0; j < num_bins; ++j) {
    const int f = padded(r * num_bins + j), c = table(f);
    table(f) = run;
    run += c;
  }
  team.team_barrier();
}

}  // namespace

// The chunk kernels keep two tiles' values in registers (the one being ranked, the next one in
// flight): ptxas gave them 94-101 registers per thread, i.e. two teams of 256 per SM (25 %
// occupancy). Launch bounds cap them at 64 (2 teams of 512 or 4 of 256 per SM). The trace
// build's policy takes no launch bounds (it runs on the host).
#if defined(KPZ_TRACE)
template <class Space>
using ChunkPolicy = TeamPolicy<Space>;
#else
template <class Space>
using ChunkPolicy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<512, 2>>;
#endif

// The grouped partition kernels run teams of at most 256 (8 warps), and their warps never wait
// for each other, so the warps resident per SM are what hides their latency: MinBlocks teams per
// SM set the register cap (65536 / (256 x MinBlocks)). ptxas: pass 1 fits 64 registers (4 teams)
// without spills. Pass 2 (x[16], next[16], the packed ranks and eight copy-outs in flight live)
// spills at any cap below its 102 registers, and spills cost more than warps gain (H100,
// N = 2^28, session 6): 1.057 ms at 80 registers (3 teams, 16 bytes spilled), 1.016 ms at 102
// (2 teams, none); session 5's kernel: 1.53 ms at 64 registers, 1.22 ms at 80.
#if defined(KPZ_TRACE)
template <class Space, int MinBlocks>
using GroupedPolicy = TeamPolicy<Space>;
#else
template <class Space, int MinBlocks>
using GroupedPolicy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<256, MinBlocks>>;
#endif

// Elements of a tile each member of pass 2 copies out at once (see partition_scatter_grouped).
constexpr int kCopyOutUnroll = 8;

// Chunk c of `chunks` owns tiles [chunk_begin(c), chunk_begin(c + 1)) of `tiles`: an even share.
KOKKOS_INLINE_FUNCTION long chunk_begin(long tiles, int chunks, int c) { return tiles * c / chunks; }

// How many of the member's Items elements from `first` on are inside the input.
template <int Items>
KOKKOS_INLINE_FUNCTION int items_inside(long n, long first) {
  const long left = n - first;
  return left < 0 ? 0 : left < Items ? static_cast<int>(left) : Items;
}

// The walk every chunk kernel makes: tiles t0 .. t1 - 1 in order, this member's Items elements of
// each (it is member `slot` of the tile) in registers, and the next tile's loads issued before
// body(t, first, x) works on tile t, so they are in flight while it runs (barriers in the body
// would otherwise leave the memory idle). `first` is the index of x[0] in the input.
template <int Items, class Space, class Body>
KOKKOS_INLINE_FUNCTION void for_each_tile(const View<const float*, Space>& in, long n, bool aligned, long t0, long t1,
                                          int tile, int slot, const Body& body) {
  float x[Items], next[Items];
  if (t0 < t1) load_items<Items, Space>(in, n, t0 * tile + static_cast<long>(slot) * Items, aligned, x);
  for (long t = t0; t < t1; ++t) {
    const long first = t * tile + static_cast<long>(slot) * Items;
    if (t + 1 < t1) load_items<Items, Space>(in, n, first + tile, aligned, next);
    body(t, first, x);
    for (int k = 0; k < Items; ++k) x[k] = next[k];
  }
}

template <class Space>
void extract_chunked(const Space& space, const FastLaunch& launch, int num_bins, int target_bin,
                     View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts,
                     View<float*, Space> out, View<int*, Space> count) {
  constexpr int Items = fast_items<Space>();
  static_assert(Items % 4 == 0, "items per member must be whole Quads");
  const long n = static_cast<long>(in.extent(0));
  const int team_size = launch.team_size, tile = launch.tile, chunks = launch.chunks;
  const long tiles = launch.tiles;
  const bool aligned = is_quad_aligned(in.data());
  // Two staging buffers and two totals, alternating between tiles: a tile's selection is staged
  // while the previous one may still be being copied out, so one barrier per tile is enough.
  const std::size_t scratch = ScratchView<float*, Space>::shmem_size(2 * tile) + ScratchView<int*, Space>::shmem_size(2);

  // 1. Every team compacts its chunk, tile after tile, into its own region of `staging` (the
  //    region starts where the chunk does, so it always has room). Within a team the order is
  //    the input's; no team waits for another.
  Kokkos::parallel_for(
      "bin_extract::extract_chunks",
      ChunkPolicy<Space>(space, chunks, team_size).set_scratch_size(0, Kokkos::PerTeam(scratch)),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_out(team.team_scratch(0), 2 * tile);  // the tile's selection, in order
        ScratchView<int*, Space> s_total(team.team_scratch(0), 2);
        const int c = team.league_rank(), rank = team.team_rank();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        const long region = t0 * tile;  // this team's part of `staging`
        int kept = 0;                   // selected elements of the chunk so far
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, rank, [&](long t, long first, const float(&x)[Items]) {
          int mine = 0;
          for (int k = 0; k < Items; ++k) mine += (first + k < n) & (bin_of(x[k], num_bins) == target_bin);
          const int before = team.team_scan(mine);
          // Buffer `half` was last read by the copy-out two tiles ago, which every member
          // finished before the previous tile's barrier.
          const int half = static_cast<int>((t - t0) & 1), base = half * tile;
          int pos = base + before;
          for (int k = 0; k < Items; ++k) {
            const int sel = (first + k < n) & (bin_of(x[k], num_bins) == target_bin);
            if (sel) s_out(pos) = x[k];
            pos += sel;
          }
          if (rank == team.team_size() - 1) s_total(half) = before + mine;
          team.team_barrier();  // the tile's selection is staged
          const int selected = s_total(half);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, selected),
                               [&](int i) { staging(region + kept + i) = s_out(base + i); });
          kept += selected;
        });
        Kokkos::single(Kokkos::PerTeam(team), [&] { chunk_counts(c) = kept; });
      });

  // 2. Every chunk's selection moves to its place: after the selections of all earlier chunks
  //    (an exclusive sum of a few hundred counts, which each team adds up itself). Only the
  //    selected elements travel again: an eighth of the input for 8 bins.
  Kokkos::parallel_for(
      "bin_extract::extract_place", TeamPolicy<Space>(space, chunks, team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int c = team.league_rank(), rank = team.team_rank(), T = team.team_size();
        long prefix = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, c), [&](int i, long& acc) { acc += chunk_counts(i); }, prefix);
        const long region = chunk_begin(tiles, chunks, c) * tile, kept = chunk_counts(c);
        // Eight independent loads per member and step (consecutive members, consecutive
        // elements): one load in flight per thread would leave the bandwidth unused.
        constexpr int U = 8;
        for (long i = rank; i < kept; i += U * static_cast<long>(T)) {
          float v[U];
          for (int u = 0; u < U; ++u) v[u] = i + u * T < kept ? staging(region + i + u * T) : 0.0f;
          for (int u = 0; u < U; ++u)
            if (i + u * T < kept) out(prefix + i + u * T) = v[u];
        }
        if (c == chunks - 1) Kokkos::single(Kokkos::PerTeam(team), [&] { count(0) = static_cast<int>(prefix + kept); });
      });
}

// Pass 1, a chunk per team (table rank): per-chunk histograms, bin-major: entry
// b * chunks + c. Nothing is ranked here: each member counts its elements per bin (in registers,
// added to its own column of a scratch table after each tile), and the team adds the columns up
// once, at the end of its chunk.
template <class Space>
void partition_histograms_teams(const Space& space, const PartitionLayout& layout, int num_bins,
                                View<const float*, Space> in, View<int*, Space> chunk_offsets) {
  constexpr int Items = fast_items<Space>();
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks;
  const long tiles = layout.tiles;
  const int table_ints = fast_table_ints(layout.team_size, num_bins);
  const bool aligned = is_quad_aligned(in.data());
  const auto count_policy = ChunkPolicy<Space>(space, layout.league, layout.team_size)
                                .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(table_ints)));
  Kokkos::parallel_for(
      "bin_extract::partition_histograms", count_policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<int*, Space> table(team.team_scratch(0), table_ints);
        const int c = team.league_rank(), r = team.team_rank(), T = team.team_size();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = 0;  // only this member touches its column
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, r, [&](long, long first, const float(&x)[Items]) {
          if (packed_counts<Items>(num_bins)) {
            U64 lo = 0, hi = 0;  // 8 bits per bin: at most Items < 256 per tile
            for (int k = 0; k < Items; ++k) {
              const int b = bin_of(x[k], num_bins);
              const U64 inc = U64(first + k < n) << (8 * (b & 7));
              if (b < 8) lo += inc;
              else hi += inc;
            }
            for (int b = 0; b < num_bins; ++b)
              table(padded(b * T + r)) += static_cast<int>(((b < 8 ? lo : hi) >> (8 * (b & 7))) & 0xff);
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
      });
}

// Pass 1, a chunk per group (grouped rank): each member counts its elements in packed 16-bit
// fields (kpz::team::GroupBinRank::count), moved to 32-bit totals before a field can overflow;
// the group adds its members' totals with shuffles at the end of its chunk. No scratch, no barrier.
template <class Space>
void partition_histograms_grouped(const Space& space, const PartitionLayout& layout, int num_bins,
                                  View<const float*, Space> in, View<int*, Space> chunk_offsets) {
  using Rank = kpz::team::GroupBinRank<Space>;
  using Word = typename Rank::Word;
  constexpr int Items = fast_items<Space>();
  constexpr int B = Rank::max_bins;
  constexpr long flush_every = 65535 / Items;  // tiles a member's 16-bit fields can count
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks, G = layout.group, per_team = layout.groups_per_team;
  const long tiles = layout.tiles;
  const bool aligned = is_quad_aligned(in.data());
  Kokkos::parallel_for(
      "bin_extract::partition_histograms_grouped", GroupedPolicy<Space, 4>(space, layout.league, layout.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Rank ranker(team);
        const int lane = ranker.lane(), c = team.league_rank() * per_team + team.team_rank() / G;
        if (c >= chunks) return;  // a whole group leaves together
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        int total[B] = {};
        Word packed[2] = {0, 0};
        const auto flush = [&] {
          for (int b = 0; b < B; ++b) total[b] += Rank::field(packed, b);
          packed[0] = packed[1] = 0;
        };
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, lane, [&](long t, long first, const float(&x)[Items]) {
          Rank::template count<Items>([&](int k) { return bin_of(x[k], num_bins); }, items_inside<Items>(n, first), packed);
          if ((t - t0) % flush_every == flush_every - 1) flush();
        });
        flush();
        for (int b = 0; b < B; ++b) {
          const int sum = ranker.sum(total[b]);
          if (lane == 0 && b < num_bins) chunk_offsets(b * chunks + c) = sum;
        }
      });
}

template <class Space>
void partition_histograms(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                          View<int*, Space> chunk_offsets) {
  if (layout.rank == PartitionRank::grouped) partition_histograms_grouped(space, layout, num_bins, in, chunk_offsets);
  else partition_histograms_teams(space, layout, num_bins, in, chunk_offsets);
}

// The counts become places: one exclusive scan over (bin, chunk) in bin-major order, in place;
// bin b starts at entry b * chunks.
template <class Space>
void partition_offsets(const Space& space, const PartitionLayout& layout, int num_bins,
                       View<int*, Space> chunk_offsets, View<int*, Space> bin_offsets) {
  const int chunks = layout.chunks, entries = num_bins * chunks;
  Kokkos::parallel_scan(
      "bin_extract::partition_offsets", Kokkos::RangePolicy<Space>(space, 0, entries + 1),
      KOKKOS_LAMBDA(const int e, int& prefix, const bool final) {
        const int v = e < entries ? chunk_offsets(e) : 0;
        if (final) chunk_offsets(e) = prefix;
        prefix += v;
      });
  Kokkos::parallel_for(
      "bin_extract::partition_bin_offsets", Kokkos::RangePolicy<Space>(space, 0, num_bins + 1),
      KOKKOS_LAMBDA(const int b) { bin_offsets(b) = chunk_offsets(b * chunks); });
}

// Pass 2, a chunk per group (grouped rank): every group walks its chunk's tiles (group x items
// elements) alone: ranked by kpz::team::GroupBinRank (packed counts, warp shuffles), staged in bin
// order in the group's part of scratch, copied out with consecutive members writing consecutive
// places. Only the group's own barrier (a __syncwarp) orders staging and copy-out: no warp ever
// waits for another, so every warp keeps its next tile's loads in flight.
template <class Space>
void partition_scatter_grouped(const Space& space, const PartitionLayout& layout, int num_bins,
                               View<const float*, Space> in, View<int*, Space> chunk_offsets, View<float*, Space> out) {
  using Rank = kpz::team::GroupBinRank<Space>;
  constexpr int Items = fast_items<Space>();
  constexpr int B = Rank::max_bins;
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks, G = layout.group, per_team = layout.groups_per_team;
  const long tiles = layout.tiles;
  const bool aligned = is_quad_aligned(in.data());
  const auto policy = GroupedPolicy<Space, 2>(space, layout.league, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(partition_grouped_scratch_bytes<Space>(layout.team_size, Items)));
  Kokkos::parallel_for(
      "bin_extract::partition_scatter_grouped", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Rank ranker(team);
        const int lane = ranker.lane(), g = team.team_rank() / G, c = team.league_rank() * per_team + g;
        ScratchView<float*, Space> s_stage(team.team_scratch(0), per_team * tile);
        ScratchView<int*, Space> s_run(team.team_scratch(0), per_team * B);    // the chunk's next out index, per bin
        ScratchView<int*, Space> s_delta(team.team_scratch(0), per_team * B);  // out index - staged index, per bin
        if (c >= chunks) return;  // a whole group leaves together
        const int stage = g * tile, bins = g * B;  // the group's parts of scratch
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        // Bin b belongs to member b % G (to its own lane on a warp): only its owner ever touches
        // s_run(b), and the group barrier publishes s_delta(b).
        for (int b = lane; b < num_bins; b += G) s_run(bins + b) = chunk_offsets(b * chunks + c);
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, lane, [&](long t, long first, const float(&x)[Items]) {
          const int valid = items_inside<Items>(n, first);
          auto ranks = ranker.template rank<Items>([&](int k) { return bin_of(x[k], num_bins); }, valid);
          for (int b = lane; b < num_bins; b += G) {
            s_delta(bins + b) = s_run(bins + b) - ranks.bin_start(b);
            s_run(bins + b) += ranks.bin_count(b);
          }
          // Whole tiles (all but the input's last) take the loops without a bounds test:
          // unrolled, their scratch reads and global writes overlap instead of queueing behind each
          // other (the bounded copy-out loop ran one element at a time, LDS -> bin -> LDS -> STG).
          if (valid == Items) {
            for (int k = 0; k < Items; ++k) s_stage(stage + ranks.take(bin_of(x[k], num_bins))) = x[k];
          } else {
            for (int k = 0; k < Items; ++k)
              if (k < valid) s_stage(stage + ranks.take(bin_of(x[k], num_bins))) = x[k];
          }
          ranker.sync();  // the tile is staged, its deltas published
          const long rest = n - t * tile;
          const auto copy_out = [&](int i) {
            const float v = s_stage(stage + i);
            out(s_delta(bins + bin_of(v, num_bins)) + i) = v;
          };
          if (rest >= tile) {
            // Eight at a time (H100, N = 2^28, pass 2 at 80 registers: 1.167 ms unrolled by 16,
            // which spilled, 1.057 ms by 8, 1.081 ms by 4, 1.226 ms not at all; at 102
            // registers, no spills: 1.016 ms by 8, 1.119 ms by 16).
#pragma unroll 1
            for (int j0 = 0; j0 < Items; j0 += kCopyOutUnroll)
              for (int j = j0; j < j0 + kCopyOutUnroll; ++j) copy_out(lane + j * G);
          } else {
            for (int i = lane; i < rest; i += G) copy_out(i);
          }
          ranker.sync();  // copied out before the next tile is staged over it
        });
      });
}

// Pass 2 for any number of bins, a chunk per team (the session-3 kernel; more than 8 bins, and
// the host, run here): each tile ranked through a (bin, member) count table and a team scan in
// scratch, staged in bin order and copied out; s_run keeps, per bin, where the chunk's next
// element of that bin goes.
template <class Space>
void partition_scatter_table(const Space& space, const PartitionLayout& layout, int num_bins,
                             View<const float*, Space> in, View<int*, Space> chunk_offsets, View<float*, Space> out) {
  constexpr int Items = fast_items<Space>();
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks;
  const long tiles = layout.tiles;
  const int table_ints = fast_table_ints(layout.team_size, num_bins);
  const bool aligned = is_quad_aligned(in.data());
  const auto policy = ChunkPolicy<Space>(space, layout.league, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(partition_table_scratch_bytes<Space>(layout.team_size, Items, num_bins)));
  Kokkos::parallel_for(
      "bin_extract::partition_scatter_table", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_stage(team.team_scratch(0), tile);
        ScratchView<int*, Space> table(team.team_scratch(0), table_ints);
        ScratchView<int*, Space> s_delta(team.team_scratch(0), num_bins);  // out index - staged index, per bin
        ScratchView<int*, Space> s_run(team.team_scratch(0), num_bins);    // the chunk's next out index, per bin
        const int c = team.league_rank(), rank = team.team_rank(), T = team.team_size();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins),
                             [&](int b) { s_run(b) = chunk_offsets(b * chunks + c); });
        for_each_tile<Items, Space>(in, n, aligned, t0, t1, tile, rank, [&](long t, long first, const float(&x)[Items]) {
          // Its barriers also order the previous tile's copy-out (s_stage, s_delta) before the
          // writes below, and publish s_run.
          rank_tile_by_bin<Items, Space>(team, table, num_bins, x, first, n);
          const int valid = static_cast<int>(n - t * tile < tile ? n - t * tile : tile);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins), [&](int b) {
            const int start = table(padded(b * T)), end = b + 1 < num_bins ? table(padded((b + 1) * T)) : valid;
            s_delta(b) = s_run(b) - start;
            s_run(b) += end - start;
          });
          if (packed_counts<Items>(num_bins)) {
            // The member's own earlier elements of each bin, 8 bits per bin, in registers: the
            // table stays read-only, so s_delta above can read it without a barrier.
            U64 lo = 0, hi = 0;
            for (int k = 0; k < Items; ++k) {
              const int b = bin_of(x[k], num_bins), shift = 8 * (b & 7);
              const U64 seen = b < 8 ? lo : hi;
              if (first + k < n) s_stage(table(padded(b * T + rank)) + static_cast<int>((seen >> shift) & 0xff)) = x[k];
              if (b < 8) lo += U64(1) << shift;
              else hi += U64(1) << shift;
            }
          } else {
            team.team_barrier();  // s_delta has read the table; now members advance their columns
            for (int k = 0; k < Items; ++k)
              if (first + k < n) s_stage(table(padded(bin_of(x[k], num_bins) * T + rank))++) = x[k];
          }
          team.team_barrier();  // the whole tile is staged
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, valid), [&](int i) {
            const float v = s_stage(i);
            out(s_delta(bin_of(v, num_bins)) + i) = v;
          });
        });
      });
}

template <class Space>
void partition_scatter(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                       View<int*, Space> chunk_offsets, View<float*, Space> out) {
  if (layout.rank == PartitionRank::grouped) partition_scatter_grouped(space, layout, num_bins, in, chunk_offsets, out);
  else partition_scatter_table(space, layout, num_bins, in, chunk_offsets, out);
}

template <class Space>
void partition_two_pass(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                        View<int*, Space> chunk_offsets, View<float*, Space> out, View<int*, Space> bin_offsets) {
  partition_histograms(space, layout, num_bins, in, chunk_offsets);
  partition_offsets(space, layout, num_bins, chunk_offsets, bin_offsets);
  partition_scatter(space, layout, num_bins, in, chunk_offsets, out);
}

#define KPZ_BIN_EXTRACT_FAST_INSTANTIATE(S)                                                            \
  template void extract_chunked<S>(const S&, const FastLaunch&, int, int, View<const float*, S>,      \
                                   View<float*, S>, View<int*, S>, View<float*, S>, View<int*, S>);   \
  template void partition_histograms<S>(const S&, const PartitionLayout&, int, View<const float*, S>, \
                                        View<int*, S>);                                               \
  template void partition_offsets<S>(const S&, const PartitionLayout&, int, View<int*, S>,            \
                                     View<int*, S>);                                                  \
  template void partition_scatter<S>(const S&, const PartitionLayout&, int, View<const float*, S>,    \
                                     View<int*, S>, View<float*, S>);                                 \
  template void partition_two_pass<S>(const S&, const PartitionLayout&, int, View<const float*, S>,   \
                                      View<int*, S>, View<float*, S>, View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_INSTANTIATE)

}  // namespace kpz::bin_extract

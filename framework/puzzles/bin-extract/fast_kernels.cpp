// The kernels `kpuzzles bench bin-extract` measures against CUB and Kokkos (compiled once per
// space: a kernel lambda in a header that several translation units instantiate is an ODR trap
// under nvcc). The learner's kernels are in reference/ and exercises/; these are what the docs'
// "solution explained" section walks through as the fast versions.
#include <cstdint>
#include <type_traits>

#include "bin-extract/bin-extract.hpp"
#include "kpz/check.hpp"
#include "kpz/relaxed_load.hpp"
#include "kpz/team/ballot_select.hpp"

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

// The ring kernels (the partition's two ballot passes, the extract's compaction) run teams of at
// most 256 (the scratch ring caps the team) and MinBlocks of them per SM: ptxas gives them at
// most 65536 / (256 x MinBlocks) registers. In the session-7 prototype (raw CUDA, H100) pass 2
// with two teams of 256 (95 registers) beat three (80 registers): 0.814 against 0.826 ms for
// N = 2^28. The trace build's policy takes no launch bounds (it runs on the host).
#if defined(KPZ_TRACE)
template <class Space, int MinBlocks>
using BallotPolicy = TeamPolicy<Space>;
#else
template <class Space, int MinBlocks>
using BallotPolicy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<256, MinBlocks>>;
#endif

// Calls run(std::true_type) where the team is made of whole CUDA warps (the warp paths of
// kpz::team::BallotBinRank and BallotSelect), run(std::false_type) everywhere else: the one place
// the ring kernels choose their group.
template <class Space, class Run>
void with_warp_groups(int team_size, const Run& run) {
  if constexpr (is_gpu_v<Space>)
    if (warp_groups<Space>(team_size)) return run(std::true_type{});
  run(std::false_type{});
}

// Chunk c of `chunks` owns tiles [chunk_begin(c), chunk_begin(c + 1)) of `tiles`: an even share.
KOKKOS_INLINE_FUNCTION long chunk_begin(long tiles, int chunks, int c) { return tiles * c / chunks; }

// The walk of the chunk kernels that hold their tiles in registers (the table partition's two
// passes): tiles t0 .. t1 - 1 in order, this member's Items elements of each (it is member
// `slot` of the tile) in registers, and the next tile's loads issued before
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

// The extract's compaction, launch 1 of extract_chunked: team c walks chunk c tile after tile
// (team x 16 elements), the tiles streaming through a ring of two scratch slots
// (kpz::team::TileRing: on Hopper a bulk copy of the next tile is in flight, in no register, while
// the team works on this one). Every group (a warp on CUDA, one member elsewhere) takes its share
// of the tile from the slot into registers and ranks its selected elements with one ballot each
// (kpz::team::BallotSelect); after one barrier (the groups' counts are published, the slot is
// free and starts refilling) every selected element goes straight to its place in the chunk's
// region of `staging`: the chunk's earlier tiles, the tile's lower groups, the group's earlier
// elements. Consecutive selected elements land on consecutive addresses, so a tile's selection
// is one run (about 2 KB for 8 bins) that L2 assembles into whole lines.
template <class Space, bool Warps>
void extract_compact_run(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                         View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts) {
  using Select = kpz::team::BallotSelect<Space, Warps>;
  using Ring = kpz::team::TileRing<Space, kExtractSlots>;
  constexpr int Items = kBallotItems, S = kExtractSlots, G = Select::group_size;
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks;
  const long tiles = layout.tiles;
  const bool bulk = is_quad_aligned(in.data());
  const auto policy = BallotPolicy<Space, kExtractTeamsPerSm>(space, chunks, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(extract_scratch_bytes<Space>(layout.team_size)));
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "bin_extract::extract_chunks", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Ring ring(team, tile, bulk);
        const int T = team.team_size(), groups = T / G;
        // Two (group) count arrays alternating between tiles: tile t's are read after its barrier
        // and written again by tile t + 2 after tile t + 1's, so one barrier per tile is enough.
        ScratchView<int*, Space> s_count(team.team_scratch(0), 2 * groups);
        Select select(team);
        const int c = team.league_rank(), g = team.team_rank() / G, lane = select.lane();
        const int share = g * G * Items;  // the group's elements: share + j * G + lane, step j
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        float* region = staging.data() + t0 * tile;  // this team's part of `staging`
        const float* src = in.data();
        const auto whole = [&](long t) { return (t + 1) * tile <= n; };
        for (int s = 0; s < S; ++s)
          if (t0 + s < t1 && whole(t0 + s)) ring.fill(team, s, src + (t0 + s) * tile);
        team.team_barrier();  // the ring's barriers are initialised, synchronous fills published
        int kept = 0;  // selected elements of the chunk so far
        for (long t = t0; t < t1; ++t) {
          const int s = static_cast<int>((t - t0) % S), half = static_cast<int>((t - t0) & 1);
          float* slot = ring.slot(s);
          const int rest = whole(t) ? tile : static_cast<int>(n - t * tile);
          if (whole(t)) {
            ring.wait(s, static_cast<unsigned>(((t - t0) / S) & 1));
          } else {  // the input's last tile: copied by the team, zero past the end
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile),
                                 [&](int i) { slot[i] = i < rest ? src[t * tile + i] : 0.0f; });
            team.team_barrier();
          }
          select.reset();
          float v[Items];
          int at[Items];  // the element's place among the group's selected ones, -1 if not selected
          for (int j = 0; j < Items; ++j) {
            const int i = share + j * G + lane;
            v[j] = slot[i];
            const bool keep = i < rest && bin_of(v[j], num_bins) == target_bin;
            const int before = select.step(keep);
            at[j] = keep ? before : -1;
          }
          if (lane == 0) s_count(half * groups + g) = select.count();
          team.team_barrier();  // counts published; every member has its elements of the slot
          const long again = t + S;
          if (again < t1 && whole(again)) ring.fill(team, s, src + again * tile);
          int lower = 0, total = 0;
          for (int w = 0; w < groups; ++w) {
            const int k = s_count(half * groups + w);
            lower += w < g ? k : 0;
            total += k;
          }
          float* to = region + kept + lower;
          for (int j = 0; j < Items; ++j)
            if (at[j] >= 0) to[at[j]] = v[j];
          kept += total;
        }
        if (team.team_rank() == 0) chunk_counts(c) = kept;
      });
}

template <class Space>
void extract_compact(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                     View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts) {
  with_warp_groups<Space>(layout.team_size, [&](auto warps) {
    extract_compact_run<Space, decltype(warps)::value>(space, layout, num_bins, target_bin, in, staging, chunk_counts);
  });
}

template <class Space>
void extract_place(const Space& space, const ExtractLayout& layout, View<const float*, Space> staging,
                   View<const int*, Space> chunk_counts, View<float*, Space> out, View<int*, Space> count) {
  const long tiles = layout.tiles;
  const int tile = layout.tile, chunks = layout.chunks;
  constexpr int split = kExtractPlaceSplit;
  // Team (c, p) moves piece p of chunk c's selection: `split` teams per chunk. Each adds up the
  // counts of the chunks before c itself (a few hundred ints: no launch of its own for the scan).
  Kokkos::parallel_for(
      "bin_extract::extract_place", TeamPolicy<Space>(space, chunks * split, layout.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int c = team.league_rank() / split, p = team.league_rank() % split, rank = team.team_rank(), T = team.team_size();
        long prefix = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, c), [&](int i, long& acc) { acc += chunk_counts(i); }, prefix);
        const int kept = chunk_counts(c);  // a chunk's count: an int, as every offset within it
        const int begin = static_cast<int>(static_cast<long>(kept) * p / split);
        const int end = static_cast<int>(static_cast<long>(kept) * (p + 1) / split);
        const float* from = staging.data() + chunk_begin(tiles, chunks, c) * tile;
        float* to = out.data() + prefix;
        // Eight independent loads per member and step (consecutive members, consecutive
        // elements): one load in flight per thread would leave the bandwidth unused.
        constexpr int U = 8;
        for (int i = begin + rank; i < end; i += U * T) {
          float v[U];
          for (int u = 0; u < U; ++u) v[u] = i + u * T < end ? from[i + u * T] : 0.0f;
          for (int u = 0; u < U; ++u)
            if (i + u * T < end) to[i + u * T] = v[u];
        }
        if (c == chunks - 1 && p == split - 1)
          Kokkos::single(Kokkos::PerTeam(team), [&] { count(0) = static_cast<int>(prefix + kept); });
      });
}

template <class Space>
void extract_chunked(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                     View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts,
                     View<float*, Space> out, View<int*, Space> count) {
  // 1. Every team compacts its chunk, tile after tile, into its own region of `staging` (the
  //    region starts where the chunk does, so it always has room). Within a team the order is
  //    the input's; no team waits for another.
  extract_compact(space, layout, num_bins, target_bin, in, staging, chunk_counts);
  // 2. Every chunk's selection moves to its place: after the selections of all earlier chunks
  //    (an exclusive sum of a few hundred counts, which each team adds up itself). Only the
  //    selected elements travel again: an eighth of the input for 8 bins.
  extract_place(space, layout, View<const float*, Space>(staging), View<const int*, Space>(chunk_counts), out, count);
}

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
      Kokkos::PerTeam(team), [&](int& is_last) { is_last = Kokkos::atomic_fetch_add(&counts(entries + 1), 1) == teams - 1; },
      last);
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
  team.team_barrier();  // the places are written
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
  const auto policy = BallotPolicy<Space, kBallotPass1TeamsPerSm>(space, parts, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(B * layout.team_size)));
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "bin_extract::partition_histograms_parts", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int k = team.league_rank(), r = team.team_rank(), T = team.team_size();
        ScratchView<int*, Space> s_total(team.team_scratch(0), B * T);  // entry b * T + r: member r's bin b
        constexpr int G = Warps ? 32 : 1;  // a compile-time step: the four loads share one address
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
          if constexpr (Warps)
            for (int mask = 16; mask > 0; mask /= 2) sum += kpz::team::detail::shfl_xor_words(sum, mask);
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
    partition_histograms_parts_run<Space, decltype(warps)::value>(space, layout, num_bins, in, chunk_offsets, bin_offsets);
  });
}

template <class Space>
void partition_histograms(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                          View<int*, Space> chunk_offsets, View<int*, Space> bin_offsets) {
  // The arrival counter of places_if_last starts at zero (a memset, no kernel).
  const std::size_t counter = static_cast<std::size_t>(num_bins) * layout.chunks * layout.parts + 1;
  Kokkos::deep_copy(space, Kokkos::subview(chunk_offsets, std::make_pair(counter, counter + 1)), 0);
  if (layout.rank == PartitionRank::ballot) partition_histograms_parts(space, layout, num_bins, in, chunk_offsets, bin_offsets);
  else partition_histograms_teams(space, layout, num_bins, in, chunk_offsets, bin_offsets);
}

// One tile of pass 2 of the ballot partition (see partition_scatter_ballot). `slot` holds the
// tile; its first `rest` elements are the input's (Partial: the input's last tile). `next` holds
// per bin where the chunk's next element of that bin goes. After the first barrier every member
// is done with the previous tile, so its slot is filled again with `refill_src` (refill_slot >= 0).
template <bool Partial, int Items, class Space, class Rank, class Ring>
KOKKOS_INLINE_FUNCTION void ballot_tile(const TeamMember<Space>& team, Rank& rank, const Ring& ring, float* slot,
                                        const ScratchView<unsigned char*, Space>& s_bin,
                                        const ScratchView<int*, Space>& s_count, int rest, int num_bins,
                                        typename Rank::PerBin& next, const View<float*, Space>& out, int refill_slot,
                                        const float* refill_src) {
  constexpr int G = Rank::group_size, B = Rank::max_bins;
  const int T = team.team_size(), g = team.team_rank() / G, groups = T / G, lane = rank.lane();
  const int share = g * G * Items;  // the group's elements: share + j * G + lane, step j
  // 1. Every group ranks its share: packed[j] = bin + 32 * (the group's earlier elements of that bin).
  rank.reset();
  unsigned packed[Items];
  float v[Items];
  for (int j = 0; j < Items; ++j) {
    const int i = share + j * G + lane;
    v[j] = slot[i];
    packed[j] = rank.template step<Partial>(bin_of(v[j], num_bins), !Partial || i < rest);
  }
  rank.for_each(rank.counts(), [&](int b, int count) { s_count(g * B + b) = count; });
  team.team_barrier();  // the counts are published; everyone has read its elements of the slot
  if (refill_slot >= 0) ring.fill(team, refill_slot, refill_src);
  // 2. Places: bin b of the tile starts after the lower bins; the group's elements of bin b after
  //    the lower groups'. key + packed = 32 x place (packed carries the bin in its low 5 bits).
  const auto total = rank.make([&](int b) {
    int sum = 0;
    for (int w = 0; w < groups; ++w) sum += s_count(w * B + b);
    return sum;
  });
  const auto before = rank.make([&](int b) {
    int sum = 0;
    for (int w = 0; w < g; ++w) sum += s_count(w * B + b);
    return sum;
  });
  const auto start = rank.exclusive_scan(total);
  const auto key = rank.zip(start, before, [](int b, int first, int lower) { return 32 * (first + lower) - b; });
  const auto delta = rank.zip(next, start, [](int, int place, int first) { return place - first; });
  next = rank.zip(next, total, [](int, int place, int count) { return place + count; });
  // 3. The tile, staged in bin order over itself (every element is in a register by now), with
  //    its bin beside it, then copied out: consecutive members, consecutive places of a bin.
  for (int j = 0; j < Items; ++j) {
    const int place = (rank.get(key, packed[j]) + static_cast<int>(packed[j])) >> 5;
    if (!Partial || share + j * G + lane < rest) {
      slot[place] = v[j];
      s_bin(place) = static_cast<unsigned char>(packed[j] & 7);
    }
  }
  team.team_barrier();  // the tile is staged
  for (int j = 0; j < Items; ++j) {
    const int i = j * T + team.team_rank();
    const float x = slot[i];
    const int to = rank.get(delta, s_bin(i)) + i;
    if (!Partial || i < rest) out(to) = x;
  }
  (void)num_bins;
}

// Pass 2 of the ballot partition: team c walks chunk c tile after tile (team x 16 elements). The
// tiles stream through a ring of two scratch slots (kpz::team::TileRing: on Hopper one member
// starts a bulk copy of the next tile, so it is in flight, in no register, while the team works).
// Every group ranks its share of the tile with ballots (kpz::team::BallotBinRank), the team adds
// up the groups' counts, stages the tile in bin order over itself and copies it out. Why team
// tiles and not a warp's (sessions 5-6): the copy-out writes every bin's run of the tile to its
// own place, and the runs of a 512-element warp tile (~256 bytes for 8 bins) cost a quarter of
// the bandwidth; a 4096-element team tile's (~2 KB) run near copy speed (H100, session 7).
template <class Space, bool Warps>
void partition_scatter_ballot_run(const Space& space, const PartitionLayout& layout, int num_bins,
                                  View<const float*, Space> in, View<int*, Space> chunk_offsets, View<float*, Space> out) {
  using Rank = kpz::team::BallotBinRank<Space, Warps>;
  using Ring = kpz::team::TileRing<Space, kBallotSlots>;
  constexpr int Items = kBallotItems, S = kBallotSlots, B = Rank::max_bins;
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks, parts = layout.parts;
  const long tiles = layout.tiles;
  const bool bulk = is_quad_aligned(in.data());
  const auto policy = BallotPolicy<Space, kBallotTeamsPerSm>(space, chunks, layout.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(partition_ballot_scratch_bytes<Space>(layout.team_size)));
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "bin_extract::partition_scatter_ballot", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Ring ring(team, tile, bulk);
        ScratchView<unsigned char*, Space> s_bin(team.team_scratch(0), tile);  // the bin of every staged element
        ScratchView<int*, Space> s_count(team.team_scratch(0), team.team_size() / Rank::group_size * B);  // (group, bin) counts
        Rank rank(team);
        const int c = team.league_rank();
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        // The chunk's first part's places (pass 1 counted parts; the scan made them places).
        auto next = rank.make([&](int b) { return b < num_bins ? chunk_offsets(b * chunks * parts + c * parts) : 0; });
        const float* src = in.data();
        const auto whole = [&](long t) { return (t + 1) * tile <= n; };
        for (int s = 0; s < S; ++s)
          if (t0 + s < t1 && whole(t0 + s)) ring.fill(team, s, src + (t0 + s) * tile);
        team.team_barrier();  // the ring's barriers are initialised, synchronous fills published
        for (long t = t0; t < t1; ++t) {
          const int s = static_cast<int>((t - t0) % S);
          const int prev = s == 0 ? S - 1 : s - 1;
          const long again = t - 1 + S;  // the tile the previous slot takes next
          const int refill = t > t0 && again < t1 && whole(again) ? prev : -1;
          float* slot = ring.slot(s);
          if (whole(t)) {
            ring.wait(s, static_cast<unsigned>(((t - t0) / S) & 1));
            ballot_tile<false, Items, Space>(team, rank, ring, slot, s_bin, s_count, tile, num_bins, next, out, refill,
                                      src + again * tile);
          } else {
            const int rest = static_cast<int>(n - t * tile);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile),
                                 [&](int i) { slot[i] = i < rest ? src[t * tile + i] : 0.0f; });
            team.team_barrier();
            ballot_tile<true, Items, Space>(team, rank, ring, slot, s_bin, s_count, rest, num_bins, next, out, refill,
                                     src + again * tile);
          }
        }
      });
}

template <class Space>
void partition_scatter_ballot(const Space& space, const PartitionLayout& layout, int num_bins,
                              View<const float*, Space> in, View<int*, Space> chunk_offsets, View<float*, Space> out) {
  with_warp_groups<Space>(layout.team_size, [&](auto warps) {
    partition_scatter_ballot_run<Space, decltype(warps)::value>(space, layout, num_bins, in, chunk_offsets, out);
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
  const auto policy = ChunkPolicy<Space>(space, layout.chunks, layout.team_size)
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
  if (layout.rank == PartitionRank::ballot) partition_scatter_ballot(space, layout, num_bins, in, chunk_offsets, out);
  else partition_scatter_table(space, layout, num_bins, in, chunk_offsets, out);
}

template <class Space>
void partition_two_pass(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                        View<int*, Space> chunk_offsets, View<float*, Space> out, View<int*, Space> bin_offsets) {
  partition_histograms(space, layout, num_bins, in, chunk_offsets, bin_offsets);
  partition_scatter(space, layout, num_bins, in, chunk_offsets, out);
}

#define KPZ_BIN_EXTRACT_FAST_INSTANTIATE(S)                                                            \
  template void extract_chunked<S>(const S&, const ExtractLayout&, int, int, View<const float*, S>,   \
                                   View<float*, S>, View<int*, S>, View<float*, S>, View<int*, S>);   \
  template void extract_compact<S>(const S&, const ExtractLayout&, int, int, View<const float*, S>,   \
                                   View<float*, S>, View<int*, S>);                                   \
  template void extract_place<S>(const S&, const ExtractLayout&, View<const float*, S>,               \
                                 View<const int*, S>, View<float*, S>, View<int*, S>);                \
  template void partition_histograms<S>(const S&, const PartitionLayout&, int, View<const float*, S>, \
                                        View<int*, S>, View<int*, S>);                                \
  template void partition_scatter<S>(const S&, const PartitionLayout&, int, View<const float*, S>,    \
                                     View<int*, S>, View<float*, S>);                                 \
  template void partition_two_pass<S>(const S&, const PartitionLayout&, int, View<const float*, S>,   \
                                      View<int*, S>, View<float*, S>, View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_INSTANTIATE)

}  // namespace kpz::bin_extract

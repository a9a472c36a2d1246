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

// Pass 2 of the ballot partition runs teams of at most 256 (its scratch ring caps the team) and
// MinBlocks of them per SM: ptxas gives it at most 65536 / (256 x MinBlocks) registers. In the
// session-7 prototype (raw CUDA, H100) two teams of 256 (95 registers) beat three (80
// registers): 0.814 against 0.826 ms for N = 2^28. The trace build's policy takes no launch
// bounds (it runs on the host).
#if defined(KPZ_TRACE)
template <class Space, int MinBlocks>
using BallotPolicy = TeamPolicy<Space>;
#else
template <class Space, int MinBlocks>
using BallotPolicy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<256, MinBlocks>>;
#endif

// Chunk c of `chunks` owns tiles [chunk_begin(c), chunk_begin(c + 1)) of `tiles`: an even share.
KOKKOS_INLINE_FUNCTION long chunk_begin(long tiles, int chunks, int c) { return tiles * c / chunks; }

// The walk of the chunk kernels that hold their tiles in registers (the extract, the table
// partition's two passes): tiles t0 .. t1 - 1 in order, this member's Items elements of
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
      });
}

// Pass 1 of the ballot partition: a team per part of a chunk (layout.parts per chunk), counting
// the part's tiles: member r takes Quads r, r + team, ... of a tile (consecutive members,
// consecutive 16 bytes: every load instruction of a warp reads 512 contiguous bytes), counts them
// in 8-bit fields of one word (1 << 8 * bin: no selects), moved to 32-bit totals before a field
// can overflow, and the team adds its members' totals at the end of its part.
template <class Space>
void partition_histograms_parts(const Space& space, const PartitionLayout& layout, int num_bins,
                                View<const float*, Space> in, View<int*, Space> chunk_offsets) {
  constexpr int Items = kBallotItems, Quads = Items / 4, B = 8;
  constexpr int flush_every = 255 / Items;  // tiles an 8-bit field can count
  static_assert(Items % 4 == 0 && flush_every >= 1);
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, parts = layout.chunks * layout.parts;
  const long tiles = layout.tiles;
  const bool aligned = is_quad_aligned(in.data());
  Kokkos::parallel_for(
      "bin_extract::partition_histograms_parts", BallotPolicy<Space, kBallotPass1TeamsPerSm>(space, parts, layout.team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int k = team.league_rank(), r = team.team_rank(), T = team.team_size();
        const long t0 = chunk_begin(tiles, parts, k), t1 = chunk_begin(tiles, parts, k + 1);
        int total[B] = {};
        U64 packed = 0;
        int since = 0;
        for (long t = t0; t < t1; ++t) {
          const long base = t * tile;
          if (aligned && base + tile <= n) {
            const Quad* q = reinterpret_cast<const Quad*>(in.data() + base);
            Quad v[Quads];
            for (int j = 0; j < Quads; ++j) v[j] = q[j * T + r];  // all loads issued before any use
            for (int j = 0; j < Quads; ++j)
              for (int e = 0; e < 4; ++e) packed += U64(1) << (8 * bin_of(v[j].v[e], num_bins));
          } else {
            for (int j = 0; j < Quads; ++j)
              for (int e = 0; e < 4; ++e) {
                const long i = base + 4 * (static_cast<long>(j) * T + r) + e;
                if (i < n) packed += U64(1) << (8 * bin_of(in(i), num_bins));
              }
          }
          if (++since == flush_every) {
            for (int b = 0; b < B; ++b) total[b] += static_cast<int>((packed >> (8 * b)) & 0xff);
            packed = 0;
            since = 0;
          }
        }
        for (int b = 0; b < B; ++b) total[b] += static_cast<int>((packed >> (8 * b)) & 0xff);
        for (int b = 0; b < num_bins; ++b) {
          int sum = total[b];
          team.team_reduce(Kokkos::Sum<int>(sum));
          if (r == 0) chunk_offsets(b * parts + k) = sum;
        }
      });
}

template <class Space>
void partition_histograms(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                          View<int*, Space> chunk_offsets) {
  if (layout.rank == PartitionRank::ballot) partition_histograms_parts(space, layout, num_bins, in, chunk_offsets);
  else partition_histograms_teams(space, layout, num_bins, in, chunk_offsets);
}

// The counts become places: one exclusive scan over (bin, part) in bin-major order, in place;
// bin b starts at entry b * chunks * parts.
template <class Space>
void partition_offsets(const Space& space, const PartitionLayout& layout, int num_bins,
                       View<int*, Space> chunk_offsets, View<int*, Space> bin_offsets) {
  const int chunks = layout.chunks * layout.parts, entries = num_bins * chunks;
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
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    if (kpz::team::BallotBinRank<Space, false>::warps_possible(layout.team_size))
      return partition_scatter_ballot_run<Space, true>(space, layout, num_bins, in, chunk_offsets, out);
#endif
  partition_scatter_ballot_run<Space, false>(space, layout, num_bins, in, chunk_offsets, out);
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

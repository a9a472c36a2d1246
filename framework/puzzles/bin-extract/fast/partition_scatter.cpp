// Pass 2 of the framework's fast partition (`kpuzzles bench bin-extract --partition`): every
// chunk, tile after tile, ranked by bin in scratch and scattered stably to the places pass 1
// left; and both passes together.
#include "bin-extract/fast/common.hpp"

namespace kpz::bin_extract {

namespace {

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
    PackedCounts counts;
    for (int k = 0; k < Items; ++k) counts.add(bin_of(x[k], num_bins), U64(first + k < n));
    for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = counts.get(b);
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
// up the groups' counts, stages the tile in bin order over itself and copies it out. Team tiles,
// not a warp's: the copy-out writes every bin's run of the tile to its own place, and the runs of
// a 512-element warp tile (~256 bytes for 8 bins) cost a quarter of the bandwidth where a
// 4096-element team tile's (~2 KB) run near copy speed.
template <class Space, bool Warps>
void partition_scatter_ballot_run(const Space& space, const PartitionLayout& layout, int num_bins,
                                  View<const float*, Space> in, View<int*, Space> chunk_offsets,
                                  View<float*, Space> out) {
  using Rank = kpz::team::BallotBinRank<Space, Warps>;
  using Ring = kpz::team::TileRing<Space, kBallotSlots>;
  constexpr int Items = kBallotItems, S = kBallotSlots, B = Rank::max_bins;
  const long n = static_cast<long>(in.extent(0));
  const int tile = layout.tile, chunks = layout.chunks, parts = layout.parts;
  const long tiles = layout.tiles;
  const bool bulk = is_quad_aligned(in.data());
  const auto policy =
      BallotPolicy<Space, kBallotTeamsPerSm>(space, chunks, layout.team_size)
          .set_scratch_size(0, Kokkos::PerTeam(partition_ballot_scratch_bytes<Space>(layout.team_size)));
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "bin_extract::partition_scatter_ballot", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Ring ring(team, tile, bulk);
        ScratchView<unsigned char*, Space> s_bin(team.team_scratch(0), tile);  // the bin of every staged element
        ScratchView<int*, Space> s_count(team.team_scratch(0),
                                         team.team_size() / Rank::group_size * B);  // (group, bin) counts
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

// Pass 2 for any number of bins, a chunk per team (more than 8 bins, and the host, run here): each tile ranked through a (bin, member) count table and a team scan in
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
  const auto policy =
      ChunkPolicy<Space>(space, layout.chunks, layout.team_size)
          .set_scratch_size(0,
                            Kokkos::PerTeam(partition_table_scratch_bytes<Space>(layout.team_size, Items, num_bins)));
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
        for_each_tile<Items, Space>(
            in, n, aligned, t0, t1, tile, rank, [&](long t, long first, const float(&x)[Items]) {
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
                PackedCounts seen;
                for (int k = 0; k < Items; ++k) {
                  const PackedCounts::Field f = seen.field(bin_of(x[k], num_bins));
                  if (first + k < n) s_stage(table(padded(f.bin * T + rank)) + PackedCounts::count(f)) = x[k];
                  seen.add(f);
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
  if (layout.rank == PartitionRank::ballot)
    partition_scatter_ballot(space, layout, num_bins, in, chunk_offsets, out);
  else
    partition_scatter_table(space, layout, num_bins, in, chunk_offsets, out);
}

template <class Space>
void partition_two_pass(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                        View<int*, Space> chunk_offsets, View<float*, Space> out, View<int*, Space> bin_offsets) {
  partition_histograms(space, layout, num_bins, in, chunk_offsets, bin_offsets);
  partition_scatter(space, layout, num_bins, in, chunk_offsets, out);
}

#define KPZ_BIN_EXTRACT_FAST_SCATTER_INSTANTIATE(S)                                                                \
  template void partition_scatter<S>(const S&, const PartitionLayout&, int, View<const float*, S>, View<int*, S>,  \
                                     View<float*, S>);                                                             \
  template void partition_two_pass<S>(const S&, const PartitionLayout&, int, View<const float*, S>, View<int*, S>, \
                                      View<float*, S>, View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_SCATTER_INSTANTIATE)

}  // namespace kpz::bin_extract

// The framework's fast extract (`kpuzzles bench bin-extract --extract`): every team compacts its
// chunk of the input through a scratch ring, then every chunk's selection moves to its place.
// The learner's kernels are in reference/ and exercises/; these are what the docs' "solution
// explained" section walks through as the fast versions.
#include "bin-extract/fast/common.hpp"

namespace kpz::bin_extract {

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
        int kept = 0;         // selected elements of the chunk so far
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
        const int c = team.league_rank() / split, p = team.league_rank() % split, rank = team.team_rank(),
                  T = team.team_size();
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

#define KPZ_BIN_EXTRACT_FAST_EXTRACT_INSTANTIATE(S)                                                                  \
  template void extract_chunked<S>(const S&, const ExtractLayout&, int, int, View<const float*, S>, View<float*, S>, \
                                   View<int*, S>, View<float*, S>, View<int*, S>);                                   \
  template void extract_compact<S>(const S&, const ExtractLayout&, int, int, View<const float*, S>, View<float*, S>, \
                                   View<int*, S>);                                                                   \
  template void extract_place<S>(const S&, const ExtractLayout&, View<const float*, S>, View<const int*, S>,         \
                                 View<float*, S>, View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_EXTRACT_INSTANTIATE)

}  // namespace kpz::bin_extract

#pragma once
// bin-extract's fast kernels, which are not the lesson: the extract that compacts per chunk and
// then places the chunks, and the two-pass partition over the same chunks (extract.cpp,
// partition_*.cpp; common.hpp is what they share). The benchmark measures them, and the tests
// check them against the host oracle.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "bin-extract/bin-extract.hpp"

namespace kpz::bin_extract {

// The framework's fast kernels (fast/*.cpp). Each member owns `items` consecutive elements
// (CUB's "blocked arrangement"), loaded with 16-byte loads and kept in registers, so a tile is
// items x team_size elements. Results do not depend on the team size (tests run several).

// The input is loaded as Quads of four floats (kpz/quad.hpp) where it is 16-byte aligned.
using Quad = kpz::Quad<float>;

struct FastLaunch {
  int team_size;
  int items;   // elements per member (a multiple of 4)
  int tile;    // items * team_size
  int tiles;   // ceil(N / tile)
  int chunks;  // teams of the launches: each owns an even share of the tiles (a chunk)
};

// Elements per member: 16 on a GPU (4 loads of 16 bytes in flight per thread), 1024 on a host
// (a host thread streams through them).
template <class Space>
constexpr int fast_items() {
  return is_gpu_v<Space> ? 16 : 1024;
}

// Ints in the partition's (bin, member) count table: num_bins x team entries plus one padding
// slot per 32 (see padded() in common.hpp), plus one.
inline int fast_table_ints(int team_size, int num_bins) {
  const int entries = num_bins * team_size;
  return entries + (entries >> 5) + 1;
}

// The ballot partition (up to 8 bins, see PartitionRank): elements per member and tile, tiles in
// a team's scratch ring, the league per SM and the parts pass 1 splits a chunk into.
inline constexpr int kBallotItems = 16;
inline constexpr int kBallotSlots = 2;
inline constexpr int kBallotTeamsPerSm = 2;
inline constexpr int kBallotPass1TeamsPerSm = 4;  // 64 registers: all four Quads of a member in flight
inline constexpr int kBallotParts = kBallotPass1TeamsPerSm / kBallotTeamsPerSm;  // pass 1: one whole wave

// The extract's compaction (a chunk per team, tiles of team x kBallotItems through a ring of
// kExtractSlots scratch slots): it holds a tile's 16 values and places per member in registers
// (77 at LaunchBounds<256, 3>; at <256, 4> ptxas spilled and the extract ran 1 % slower) and two
// slots of 16 KB in scratch, so three teams of 256 run per SM, each with a tile in flight while
// it works on the other.
inline constexpr int kExtractSlots = 2;
inline constexpr int kExtractTeamsPerSm = 3;
inline constexpr int kExtractPlaceSplit = 4;  // teams per chunk in the extract's second launch

// Level-0 scratch of the fast kernels. The extract: the ring of input tiles and two (group)
// count arrays, alternating between tiles. The partition's pass 2 up to 8 bins (ballot): the
// ring of input tiles (staged in place), a bin byte per element and the (group, bin) count
// table. Beyond 8 bins (table): one staged tile, the (bin, member) count table and two per-bin
// arrays. A launch requests the largest (fast_launch sizes the team by it).
template <class Space>
std::size_t extract_scratch_bytes(int team_size) {
  return team::TileRing<Space, kExtractSlots>::scratch_bytes(team_size * kBallotItems) +
         ScratchView<int*, Space>::shmem_size(2 * static_cast<std::size_t>(team_size));
}
template <class Space>
std::size_t partition_ballot_scratch_bytes(int team_size) {
  using Rank = team::BallotBinRank<Space, false>;
  const int tile = team_size * kBallotItems, groups = Rank::warps_possible(team_size) ? team_size / 32 : team_size;
  return team::TileRing<Space, kBallotSlots>::scratch_bytes(tile) +
         ScratchView<unsigned char*, Space>::shmem_size(tile) +
         ScratchView<int*, Space>::shmem_size(static_cast<std::size_t>(groups) * Rank::max_bins);
}
template <class Space>
std::size_t partition_table_scratch_bytes(int team_size, int items, int num_bins) {
  return ScratchView<float*, Space>::shmem_size(static_cast<std::size_t>(team_size) * items) +
         ScratchView<int*, Space>::shmem_size(fast_table_ints(team_size, num_bins)) +
         2 * ScratchView<int*, Space>::shmem_size(num_bins);
}
template <class Space>
std::size_t fast_scratch_bytes(int team_size, int items, int num_bins) {
  const std::size_t partition = num_bins <= team::BallotBinRank<Space, false>::max_bins
                                    ? std::max(partition_ballot_scratch_bytes<Space>(team_size),
                                               partition_table_scratch_bytes<Space>(team_size, items, num_bins))
                                    : partition_table_scratch_bytes<Space>(team_size, items, num_bins);
  return std::max(extract_scratch_bytes<Space>(team_size), partition);
}
template <class Space>
std::size_t fast_scratch_bytes(const FastLaunch& launch, int num_bins) {
  return fast_scratch_bytes<Space>(launch.team_size, launch.items, num_bins);
}

// The team size and tile of the fast kernels: the request (or 256 on a GPU; 1 on a host, where a
// team barrier costs microseconds and one thread per tile needs none), capped so that a tile
// fits the staging buffer in level-0 scratch (8192 elements on a GPU, 4096 on a host), and
// halved while the partition's count table (num_bins x team ints) does not fit beside it.
// Chunks (teams): as many as the device runs at once (a GPU: its concurrency over the team size;
// a host: one per thread), each streaming its share of the tiles, and never more than the tiles.
template <class Space>
FastLaunch fast_launch(const Space& space, std::size_t n, int requested_team_size, int num_bins) {
  const bool gpu = is_gpu_v<Space>;
  const int items = fast_items<Space>();
  const int max_tile = gpu ? 8192 : 4096;
  // The default needs: on a GPU 256 members; on a host Kokkos' recommendation (one thread per team).
  int team = launch_shape(space, KernelNeeds{}, ShapeRequest{requested_team_size, 0}, Purpose::speed).team_size;
  if (team * items > max_tile) team = max_tile / items;
  while (team > 1 && fast_scratch_bytes<Space>(team, items, num_bins) > scratch_size_max<Space>(0)) team /= 2;
  const int tile = team * items;
  const int tiles = teams_for(n, tile);
  const int resident = gpu ? space.concurrency() / team : space.concurrency();
  const int chunks = std::max(1, std::min(tiles, resident));
  return {team, items, tile, tiles, chunks};
}

// How the extract splits the input: `chunks` chunks of consecutive `tile`-element tiles (an even
// share each), chunk c compacted tile after tile by team c.
struct ExtractLayout {
  int team_size;
  int tile;    // team_size x kBallotItems
  int tiles;   // ceil(N / tile)
  int chunks;  // teams, never more than the tiles
};

// On a GPU kExtractTeamsPerSm teams per SM (launch.chunks is the device's thread capacity in
// teams: 2048 threads per SM), so every chunk runs in the one wave; on a host one per thread.
template <class Space>
ExtractLayout extract_layout(const FastLaunch& launch, std::size_t n) {
  const bool gpu = is_gpu_v<Space>;
  const int tile = launch.team_size * kBallotItems, tiles = teams_for(n, tile);
  const int league = gpu ? std::max(1, launch.chunks * launch.team_size / 2048) * kExtractTeamsPerSm : launch.chunks;
  return {launch.team_size, tile, tiles, std::max(1, std::min(tiles, league))};
}

// --extract, reading the input once: launch 1 (extract_compact) has layout.chunks teams compact
// their chunk, tile after tile, into their own region of `staging` (N floats; the region starts
// where the chunk does) and count it into chunk_counts(c) (layout.chunks ints); launch 2
// (extract_place) moves every chunk's selection to out, after the selections of the chunks before
// it. count(0) receives the number of selected elements.
template <class Space>
void extract_chunked(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                     View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts,
                     View<float*, Space> out, View<int*, Space> count);
template <class Space>
void extract_compact(const Space& space, const ExtractLayout& layout, int num_bins, int target_bin,
                     View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_counts);
template <class Space>
void extract_place(const Space& space, const ExtractLayout& layout, View<const float*, Space> staging,
                   View<const int*, Space> chunk_counts, View<float*, Space> out, View<int*, Space> count);

// How the partition ranks a tile by bin, and so how it splits the input (PartitionLayout):
// `ballot` gives every team a chunk of tiles of team x 16 elements, streamed through a ring of
//   scratch slots (kpz::team::TileRing: bulk asynchronous copies on Hopper). Every group (a warp
//   on CUDA, one member elsewhere) ranks its share of a tile with kpz::team::BallotBinRank, the
//   team adds up its groups' counts, stages the tile in bin order in place and copies it out.
//   Up to 8 bins; more fall back to `table`.
// `table` gives every team a chunk of tiles of team x items elements, ranked with a (bin, member)
//   count table and a team scan in scratch (the session-3 kernel, for any number of bins).
// `best` is `ballot` up to 8 bins on every backend (on the 2-core VM, N = 2^22, pass 2 took 13 ms
// against the table's 24, pass 1 1.9 ms against 9.4: 16-element tiles per member and no
// per-tile team scan), `table` beyond.
enum class PartitionRank { best, ballot, table };

// The rank the partition actually runs for a request: `best` resolved, and `ballot` only up to
// 8 bins. The kernels and the benchmark's row names all ask this one function.
template <class Space>
PartitionRank partition_rank_used(int num_bins, PartitionRank how = PartitionRank::best) {
  using Rank = kpz::team::BallotBinRank<Space, false>;
  if (how == PartitionRank::best) how = PartitionRank::ballot;
  return how == PartitionRank::ballot && num_bins <= Rank::max_bins ? how : PartitionRank::table;
}

// How a partition splits the input: `chunks` chunks of consecutive `tile`-element tiles (an even
// share each), chunk c walked tile after tile by team c in pass 2. Pass 1 counts `parts` parts of
// every chunk with a team each (part p of chunk c is entry c * parts + p; its tiles are every
// parts-th tile of the chunk from its p-th on, so a chunk's parts are exactly its tiles), and its
// last team turns the (bin, part) counts into places: both passes must get the same layout.
struct PartitionLayout {
  PartitionRank rank;  // resolved: never `best`
  int team_size;
  int items;   // elements per member and tile
  int tile;    // team_size x items
  int tiles;   // ceil(N / tile)
  int chunks;  // teams of pass 2, never more than the tiles
  int parts;   // teams of pass 1 per chunk
};

template <class Space>
PartitionLayout partition_layout(const FastLaunch& launch, std::size_t n, int num_bins,
                                 PartitionRank how = PartitionRank::best) {
  const PartitionRank rank = partition_rank_used<Space>(num_bins, how);
  if (rank != PartitionRank::ballot)
    return {rank, launch.team_size, launch.items, launch.tile, launch.tiles, launch.chunks, 1};
  // launch.chunks is the device's thread capacity in teams (on a GPU 2048 threads per SM), but
  // pass 2's registers (LaunchBounds<256, 2>) and scratch ring keep kBallotTeamsPerSm teams of 256
  // resident: one whole wave of chunks, each walked by one team (H100, N = 2^28: 264 chunks of
  // 4096-element tiles). Its kBallotParts parts per chunk give pass 1 a whole wave of its own.
  const bool gpu = is_gpu_v<Space>;
  const int tile = launch.team_size * kBallotItems, tiles = teams_for(n, tile);
  const int league = gpu ? std::max(1, launch.chunks * launch.team_size / 2048) * kBallotTeamsPerSm : launch.chunks;
  const int chunks = std::max(1, std::min(tiles, league));
  return {rank, launch.team_size, kBallotItems, tile, tiles, chunks, kBallotParts};
}

// Entries of a partition's chunk_offsets: a count, then a place, per (bin, part); the total; the
// arrival counter of pass 1 (its last team scans the counts).
inline std::size_t partition_chunk_entries(const PartitionLayout& layout, int num_bins) {
  return static_cast<std::size_t>(num_bins) * layout.chunks * layout.parts + 2;
}

// --partition in two launches (the benchmark also times each):
// pass 1 `partition_histograms`: per-part histograms into chunk_offsets (bin-major, entry
//   b * chunks * parts + k for part k; reads N), which the last team to finish turns into places
//   with one exclusive scan in place, writing bin_offsets too;
// pass 2 `partition_scatter`: every chunk, tile after tile, ranked by bin in scratch and scattered
//   stably (reads N, writes N).
// chunk_offsets has partition_chunk_entries(layout, num_bins) entries; bin_offsets num_bins + 1.
template <class Space>
void partition_histograms(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                          View<int*, Space> chunk_offsets, View<int*, Space> bin_offsets);
template <class Space>
void partition_scatter(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                       View<int*, Space> chunk_offsets, View<float*, Space> out);
template <class Space>
void partition_two_pass(const Space& space, const PartitionLayout& layout, int num_bins, View<const float*, Space> in,
                        View<int*, Space> chunk_offsets, View<float*, Space> out, View<int*, Space> bin_offsets);

}  // namespace kpz::bin_extract

#pragma once
// bin-extract --team-scan's and --one-read's constants and launch shapes (team_scan_extract and
// one_read_extract in reference/ and exercises/): words of flags, loads per index, chunks, the
// scratch and its size.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include "kpz/backend_traits.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

namespace kpz::bin_extract {

// --team-scan works on words: kWordBits consecutive elements whose "selected" flags fit one
// unsigned, so a member can count them with one popcount and visit only the selected ones.
inline constexpr int kWordBits = 32;

KOKKOS_INLINE_FUNCTION constexpr int words_in(int elements) {
  return (elements + kWordBits - 1) / kWordBits;
}

// --team-scan's launch shape (both of its team launches use it). On a GPU a team is a block of
// 256 members, one lane each, and a word per member. On a CPU (speed) one thread per team and
// tiles of kTeamScanHostTile elements: 16 KiB, in L1 between a word's mask and the writes of its
// selected elements (16384 was no faster on the 16-core CPU). The host's lanes are one thread's loop: its
// vector length only shows in the config.
inline constexpr int kTeamScanGpuTeam = 256;
inline constexpr int kTeamScanGpuWords = 1;
inline constexpr int kTeamScanHostLanes = 16;
inline constexpr int kTeamScanHostTile = 4096;

// Kokkos 5.0.2's CUDA team_scan ranks members by threadIdx.y and joins 32 consecutive ranks with
// only a warp barrier, so with vector lanes (a member is then a whole warp) a team of more than
// one member races: on a GPU a vector length above 1 gets teams of one member.
template <class Space>
LaunchShape team_scan_shape(const Space& space, const ShapeRequest& req, Purpose purpose) {
  KernelNeeds needs{.vector_loops = true,
                    .gpu_team = kTeamScanGpuTeam,
                    .host_vector = kTeamScanHostLanes,
                    .gpu_tile = kTeamScanGpuTeam * kTeamScanGpuWords * kWordBits,
                    .host_tile = kTeamScanHostTile};
  if (is_gpu_v<Space> && req.vector_length > 1) {
    if (req.team_size > 1)
      throw ShapeError("--team-scan on " + std::string(space_name<Space>()) + ": a vector length above 1 needs " +
                       "--team-size 1 (Kokkos 5.0.2's team_scan assumes one lane per member)");
    needs.gpu_team = 1;
  }
  return launch_shape(space, needs, req, purpose);
}

// --team-scan's loads per TeamVectorRange index, when the tile's length is a multiple of them:
// independent loads a GPU thread has in flight at once (with one, most of the bandwidth goes
// unused); on a CPU they are that many contiguous vectors. Fewer in the place launch, whose
// registers and scratch already limit how many teams a GPU multiprocessor holds (measured on an
// H200: benchmarks/results/portability-notes.md).
inline constexpr int kCountLoads = 8;
inline constexpr int kPlaceLoads = 4;

// Where element e's bit waits in the place launch's staging scratch: rows of kWordBits + 1 slots,
// one row per word. The extra slot per row puts the rows' starts in different shared memory
// banks on a GPU, so that the 32 members of a warp, each reading its own row, do not conflict.
KOKKOS_INLINE_FUNCTION constexpr int flag_slot(int e) {
  return static_cast<int>(static_cast<unsigned>(e) + static_cast<unsigned>(e) / kWordBits);
}
KOKKOS_INLINE_FUNCTION constexpr int flag_slots(int tile) {
  return words_in(tile) * (kWordBits + 1);
}

// Whether team_scan_extract()'s place launch stages the tile's flags in scratch: in teams of
// several members, so that they load the tile together (coalesced on a GPU). A team of one member
// reads its words straight: they are contiguous already.
inline bool team_scan_staged(const LaunchShape& shape) {
  return shape.team_size > 1;
}

// Level-0 scratch of team_scan_extract()'s place launch: a bit mask per word of the tile and,
// where it stages, a slot per element.
template <class Space>
std::size_t team_scan_scratch_bytes(const LaunchShape& shape) {
  return ScratchView<unsigned*, Space>::shmem_size(words_in(shape.tile)) +
         (team_scan_staged(shape) ? ScratchView<unsigned*, Space>::shmem_size(flag_slots(shape.tile)) : 0);
}

// --one-read: every member (a warp of lanes on CUDA) walks its own chunk of tiles; the members of a
// team share nothing. A tile is kOneReadRuns runs of kOneReadItems consecutive elements: a lane
// loads a run's elements together (that many loads in flight), and a run's selection is one mask
// of kOneReadItems bits.
inline constexpr int kOneReadRuns = 32;
inline constexpr int kOneReadItems = 8;
inline constexpr int kOneReadTile = kOneReadRuns * kOneReadItems;

KOKKOS_INLINE_FUNCTION constexpr long one_read_tiles(long n) {
  return (n + kOneReadTile - 1) / kOneReadTile;
}
// Chunk c of `chunks` owns the tiles [chunk_begin(c), chunk_begin(c + 1)): an even share of
// consecutive tiles (--one-read's members and the fast kernels' teams split the input this way).
KOKKOS_INLINE_FUNCTION constexpr long chunk_begin(long tiles, int chunks, int c) {
  return tiles * c / chunks;
}

// --one-read's launch shape: on a GPU teams of 8 members of 32 lanes (a warp each); on a CPU
// Kokkos' recommendation for speed (one thread per team) and teams as large as the backend gives
// for checking, so that members that share what they should not show. A fixed tile.
template <class Space>
LaunchShape one_read_shape(const Space& space, const ShapeRequest& req, Purpose purpose) {
  const KernelNeeds needs{.vector_loops = true,
                          .gpu_team = 8,
                          .gpu_vector = kOneReadRuns,
                          .gpu_tile = kOneReadTile,
                          .host_tile = kOneReadTile};
  return launch_shape(space, needs, req, purpose);
}

// Chunks (members in all) of --one-read: on a GPU 32 warps per multiprocessor (its concurrency over
// 64 threads), on a CPU one per thread; never more than the tiles. `requested` (--chunks) wins.
template <class Space>
int one_read_chunks(const Space& space, long n, int requested) {
  const long tiles = one_read_tiles(n);
  const long wanted = requested > 0 ? requested : (is_gpu_v<Space> ? space.concurrency() / 64 : space.concurrency());
  return static_cast<int>(Kokkos::max(1L, Kokkos::min(tiles, wanted)));
}

// Level-0 scratch of --one-read's compaction, per member (Kokkos::PerThread): the masks of a
// tile's runs.
template <class Space>
std::size_t one_read_scratch_bytes() {
  return ScratchView<unsigned*, Space>::shmem_size(kOneReadRuns);
}

}  // namespace kpz::bin_extract

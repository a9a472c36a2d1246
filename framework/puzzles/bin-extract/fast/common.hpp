#pragma once
// What the framework's fast kernels share (extract.cpp, partition_counts.cpp,
// partition_scatter.cpp): loads into registers, packed per-bin counts, the launch policies,
// the choice of warp groups and the walk over a chunk's tiles. Device helpers only: the kernel
// lambdas stay in those .cpp files, each compiled once per space (a kernel lambda in a header
// that several translation units instantiate is an ODR trap under nvcc).
#include <cstdint>
#include <type_traits>

#include "bin-extract/fast/kernels.hpp"
#include "kpz/team/ballot_select.hpp"

namespace kpz::bin_extract {

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
KOKKOS_INLINE_FUNCTION int padded(int f) {
  return f + (f >> 5);
}

// Per-member counts in registers, 8 bits per bin, two words: for up to 16 bins when a member owns
// fewer than 256 elements (a GPU; a host member owns 1024 and counts in scratch).
template <int Items>
KOKKOS_INLINE_FUNCTION bool packed_counts(int num_bins) {
  return Items < 256 && num_bins <= 16;
}

// Those counts: up to 16 bins below 256 in two 64-bit words, 8 bits per bin (bins 0-7 in lo,
// 8-15 in hi). Counting is a shift and an add: an array of counters indexed by a run-time bin
// could not stay in registers.
struct PackedCounts {
  U64 lo = 0, hi = 0;

  KOKKOS_INLINE_FUNCTION int get(int b) const { return static_cast<int>(((b < 8 ? lo : hi) >> (8 * (b & 7))) & 0xff); }
  // Adds `n` (0 or 1) to bin b's count.
  KOKKOS_INLINE_FUNCTION void add(int b, U64 n = 1) { add(field(b), n); }

  // Reading a count and then adding to it (an element's rank among the member's earlier elements
  // of its bin): field(b), count(f), add(f), with the word and the shift found once.
  struct Field {
    int bin, shift;
    U64 word;
  };
  KOKKOS_INLINE_FUNCTION Field field(int b) const { return {b, 8 * (b & 7), b < 8 ? lo : hi}; }
  KOKKOS_INLINE_FUNCTION static int count(const Field& f) { return static_cast<int>((f.word >> f.shift) & 0xff); }
  KOKKOS_INLINE_FUNCTION void add(const Field& f, U64 n = 1) {
    const U64 inc = n << f.shift;
    if (f.bin < 8)
      lo += inc;
    else
      hi += inc;
  }
};

// The chunk kernels keep two tiles' values in registers (the one being ranked, the next one in
// flight): unbounded, ptxas gives them about 100 registers per thread, i.e. two teams of 256 per
// SM. Launch bounds cap them at 64 (2 teams of 512 or 4 of 256 per SM).
template <class Space>
using ChunkPolicy = BoundedTeamPolicy<Space, 512, 2>;

// The ring kernels (the partition's two ballot passes, the extract's compaction) run teams of at
// most 256 (the scratch ring caps the team) and MinBlocks of them per SM: ptxas gives them at
// most 65536 / (256 x MinBlocks) registers. Each kernel's MinBlocks is the fastest measured
// (benchmarks/results/bin-extract-notes.md): fewer teams with more registers can win.
template <class Space, int MinBlocks>
using BallotPolicy = BoundedTeamPolicy<Space, 256, MinBlocks>;

// Calls run(std::true_type) where the team is made of whole CUDA warps (the warp paths of
// kpz::team::BallotBinRank and BallotSelect), run(std::false_type) everywhere else: the one place
// the ring kernels choose their group.
template <class Space, class Run>
void with_warp_groups(int team_size, const Run& run) {
  if constexpr (is_gpu_v<Space>)
    if (warp_groups<Space>(team_size)) return run(std::true_type{});
  run(std::false_type{});
}

// Chunk c of `chunks` owns tiles [chunk_begin(c), chunk_begin(c + 1)) of `tiles` (launch.hpp).

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

}  // namespace kpz::bin_extract

#pragma once
// segscan's fast kernels, which are not the lesson: the framework's segmented reduction and SpMV
// by merge-path load balancing (merge_path*.cpp), the reference the runner and the benchmark
// compare the lesson's kernels with, and the optional KokkosSparse::spmv (kokkos_kernels.cpp).
#include <cstdint>
#include <vector>

#include "kpz/team/ordered_scan.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan {

// ---- The framework's fast segmented reduction (merge_path.cpp) ----
//
// Merge-path load balancing (Merrill & Garland's merge-based SpMV, ModernGPU's segreduce): the
// S segment ends and the N value indices, merged, form a path of S + N items; team t takes
// items [t * tile_items, (t + 1) * tile_items) whatever the segment lengths, stages its values
// and segment ends in scratch, and each member walks items_per_member consecutive items
// serially. Members' partial sums meet in a team segmented scan (kpz::team::OrderedScan); the
// partial sums of segments that cross tiles meet in a segmented scan of the tiles' carries (a
// second, small pass), which is added to the first segment that ends in each tile.
// Deterministic: no atomics.
struct MergePathPlan {
  int team_size;   // members per team
  int tile_items;  // merge items per team (segment ends + values)
  int chunk;       // pairs per team in the scan of tile carries
  // true: a team stages its tile in scratch and its members walk shares of it (a GPU); false:
  // one thread walks each tile in place (a CPU, whose cache is its scratch).
  bool staged = true;
};

// CUDA: teams of 128 members walking 43 items each (5504 items per team; an odd count, so that
// members walking values read different scratch banks), about 22 KiB of scratch; the carry
// scan takes chunks of 512 pairs. Since the 16-byte cp.async staging the tile shape matters
// little: on the H100 every shape swept from 4128 to 6528 items per team was within 1.5 points
// (% of copy) of this one at every L (benchmarks/results/segscan-notes.md).
// SpMV: 23 items per member (2944 per team, about 12 KiB): its products gather x at random
// columns, latency that only more teams per SM hide (H100: 2944 items 397 / 408 GB/s on the two
// matrices, against 285 / 293 with 6016; segscan-notes.md).
// Host: tiles of 4096 items walked in place by one thread each, chunks of 1024 pairs. Staged in
// scratch (16-core Xeon, commit 7c41f32): SpMV at 0.52x KokkosSparse::spmv, whose row loop is the
// in-place walk (benchmarks/results/segscan-notes.md).
// The team size is the caller's: items per member = tile_items / team_size.
template <class Space>
MergePathPlan default_merge_path_plan(int team_size, bool spmv = false) {
  const bool gpu = is_gpu_v<Space>;
  return MergePathPlan{team_size, gpu ? (spmv ? 2944 : 5504) : 4096, gpu ? 512 : 1024, gpu};
}

// A scratch slot of the tile kernel: a value of the tile, or the end of one of its segments (an
// element of the CSR offsets), later that segment's total.
template <class T>
union MergeSlot {
  T value;
  int end;
};

// Slots of the tile kernel beyond one per merge item: values and ends are copied as whole
// 16-byte Quads (up to 3 extra slots before and after each of the two arrays), the end after the
// tile's last (or a sentinel), and up to 3 slots to reach a 16-byte boundary in scratch.
constexpr int kMergeSlotsExtra = 20;

// Level-0 scratch of the tile kernel: a slot per merge item plus kMergeSlotsExtra, and the team
// scan of the members' carries.
template <class Space, class T>
std::size_t merge_path_scratch_bytes(const MergePathPlan& plan) {
  return ScratchView<MergeSlot<T>*, Space>::shmem_size(plan.tile_items + kMergeSlotsExtra) +
         team::OrderedScan<Space, SegPair<T>>::scratch_bytes(plan.team_size);
}

// Scratch of the carry scan: its team scan of the members' runs.
template <class Space, class T>
std::size_t merge_path_carry_scratch_bytes(const MergePathPlan& plan) {
  return team::OrderedScan<Space, SegPair<T>>::scratch_bytes(plan.team_size);
}

// Where a team's share of the merge path starts: x segment ends and y values consumed.
struct Coord {
  int x, y;
};

// Device memory the merge-path kernels need, allocated once per problem shape (benchmarks
// reuse it across runs, so no allocation is timed).
template <class Space, class T>
struct MergePathWorkspace {
  MergePathWorkspace() = default;
  MergePathWorkspace(const Space& space, const MergePathPlan& plan, std::int64_t segments, std::int64_t values);

  std::int64_t segments = 0, values = 0;
  int tiles = 0;
  View<Coord*, Space> coords;  // tiles + 1 starting coordinates
  // The tiles' carries, then the levels of their exclusive segmented scan: level l scans
  // carry_in[l] into carry_out[l]; carry_in[l + 1] holds level l's chunk aggregates.
  std::vector<View<SegPair<T>*, Space>> carry_in, carry_out;
};

// Step 1 of merge_path_reduce alone (where each tile starts: ws.coords), for the bench's
// stage timing.
template <class Space, class T>
void merge_path_locate(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                       View<const int*, Space> offsets);

// sums[s] = values[offsets[s]] + ... + values[offsets[s+1] - 1] (0 for an empty segment).
// offsets has S + 1 entries, validated on the host; ws was built for (S, N).
template <class Space, class T>
void merge_path_reduce(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                       View<const T*, Space> values, View<const int*, Space> offsets, View<T*, Space> sums);

// y = A x for a CSR matrix (row_offsets, columns, matrix_values): the segmented reduction of
// the products matrix_values[j] * x[columns[j]] over the rows; ws was built for (rows, nnz).
template <class Space, class T>
void merge_path_spmv(const Space& space, const MergePathPlan& plan, MergePathWorkspace<Space, T>& ws,
                     View<const int*, Space> row_offsets, View<const int*, Space> columns,
                     View<const T*, Space> matrix_values, View<const T*, Space> x, View<T*, Space> y);

// ---- Kokkos Kernels (kokkos_kernels.cpp): present when CMake found it ----

// True when this build links Kokkos Kernels.
bool have_kokkos_kernels();

// y = A x by KokkosSparse::spmv with an SPMVHandle asking for KokkosSparse::SPMV_NATIVE (the
// Kokkos Kernels implementation, never the vendor library). Returns a callable that runs it
// (the handle and the matrix live inside it, so repeated calls time only the spmv); throws
// std::logic_error when the build has no Kokkos Kernels.
template <class Space, class T>
struct KokkosKernelsSpmv {
  KokkosKernelsSpmv(const Space& space, int rows, int cols, View<int*, Space> row_offsets, View<int*, Space> columns,
                    View<T*, Space> matrix_values, View<T*, Space> x, View<T*, Space> y);
  ~KokkosKernelsSpmv();
  KokkosKernelsSpmv(const KokkosKernelsSpmv&) = delete;
  KokkosKernelsSpmv& operator=(const KokkosKernelsSpmv&) = delete;
  void operator()();
  struct State;
  State* state = nullptr;
};

}  // namespace kpz::segscan

#pragma once
// segscan: segmented scans, segmented reductions and SpMV.
//
// A sequence of N values is cut into consecutive segments; head flags mark the first element of
// each non-empty segment (segments.hpp converts ids, flags and CSR offsets). The segmented
// inclusive scan restarts at every head:
//   out[i] = values[h] + ... + values[i], h = the head of i's segment.
// It is an ordinary scan of (value, flag) pairs under the operator
//   (v_i, f_i) (+) (v_j, f_j) = (f_j ? v_j : v_i + v_j, f_i | f_j)     (earlier (+) later),
// which is associative but not commutative: Kokkos' team scans (sum only, backend-dependent
// operand order) cannot run it, so the kernels write it in team scratch with barriers; only the
// vector-level scan takes it, as a reducer (SegReducer below; --vector-scan).
//
// The kernel signatures (signatures.inc) are implemented twice with the same text: by the
// learner in exercises/segscan/ (namespace kpz::segscan::exercise) and in reference/segscan/
// (namespace kpz::segscan::reference). merge_path.cpp holds the framework's fast segmented
// reduction and SpMV (merge-path load balancing), kokkos_kernels.cpp the optional
// KokkosSparse::spmv comparison.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kpz/backend_traits.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/quad.hpp"
#include "kpz/reducer.hpp"
#include "kpz/spaces.hpp"
#include "kpz/team/ordered_scan.hpp"
#include "kpz/types.hpp"
#include "segscan/signatures.inc"

namespace kpz::segscan {

using Flag = std::uint8_t;  // head flags on the device: 1 where a segment starts

// One element of the scan: a value and "a segment starts here or earlier in the range".
template <class T>
struct SegPair {
  T value;
  int flag;
};

// A team's buffer of pairs in level-0 scratch.
template <class Space, class T>
using PairBuffer = ScratchView<SegPair<T>*, Space>;

// What the host decides before a launch.
struct Launch {
  int team_size;          // team members per team
  int tile;               // elements per team (multi-team scan); the single-team kernels use N
  int vector_length = 1;  // vector lanes per member (--vector-scan's ThreadVectorRange scans)
  int row = 0;            // --vector-scan: elements per row, one member's vector scan (vector_scan_row)
};

inline int next_pow2(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

// Level-0 scratch of a buffer of n pairs.
template <class Space, class T>
std::size_t pair_buffer_bytes(int n) {
  return ScratchView<SegPair<T>*, Space>::shmem_size(static_cast<std::size_t>(n));
}

// Hillis-Steele (simple, exclusive, multi-team): two buffers of n pairs (double buffering).
template <class Space, class T>
std::size_t hillis_steele_scratch_bytes(int n) {
  return 2 * pair_buffer_bytes<Space, T>(n);
}

// Blelloch (work-efficient): one buffer of n rounded up to a power of two.
template <class Space, class T>
std::size_t blelloch_scratch_bytes(int n) {
  return pair_buffer_bytes<Space, T>(next_pow2(n));
}

// Elements per team of the multi-team scan: 1024 (8 KiB per buffer of float pairs).
template <class Space>
int default_tile() {
  return 1024;
}

// ---- --vector-scan: the segmented operator as a Kokkos reducer ----
//
// Kokkos 5.0.2 honours a custom reducer only in the vector-level scan,
// parallel_scan(ThreadVectorRange(member, count), closure, reducer) (team scans are sum only):
// - host backends run the closure once per element, in order, with final == true, starting from
//   reducer.init(): the closure's own `update = combine(update, x)` is the whole scan; join is
//   never called and the total is never written back to the reducer's reference;
// - CUDA runs it on the lanes of a warp: closure(i - 1, val, false) from the identity, then a
//   shuffle-up tree that calls join(dest, src) with dest the LATER range and src the EARLIER one,
//   then join(val, carry-in) likewise, then closure(i, val, true); it writes the total back. It
//   also ignores the start of a ThreadVectorRange(member, begin, end): use (member, count) and
//   offset the index yourself.
// So join must put src before dest: dest = combine(src, dest). A wrong order passes on the host.
template <class T>
struct SegReducer : Reducer<SegReducer<T>, SegPair<T>> {
  using value_type = SegPair<T>;
  KOKKOS_INLINE_FUNCTION explicit SegReducer(value_type& result) : SegReducer::Reducer(result) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest = value_type{dest.flag ? dest.value : src.value + dest.value, src.flag | dest.flag};
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type{T(0), 0}; }
};

// Elements per row of --vector-scan: one member's ThreadVectorRange scan. Each vector lane
// walks a chunk of row / lanes consecutive elements (CUDA: 32 lanes of 64, or of 16 for short
// segments; host: one lane walks the whole row). Rows of 2048 rather than 512: the lane's search
// for its first segment and the scan of the lanes' totals are paid once per 64 elements instead
// of 16 (H100, L = 32, both with Quad loads: the tile kernel 0.72 ms with rows of 512, 0.59 with
// 2048). Where segments are shorter than kShortSegments on average, rows of 512: a warp's lanes
// then walk 16 elements each, and the offsets and sums they touch together stay within a few
// cache lines (H100, L = 4: 1.28 ms with rows of 512, 1.54 with 2048; at L = 8 2048 is faster).
// The measurements: benchmarks/results/portability-notes.md.
constexpr int kVectorScanRow = 2048;
constexpr int kShortSegmentRow = 512;
constexpr int kShortSegments = 8;

// The row of --vector-scan for n elements in `segments` segments (the host decides, per launch,
// unless told: `--row`, which the trace configuration sets small so that a tile has several rows).
inline int vector_scan_row(std::int64_t n, std::int64_t segments) {
  return segments > 0 && n < kShortSegments * segments ? kShortSegmentRow : kVectorScanRow;
}

// A lane's chunk of at most kRegisterChunk elements is walked from registers, kLaneLoads at a
// time: all of a batch's loads in flight (as 16-byte Quads where the data allows) before its
// first add. Longer chunks (a CPU lane's whole row) are walked one segment piece at a time.
constexpr int kLaneLoads = 16;
constexpr int kRegisterChunk = 64;

KOKKOS_INLINE_FUNCTION constexpr int vector_scan_items_per_lane(int row, int lanes) {
  return (row + lanes - 1) / lanes;
}

// Elements per team of --vector-scan. GPU 16384: fewer, longer tiles pay the tile's fixed steps
// (three barriers, the rows' scan by one member) less often (H100, rows of 512: the tile kernel at
// L = 32 took 0.88 ms with 8192, 0.82 with 16384; 4096 was slower still); with rows of 2048 it is
// one row per member of 8. Host 4096: a 16 KiB L1-sized
// working set per team.
template <class Space>
int default_vector_scan_tile() {
  return is_gpu_v<Space> ? 16384 : 4096;
}

// Level-0 scratch of the --vector-scan tile kernel: per row its total, its carry-in and its
// open segment (id and partial sum); per lane of every row its total, its carry-in, its pending
// segment and that segment's part in the lane's chunk. The host's checks, made before the data
// exist, pass the shorter row (kShortSegmentRow): more rows, the most scratch.
template <class Space, class T>
std::size_t vector_scan_scratch_bytes(int tile, int lanes, int row) {
  const int rows = (tile + row - 1) / row;
  const int slots = rows * lanes;
  return 2 * pair_buffer_bytes<Space, T>(rows) + ScratchView<int*, Space>::shmem_size(rows) +
         ScratchView<T*, Space>::shmem_size(rows) + 2 * pair_buffer_bytes<Space, T>(slots) +
         ScratchView<int*, Space>::shmem_size(slots) + ScratchView<T*, Space>::shmem_size(slots);
}

// First k in [lo, hi) with offsets(k) >= x (hi if none); offsets is nondecreasing.
template <class OffsetsView>
KOKKOS_INLINE_FUNCTION int first_at_least(const OffsetsView& offsets, int lo, int hi, int x) {
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (offsets(mid) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

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

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS_T(KPZ_SEGSCAN_KERNELS)

}  // namespace kpz::segscan

// Compiles one implementation's kernels for execution space S, for float and int values.
#define KPZ_SEGSCAN_INSTANTIATE(S)                         \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_KERNELS, S, float) \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_KERNELS, S, int)

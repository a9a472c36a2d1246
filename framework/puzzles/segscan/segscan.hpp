#pragma once
// segscan: segmented scans, segmented reductions and SpMV.
//
// A sequence of N values is cut into consecutive segments; head flags mark the first element of
// each non-empty segment (spec.hpp's segments:: converts ids, flags and CSR offsets). The segmented
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
// (namespace kpz::segscan::reference). fast/ holds what is not the lesson: the framework's fast
// segmented reduction and SpMV (merge-path load balancing) and the optional KokkosSparse::spmv
// comparison (fast/kernels.hpp).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kpz/backend_traits.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/quad.hpp"
#include "kpz/reducer.hpp"
#include "kpz/spaces.hpp"
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
  using Pairs = PairBuffer<Space, T>;
  return 2 * Pairs::shmem_size(rows) + ScratchView<int*, Space>::shmem_size(rows) +
         ScratchView<T*, Space>::shmem_size(rows) + 2 * Pairs::shmem_size(slots) +
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

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS_T(KPZ_SEGSCAN_KERNELS)

}  // namespace kpz::segscan

// Compile the kernels of one file of an implementation for execution space S, for float and int
// values (used with KPZ_FOR_EACH_SPACE at the end of that file).
#define KPZ_SEGSCAN_INSTANTIATE_SCANS(S)                        \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_SCAN_KERNELS, S, float) \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_SCAN_KERNELS, S, int)
#define KPZ_SEGSCAN_INSTANTIATE_VECTOR(S)                         \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_VECTOR_KERNELS, S, float) \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_SEGSCAN_VECTOR_KERNELS, S, int)

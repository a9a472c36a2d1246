#pragma once
// bin-extract: stream compaction by prefix sums. NUM_BINS bins over [0, 1):
// bin(x) = floor(x * NUM_BINS) in float arithmetic, clamped to [0, NUM_BINS - 1] (so negatives go
// to bin 0, 1.0 and larger to the last bin). A selected element's place in the output is the
// number of selected elements before it: an exclusive prefix sum of the predicate.
//
// The kernel signatures the learner completes are in signatures.inc, implemented twice:
// exercises/bin-extract/ (namespace kpz::bin_extract::exercise) and reference/bin-extract/
// (kpz::bin_extract::reference). The fast kernels the benchmark measures (an extract that
// compacts per chunk and then places the chunks, a two-pass partition over the same chunks)
// are the framework's, in fast/.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bin-extract/launch.hpp"
#include "bin-extract/signatures.inc"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/quad.hpp"
#include "kpz/spaces.hpp"
#include "kpz/team/ballot_bin_rank.hpp"
#include "kpz/team/tile_ring.hpp"
#include "kpz/tile_grid.hpp"
#include "kpz/types.hpp"

namespace kpz::bin_extract {

// The bin of x: floor(x * B) clamped to [0, B - 1]. Float arithmetic on purpose: the host oracle
// and the kernels call this same function, so an element right at a bin edge lands in the same
// bin everywhere. Clamping the product first makes truncation equal to floor, and the two
// selects compile to max/min instructions: no branches. NaN never reaches a kernel (the host
// rejects it); if it did, the first select would send it to bin 0.
// On a CUDA device the truncation is an addition instead of a conversion: for 0 <= c < 2^23,
// c + 2^23 rounded toward zero is exactly 2^23 + floor(c), so its low mantissa bits are the bin
// (the same integer as the host's cast). F2I runs at a quarter of the FADD rate, and the
// partition computes a bin three times per element. Valid for num_bins <= 2^23 (the CLI allows
// 256).
KOKKOS_INLINE_FUNCTION int bin_of(float x, int num_bins) {
  const float s = x * static_cast<float>(num_bins);
  const float last = static_cast<float>(num_bins - 1);
  const float above_zero = s > 0.0f ? s : 0.0f;
  // above_zero is never NaN, so fminf is the select below (one FMNMX instead of FSETP + FSEL).
  KOKKOS_IF_ON_DEVICE((return __float_as_int(__fadd_rz(fminf(above_zero, last), 8388608.0f)) - 0x4B000000;))
  KOKKOS_IF_ON_HOST((const float clamped = above_zero < last ? above_zero : last; return static_cast<int>(clamped);))
}

// The predicate "x is in bin `target`" as a function object (for Kokkos::Experimental::copy_if
// and CUB, which take a callable).
struct InBin {
  int num_bins;
  int target;
  KOKKOS_INLINE_FUNCTION bool operator()(const float& x) const { return bin_of(x, num_bins) == target; }
};

// What the host decides before a launch of the learner's kernels.
struct Launch {
  int team_size;          // members per team
  int tile;               // elements per team: independent of the team size
  int vector_length = 1;  // lanes per member (kpz::tile_launch's shape)
};

inline int teams_for(std::size_t n, int tile) {
  return static_cast<int>((n + tile - 1) / tile);
}

// Elements per team of --extract and --partition when --tile is not given.
template <class Space>
int default_tile() {
  return is_gpu_v<Space> ? 2048 : 4096;
}

// Level-0 scratch of partition(): the tile of input and a histogram of num_bins counters.
template <class Space>
std::size_t partition_scratch_bytes(int tile, int num_bins) {
  return ScratchView<float*, Space>::shmem_size(tile) + ScratchView<int*, Space>::shmem_size(num_bins);
}

// Fewest bytes any implementation moves: read the input once, write what it outputs once.
inline double extract_bytes(std::size_t n, std::size_t selected) {
  return static_cast<double>(sizeof(float)) * static_cast<double>(n + selected);
}
inline double partition_bytes(std::size_t n, int num_bins) {
  return static_cast<double>(sizeof(float)) * 2.0 * static_cast<double>(n) +
         static_cast<double>(sizeof(int)) * static_cast<double>(num_bins + 1);
}

// Host boundary: bins of NaN (and of infinities) are not defined. Throws UsageError (exit 2).
void validate_input(const std::vector<float>& values);

// ---------------------------------------------------------------------------------------------
// Library baseline (benchmarks/bin-extract/cuda/, CUDA builds only): selects the elements of
// `target_bin` from `in`, timed with CUDA events (cfg.warmup runs, median of cfg.runs), and
// returns the selection in `selected` so the benchmark can check it before reporting.
using LibrarySelectFn = ExternalTiming(const std::vector<float>& in, int num_bins, int target_bin,
                                       const BenchConfig& cfg, std::vector<float>& selected);
inline constexpr const char* kCubSelectIf = "bin-extract: CUB DeviceSelect::If";

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BIN_EXTRACT_KERNELS)

}  // namespace kpz::bin_extract

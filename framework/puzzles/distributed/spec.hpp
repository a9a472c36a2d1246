#pragma once
// What distributed's runner shares (spec.cpp, run.cpp, inputs.cpp, oracle.cpp) with its tests and
// benchmark: the variants, the validated partition, the global inputs and the oracles.
#include <cstdint>
#include <string>
#include <vector>

#include "distributed/distributed.hpp"
#include "kpz/check.hpp"
#include "kpz/registry.hpp"

namespace kpz::distributed {

// The variants (VariantSpec::id), in learning order.
enum class Variant { global_sum, halo, segmented_scan };

// Global elements per run at most.
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 26;

// One `kpuzzles run` of a variant, on the ranks of the MPI world this process is in (run.cpp).
// kpuzzles starts req.ranks of them (PuzzleSpec::ranks); a test binary under `mpiexec -n R`
// runs every case on its R. req.ranks is not read: the world decides.
RunReport run(const RunRequest& req);

// The slices of `n` elements over `ranks` (--uneven 0: even, 1: seeded cut points). Throws
// UsageError for a case that cannot be split: every rank calls it with the same global values
// before any message, so all of them refuse alike.
Partition checked_partition(std::int64_t n, int ranks, bool uneven, std::uint64_t seed);

// The global inputs every rank draws from the seed (worked: the page's examples).
std::vector<std::int64_t> sum_inputs(std::int64_t n, std::uint64_t seed, bool worked);
struct ScanInputs {
  std::vector<std::int64_t> values;
  std::vector<std::uint8_t> heads;  // 1 where a segment starts; heads[0] == 1
};
ScanInputs scan_inputs(std::int64_t n, std::uint64_t seed, bool worked);

// The oracles, on the host (oracle.cpp).
std::int64_t sum_oracle(const std::vector<std::int64_t>& values);
std::vector<std::int64_t> scan_oracle(const ScanInputs& in);
// The sum of each segment (the scan at each segment's last element), for the run's notes.
std::vector<std::int64_t> segment_sums(const ScanInputs& in, const std::vector<std::int64_t>& scan);

// Who wrote global element i: "rank 2, element 6 of its slice 5..7".
OwnerFn slice_owner(const Partition& part);
// "rank 0 [0, 8), rank 1 [8, 16)": the run's note on the slices.
std::string describe_slices(const Partition& part);

}  // namespace kpz::distributed

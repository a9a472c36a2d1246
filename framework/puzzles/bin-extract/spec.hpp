#pragma once
// What bin-extract's runner shares (spec.cpp, run.cpp, inputs.cpp, trace_config.cpp) with the
// tests and the benchmark: the variants, the seeded inputs and the oracle.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/registry.hpp"

// The variants (VariantSpec::id): the runner, the checks and the trace budgets switch on the id,
// not on the name.
namespace kpz::bin_extract {

enum class Variant { extract, histogram, partition, team_scan, one_read };

// The options' limits: elements per run, bins.
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;
inline constexpr int kMaxBins = 256;

// One `kpuzzles run` of a variant on req.space (run.cpp).
RunReport run(const RunRequest& req);

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(Variant variant);

}  // namespace kpz::bin_extract

// Seeded inputs and the oracle (inputs.cpp).
namespace kpz::bin_extract {

// Input patterns (--pattern).
enum Pattern : int {
  kMixed = 0,       // uniform in [0, 1), bin edges k/B, +0 and -0, negatives, values >= 1
  kUniform = 1,     // uniform in [0, 1) (the benchmark's input)
  kOneBin = 2,      // every value in one bin
  kEdges = 3,       // only bin edges k/B (k = 0..B, so 1.0 too), 0.25, 0.5 and -0
  kOutside = 4,     // only negatives and values >= 1 (clamped into the first and last bins)
  kDescending = 5,  // random bins, values decreasing along the input inside every bin
  kWithNan = 6,     // mixed, with one NaN in the middle: rejected at the host boundary
};

// N seeded values (the same on every backend). `bin` is the bin of kOneBin.
std::vector<float> make_input(std::size_t n, int num_bins, int bin, int pattern, std::uint64_t seed);

// The oracle: a stable counting sort on the host. bins[i] is the bin of input i; order lists the
// input indices in output order (bin 0 first, input order within a bin); offsets has
// num_bins + 1 entries, bin b occupying order[offsets[b] .. offsets[b + 1]).
struct Oracle {
  std::vector<int> bins;
  std::vector<std::size_t> order;
  std::vector<std::size_t> offsets;
};
Oracle host_counting_sort(const std::vector<float>& in, int num_bins);

// "[0.375, 0.5)"; the first bin starts at -inf and the last ends at +inf (clamping).
std::string bin_range(int b, int num_bins);

}  // namespace kpz::bin_extract
